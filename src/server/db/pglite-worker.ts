/*
 * The embedded PostgreSQL (PGlite, WebAssembly) on a thread of its own, so that its statements do not hold
 * the HTTP event loop; the main thread talks to it through pglite-thread.ts. Node runs this file as the
 * worker's entry point with no bundler: it strips the types, so the file imports packages only and uses
 * erasable syntax. PGlite itself is loaded in the worker only, never by the main thread.
 */
import { isMainThread, type MessagePort, parentPort, workerData } from 'node:worker_threads';
import type { PGlite, QueryOptions, Transaction } from '@electric-sql/pglite';

export interface PgliteWorkerStart {
  pgliteWorker: true;
  /** Absolute path of the data directory; unset means in memory. */
  dataDir?: string;
  /** In memory only: a dump to start from instead of initdb. */
  snapshot?: Blob;
  /** In memory only: settings added to PGlite's start parameters. */
  startParams: string[];
}

/** Query options as they cross the thread: functions cannot, so parsers travel as their type OIDs. */
export interface WireQueryOptions {
  rowMode?: 'array' | 'object';
  /** Types whose values stay text: drizzle's only parsers keep dates, times and intervals as PostgreSQL wrote them. */
  rawTypes?: number[];
  blob?: Blob;
  paramTypes?: number[];
}

export type PgliteRequest =
  | { id: number; op: 'query'; sql: string; params?: unknown[]; options?: WireQueryOptions; tx?: number }
  | { id: number; op: 'exec'; sql: string; options?: WireQueryOptions; tx?: number }
  | { id: number; op: 'begin' }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'rollback'; tx: number }
  | { id: number; op: 'listen'; channel: string }
  | { id: number; op: 'unlisten'; channel: string }
  | { id: number; op: 'dump' }
  | { id: number; op: 'close' };

export type PgliteReply =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: Record<string, unknown> }
  | { notify: string; payload: string }
  | { ready: true }
  | { ready: false; error: Record<string, unknown> };

/** The error a caller's failed transaction callback becomes on this side, to roll back. */
const CALLER_ROLLBACK = 'rolled back by the caller';

/** An error with its PostgreSQL fields (code, constraint, detail…); functions and the query's options stay behind. */
export function wireError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const fields: Record<string, unknown> = { name: error.name, message: error.message, stack: error.stack };
  for (const [key, value] of Object.entries(error)) {
    if (key === 'queryOptions' || typeof value === 'function') continue;
    fields[key] = value;
  }
  return fields;
}

const keepText = (value: string) => value;

function queryOptions(wire: WireQueryOptions | undefined): QueryOptions | undefined {
  if (!wire) return undefined;
  const { rawTypes, ...rest } = wire;
  if (!rawTypes) return rest;
  return { ...rest, parsers: Object.fromEntries(rawTypes.map((oid) => [oid, keepText])) };
}

/** The part of Emscripten's in-memory file system (MEMFS) that grows a file's storage. */
interface InMemoryFileSystem {
  expandFileStorage(node: { contents: Uint8Array | null; usedBytes: number }, needed: number): void;
}

/** Above this size a file's storage grows by half of itself; below, it doubles (as Emscripten's own). */
const GROW_BY_HALF_FROM = 1024 * 1024;

/*
 * An in-memory database keeps each file in one Uint8Array, and Emscripten grows a file past 1 MB by an
 * eighth at a time, copying the whole file into a new array each time: a table or index filled by
 * inserts was copied about eight times over, and the discarded arrays added to the garbage collector's
 * work (growing and GC together were ~13% of the CPU of writing tracking events in batches of 5,000).
 * Growing by half copies each byte about twice, for at most half the file's size unused: CPU per event
 * written fell from ~36 to ~31 µs (the tracking events' INSERT, alternating runs). Files on disk (a
 * data directory) are not concerned. A PGlite build without this function keeps its own policy.
 */
export function growInMemoryFilesByHalf(module: unknown): boolean {
  const memfs = (module as { MEMFS?: Partial<InMemoryFileSystem> } | undefined)?.MEMFS;
  if (typeof memfs?.expandFileStorage !== 'function') return false;
  memfs.expandFileStorage = (node, needed) => {
    const capacity = node.contents?.length ?? 0;
    if (capacity >= needed) return;
    const grown = capacity < GROW_BY_HALF_FROM ? capacity * 2 : capacity + (capacity >>> 1);
    const size = Math.max(needed, grown, capacity === 0 ? 0 : 256);
    const used = node.contents?.subarray(0, node.usedBytes);
    node.contents = new Uint8Array(size);
    if (used) node.contents.set(used);
  };
  return true;
}

