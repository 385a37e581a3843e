import type { Env } from '@server/env';
import { openSmtpPool, type SmtpPool } from '../sender-accounts/sender-accounts.service';
import type { SenderAccountRow } from './sender-allocation';
import { wantsSentFolderCopy } from './sent-folder';

/**
 * One pool of SMTP connections per sender account per worker process (smtp-pool.ts), reused across
 * batches (a new TLS handshake per message would cap us at a few dozen a second). An account edited
 * since its pool was opened (host, password…) gets a fresh one.
 */
export interface TransportCache {
  get(account: SenderAccountRow): Promise<SmtpPool>;
  /** Drops an account's pool after a connection or authentication failure. */
  discard(accountId: string): void;
  closeAll(): void;
  /** SMTP connections each account's pool opens (the dispatcher keeps that many busy). */
  readonly connectionsPerAccount: number;
}

export function createTransportCache(options: {
  encryptionKey: Buffer;
  network: Env['SENDER_NETWORK'];
  devMailboxPort: number | null;
  maxConnectionsPerAccount?: number;
  /** SMTP_EHLO_NAME (unset: each account's own domain). */
  ehloName?: string | null;
  /**
   * Called with each message an account's server accepted, as the exact bytes sent, when the account
   * wants a copy in its Sent folder (sent-folder.ts). Must return at once: sending never waits on it.
   */
  onSent?: (account: SenderAccountRow, raw: string | Buffer) => void;
}): TransportCache {
  const entries = new Map<string, { version: number; transport: Promise<SmtpPool> }>();
  const connectionsPerAccount = options.maxConnectionsPerAccount ?? 2;
  return {
    connectionsPerAccount,
    async get(account) {
      const version = account.updatedAt.getTime();
      const existing = entries.get(account.id);
      if (existing && existing.version === version) return existing.transport;
      if (existing) void existing.transport.then((t) => t.close()).catch(() => {});
      const onSent = options.onSent;
      const transport = openSmtpPool({
        account,
        encryptionKey: options.encryptionKey,
        network: options.network,
        devMailboxPort: options.devMailboxPort,
        maxConnections: connectionsPerAccount,
        ehloName: options.ehloName,
      }).then((opened) =>
        onSent && wantsSentFolderCopy(account) ? copyingSentMail(opened, account, onSent) : opened,
      );
      entries.set(account.id, { version, transport });
      // A failed open (guard refused the host, DNS error) must not stay cached.
      transport.catch(() => {
        if (entries.get(account.id)?.transport === transport) entries.delete(account.id);
      });
      return transport;
    },
    discard(accountId) {
      const existing = entries.get(accountId);
      entries.delete(accountId);
      if (existing) void existing.transport.then((t) => t.close()).catch(() => {});
    },
    closeAll() {
      for (const id of [...entries.keys()]) this.discard(id);
    },
  };
}

/**
 * The pool, with each accepted raw message also handed to onSent (after the server's 250, never
 * before; a failure of onSent is not the send's).
 */
function copyingSentMail(
  pool: SmtpPool,
  account: SenderAccountRow,
  onSent: (account: SenderAccountRow, raw: string | Buffer) => void,
): SmtpPool {
  return {
    send: (envelope, raw) =>
      pool.send(envelope, raw).then((info) => {
        try {
          onSent(account, raw);
        } catch {
          // Never the send's problem.
        }
        return info;
      }),
    close: () => pool.close(),
  };
}
