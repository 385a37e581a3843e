import type { Database } from '@server/db/client';
import { imapIdleLeases, senderAccounts } from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import { and, eq, inArray, isNull, lt, ne, notInArray, or, type SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { ImapFlow } from 'imapflow';
import type { OpenImapClient } from './imap-poller';

/*
 * IMAP IDLE: replies within seconds instead of at the next poll. Each worker keeps at most
 * `maxConnections` long-lived connections, one per sender account it holds, with INBOX open read-only
 * and the connection in IDLE. When the server announces new mail (EXISTS grows), the account's
 * ordinary poll is triggered (onNewMail); the poll does the reading, so IDLE adds no second way of
 * processing mail and polling on schedule stays the safety net.
 *
 * Only one worker holds an account: a lease row (imap_idle_leases) taken atomically, renewed every
 * refresh while the worker lives, deleted when it stops; a dead worker's lease runs out and another
 * worker takes the account over. A lost lease, an account paused or with IMAP turned off closes its
 * connection. A dropped connection is reopened with exponential backoff (with jitter), reset once a
 * connection has stayed up for a minute. A server without IDLE is left to polling and asked again
 * after a while.
 */

export interface ImapIdleManager {
  start(): void;
  /** Closes every connection and gives the leases back; safe to call twice. */
  close(): Promise<void>;
  status(): { held: string[]; connected: string[] };
}

interface Entry {
  accountId: string;
  client: ImapFlow | null;
  stopped: boolean;
  attempt: number;
  connectedAt: number | null;
  timer: NodeJS.Timeout | null;
}

/** A server without IDLE is asked again after this long (its capabilities may change). */
const NO_IDLE_RETRY_MS = 6 * 60 * 60_000;
/** A connection up this long counts as healthy: the next failure starts the backoff afresh. */
const HEALTHY_AFTER_MS = 60_000;
/** A refused trigger (a poll of the account is queued or running) is tried again this much later. */
const TRIGGER_RETRY_MS = 10_000;
const TRIGGER_ATTEMPTS = 3;

export function createImapIdleManager(options: {
  db: Database;
  log: FastifyBaseLogger;
  /** This worker's id, written on its leases. */
  owner: string;
  maxConnections: number;
  openImapClient: OpenImapClient;
  /** Triggers the account's poll; false when it could not be queued now (one is already waiting). */
  onNewMail: (senderAccountId: string) => Promise<boolean>;
  refreshMs?: number;
  leaseMs?: number;
  backoff?: { baseMs: number; maxMs: number };
  /** Tests: look only at these accounts. */
  onlyAccountIds?: string[];
}): ImapIdleManager {
  const { db, owner } = options;
  const log = options.log.child({ component: 'imap-idle' });
  const refreshMs = options.refreshMs ?? 30_000;
  const leaseMs = options.leaseMs ?? 90_000;
  const backoff = options.backoff ?? { baseMs: 2_000, maxMs: 5 * 60_000 };
  const held = new Map<string, Entry>();
  const noIdleUntil = new Map<string, number>();
  const closing: Promise<void>[] = [];
  let refreshTimer: NodeJS.Timeout | null = null;
  let refreshing: Promise<void> | null = null;
  let closed = false;

  const eligible = (): SQL[] => {
    const conditions: SQL[] = [eq(senderAccounts.imapEnabled, true), ne(senderAccounts.status, 'paused')];
    if (options.onlyAccountIds) conditions.push(inArray(senderAccounts.id, options.onlyAccountIds));
    return conditions;
  };

  function stop(accountId: string): void {
    const entry = held.get(accountId);
    if (!entry) return;
    held.delete(accountId);
    entry.stopped = true;
    if (entry.timer) clearTimeout(entry.timer);
    const client = entry.client;
    entry.client = null;
    if (client) closing.push(closeClient(client));
  }

  async function release(accountIds: string[]): Promise<void> {
    if (accountIds.length === 0) return;
    await db
      .delete(imapIdleLeases)
      .where(and(eq(imapIdleLeases.owner, owner), inArray(imapIdleLeases.senderAccountId, accountIds)));
  }

  function scheduleReconnect(entry: Entry): void {
    if (entry.stopped || closed) return;
    if (entry.connectedAt !== null && Date.now() - entry.connectedAt >= HEALTHY_AFTER_MS) entry.attempt = 0;
    entry.connectedAt = null;
    entry.attempt++;
    const ceiling = Math.min(backoff.maxMs, backoff.baseMs * 2 ** (entry.attempt - 1));
    const delay = Math.round(ceiling * (0.5 + Math.random() / 2));
    entry.timer = setTimeout(() => void connect(entry), delay);
    entry.timer.unref?.();
  }

  function trigger(accountId: string, attempt = 1): void {
    if (closed) return;
    options
      .onNewMail(accountId)
      .then((queued) => {
        if (queued || attempt >= TRIGGER_ATTEMPTS) return;
        const timer = setTimeout(() => trigger(accountId, attempt + 1), TRIGGER_RETRY_MS);
        timer.unref?.();
      })
      .catch((error: unknown) =>
        log.warn({ err: error, senderAccountId: accountId }, 'could not trigger a poll'),
      );
  }

  async function connect(entry: Entry): Promise<void> {
    entry.timer = null;
    if (entry.stopped || closed) return;
    let client: ImapFlow | null = null;
    try {
      const [account] = await db.select().from(senderAccounts).where(eq(senderAccounts.id, entry.accountId));
      if (!account) {
        stop(entry.accountId);
        await release([entry.accountId]);
        return;
      }
      client = await options.openImapClient(account);
      // We run IDLE ourselves, in a loop; imapflow must not start one of its own between our commands.
      client.options.disableAutoIdle = true;
      client.on('error', (error: unknown) =>
        log.debug({ err: error, senderAccountId: entry.accountId }, 'IDLE connection error'),
      );
      if (!client.usable) await client.connect();
      if (entry.stopped || closed) {
        await closeClient(client);
        return;
      }
      if (!client.capabilities.has('IDLE')) {
        log.info({ senderAccountId: entry.accountId }, 'the mail server has no IDLE; polling only');
        noIdleUntil.set(entry.accountId, Date.now() + NO_IDLE_RETRY_MS);
        await closeClient(client);
        stop(entry.accountId);
        await release([entry.accountId]);
        return;
      }
      await client.mailboxOpen('INBOX', { readOnly: true });
      const open = client;
      entry.client = open;
      entry.connectedAt = Date.now();
      open.on('exists', (change: { count: number; prevCount: number }) => {
        if (change.count > change.prevCount) trigger(entry.accountId);
      });
      open.on('close', () => {
        if (entry.client !== open) return;
        entry.client = null;
        scheduleReconnect(entry);
      });
      void idleLoop(entry, open);
    } catch (error) {
      log.debug(
        { err: error, senderAccountId: entry.accountId, attempt: entry.attempt },
        'IDLE connection failed',
      );
      if (client) await closeClient(client);
      scheduleReconnect(entry);
    }
  }

  /** IDLE until the server or a NOOP (imapflow's answer to a quiet socket) ends it, then again. */
  async function idleLoop(entry: Entry, client: ImapFlow): Promise<void> {
    while (!entry.stopped && entry.client === client && client.usable) {
      const started = Date.now();
      await client.idle().catch(() => undefined);
      // A session that ends at once (a refused IDLE) must not spin.
      if (Date.now() - started < 1_000) await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }

  async function refresh(): Promise<void> {
    const at = now();
    const until = new Date(at.getTime() + leaseMs);
    if (held.size > 0) {
      const ids = [...held.keys()];
      const renewed = await db
        .update(imapIdleLeases)
        .set({ leaseUntil: until })
        .where(and(eq(imapIdleLeases.owner, owner), inArray(imapIdleLeases.senderAccountId, ids)))
        .returning({ id: imapIdleLeases.senderAccountId });
      const kept = new Set(renewed.map((r) => r.id));
      for (const id of ids) if (!kept.has(id)) stop(id);
      const wanted = await db
        .select({ id: senderAccounts.id })
        .from(senderAccounts)
        .where(and(inArray(senderAccounts.id, ids), ...eligible()));
      const stillWanted = new Set(wanted.map((r) => r.id));
      const unwanted = ids.filter((id) => kept.has(id) && !stillWanted.has(id));
      for (const id of unwanted) stop(id);
      await release(unwanted);
    }
    const room = options.maxConnections - held.size;
    if (room <= 0 || closed) return;
    const skip = [...held.keys(), ...[...noIdleUntil].filter(([, t]) => t > Date.now()).map(([id]) => id)];
    const candidates = await db
      .select({ id: senderAccounts.id })
      .from(senderAccounts)
      .leftJoin(imapIdleLeases, eq(imapIdleLeases.senderAccountId, senderAccounts.id))
      .where(
        and(
          ...eligible(),
          or(isNull(imapIdleLeases.senderAccountId), lt(imapIdleLeases.leaseUntil, at)),
          skip.length > 0 ? notInArray(senderAccounts.id, skip) : undefined,
        ),
      )
      // Random, so workers starting together spread the accounts between them.
      .orderBy(sql`random()`)
      .limit(room);
    for (const { id } of candidates) {
      if (closed) return;
      const [claimed] = await db
        .insert(imapIdleLeases)
        .values({ senderAccountId: id, owner, leaseUntil: until })
        .onConflictDoUpdate({
          target: imapIdleLeases.senderAccountId,
          set: { owner, leaseUntil: until },
          setWhere: lt(imapIdleLeases.leaseUntil, at),
        })
        .returning({ id: imapIdleLeases.senderAccountId });
      if (!claimed) continue;
      const entry: Entry = {
        accountId: id,
        client: null,
        stopped: false,
        attempt: 0,
        connectedAt: null,
        timer: null,
      };
      held.set(id, entry);
      void connect(entry);
    }
  }

  function tick(): void {
    if (closed || refreshing) return;
    refreshing = refresh()
      .catch((error: unknown) => log.warn({ err: error }, 'IMAP IDLE refresh failed'))
      .finally(() => {
        refreshing = null;
      });
  }

  return {
    start() {
      if (refreshTimer || closed) return;
      tick();
      refreshTimer = setInterval(tick, refreshMs);
      refreshTimer.unref?.();
    },
    async close() {
      if (closed) return;
      closed = true;
      if (refreshTimer) clearInterval(refreshTimer);
      await refreshing;
      const ids = [...held.keys()];
      for (const id of ids) stop(id);
      await Promise.all(closing.splice(0));
      await release(ids).catch((error: unknown) =>
        log.warn({ err: error }, 'could not give back IDLE leases'),
      );
    },
    status() {
      return {
        held: [...held.keys()],
        connected: [...held.values()].filter((e) => e.client !== null).map((e) => e.accountId),
      };
    },
  };
}

/** LOGOUT, or a hard close when the server does not answer within a few seconds. */
async function closeClient(client: ImapFlow): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    client.logout().catch(() => client.close()),
    new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        client.close();
        resolve();
      }, 3_000);
    }),
  ]).finally(() => clearTimeout(timer));
}