async function serve(port: MessagePort, start: PgliteWorkerStart) {
  const [{ PGlite }, { pg_trgm }, { btree_gin }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('@electric-sql/pglite/contrib/btree_gin'),
  ]);
  // pg_trgm and btree_gin back the keyword index of lead discovery (name trigrams next to plain columns).
  const extensions = { pg_trgm, btree_gin };
  const client = start.dataDir
    ? new PGlite(start.dataDir, { extensions })
    : new PGlite({
        extensions,
        ...(start.snapshot ? { loadDataDir: start.snapshot } : {}),
        startParams: [...PGlite.defaultStartParams, ...start.startParams],
      });
  await client.waitReady;
  if (!start.dataDir) growInMemoryFilesByHalf(client.Module);

  const send = (reply: PgliteReply) => port.postMessage(reply);
  const answer = (id: number, work: () => Promise<unknown>) => {
    work().then(
      (result) => send({ id, ok: true, result }),
      (error) => send({ id, ok: false, error: wireError(error) }),
    );
  };

  interface OpenTransaction {
    tx: Transaction;
    finish: (commit: boolean) => void;
    /** The request waiting for the COMMIT or ROLLBACK. */
    endRequest?: number;
  }
  const transactions = new Map<number, OpenTransaction>();
  let nextTransaction = 1;
  const unlisteners = new Map<string, () => Promise<void>>();

  const runner = (tx: number | undefined): PGlite | Transaction => {
    if (tx === undefined) return client;
    const open = transactions.get(tx);
    if (!open) throw new Error(`transaction ${tx} is over`);
    return open.tx;
  };

  // PGlite's own transaction() serialises transactions and statements, and commits or rolls back: the
  // callback here only waits for the main thread's callback to finish.
  const begin = (id: number) => {
    const txId = nextTransaction++;
    let entered = false;
    const finished = (reply: Extract<PgliteReply, { id: number }>) => {
      const endRequest = transactions.get(txId)?.endRequest;
      transactions.delete(txId);
      if (!entered && !reply.ok) send({ ...reply, id });
      else if (endRequest !== undefined) send({ ...reply, id: endRequest });
    };
    client
      .transaction(
        (tx) =>
          new Promise<void>((resolve, reject) => {
            entered = true;
            transactions.set(txId, {
              tx,
              finish: (commit) => (commit ? resolve() : reject(new Error(CALLER_ROLLBACK))),
            });
            send({ id, ok: true, result: txId });
          }),
      )
      .then(
        () => finished({ id: 0, ok: true, result: null }),
        (error) =>
          finished(
            error instanceof Error && error.message === CALLER_ROLLBACK
              ? { id: 0, ok: true, result: null }
              : { id: 0, ok: false, error: wireError(error) },
          ),
      );
  };

  const handle = (request: PgliteRequest) => {
    switch (request.op) {
      case 'query':
        return answer(request.id, () =>
          runner(request.tx).query(request.sql, request.params, queryOptions(request.options)),
        );
      case 'exec':
        return answer(request.id, () => runner(request.tx).exec(request.sql, queryOptions(request.options)));
      case 'begin':
        return begin(request.id);
      case 'end': {
        const open = transactions.get(request.tx);
        if (!open) return send({ id: request.id, ok: true, result: null });
        open.endRequest = request.id;
        return open.finish(request.commit);
      }
      case 'rollback':
        return answer(request.id, () => (runner(request.tx) as Transaction).rollback());
      case 'listen':
        return answer(request.id, async () => {
          if (unlisteners.has(request.channel)) return;
          const unlisten = await client.listen(request.channel, (payload) =>
            send({ notify: request.channel, payload }),
          );
          unlisteners.set(request.channel, unlisten);
        });
      case 'unlisten':
        return answer(request.id, async () => {
          const unlisten = unlisteners.get(request.channel);
          unlisteners.delete(request.channel);
          await unlisten?.();
        });
      case 'dump':
        return answer(request.id, () => client.dumpDataDir('none'));
      case 'close':
        return answer(request.id, () => client.close());
    }
  };
  port.on('message', handle);
  send({ ready: true });
}

const start = workerData as PgliteWorkerStart | undefined;
if (!isMainThread && parentPort && start?.pgliteWorker) {
  const port = parentPort;
  serve(port, start).catch((error) => port.postMessage({ ready: false, error: wireError(error) }));
}
