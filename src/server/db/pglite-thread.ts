import { Worker } from 'node:worker_threads';
import type { QueryOptions, Results } from '@electric-sql/pglite';
import type { PgliteReply, PgliteRequest, PgliteWorkerStart, WireQueryOptions } from './pglite-worker';

/** Distributes Omit over a union, so each request keeps its own fields. */
type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

/** What a statement runs on: the database itself or one of its transactions (PGlite's Transaction, in part). */
export interface PgliteRunner {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string, options?: QueryOptions): Promise<Results[]>;
}

export interface PgliteThreadTransaction extends PgliteRunner {
  rollback(): Promise<void>;
  readonly closed: boolean;
}

/** An error from the worker, with the fields PostgreSQL gave it (code, constraint, detail…). */
function revive(fields: Record<string, unknown>): Error {
  const error = new Error(String(fields.message ?? 'PGlite error'));
  const { message: _message, stack, ...rest } = fields;
  Object.assign(error, rest);
  // The worker's stack says where PostgreSQL's answer was read, the caller's where the statement came from.
  if (typeof stack === 'string') error.stack = `${error.stack}\n    [in the database thread] ${stack}`;
  return error;
}

/** Per options object (drizzle keeps two for the whole process): its parsers as type OIDs. */
const wireOptionsCache = new WeakMap<QueryOptions, WireQueryOptions>();
const PROBE = '\u0000probe';

/*
 * Functions cannot cross to the worker. The only parsers the app passes are drizzle's, which keep values
 * of some types as PostgreSQL's text (it parses dates and intervals itself): those travel as type OIDs,
 * and a parser that does anything else is refused rather than silently dropped.
 */
function wireOptions(options: QueryOptions | undefined): WireQueryOptions | undefined {
  if (!options) return undefined;
  const cached = wireOptionsCache.get(options);
  if (cached) return cached;
  const { parsers, serializers, onNotice, ...rest } = options;
  if (serializers || onNotice) throw new Error('PGlite query options with functions cannot reach its thread');
  const wire: WireQueryOptions = { ...rest };
  if (parsers) {
    wire.rawTypes = Object.entries(parsers).map(([oid, parse]) => {
      if (parse(PROBE, Number(oid)) !== PROBE)
        throw new Error(`a parser for type ${oid} cannot reach PGlite's thread`);
      return Number(oid);
    });
  }
  // A blob is per call: only option objects without one are kept.
  if (!options.blob) wireOptionsCache.set(options, wire);
  return wire;
}

/**
 * PGlite in a worker thread, offering on this side what the app and drizzle call on a PGlite instance:
 * query, exec, transaction, listen, dumpDataDir, close. Statements keep PGlite's order and its single
 * connection's semantics (transactions serialised, a failed callback rolled back).
 */
export class PgliteThread implements PgliteRunner {
  #worker: Worker;
  #next = 1;
  #waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  #listeners = new Map<string, Set<(payload: string) => void>>();
  #closed = false;
  readonly waitReady: Promise<void>;

  constructor(start: Omit<PgliteWorkerStart, 'pgliteWorker'>) {
    this.#worker = new Worker(new URL('./pglite-worker.ts', import.meta.url), {
      workerData: { ...start, pgliteWorker: true } satisfies PgliteWorkerStart,
    });
    this.waitReady = new Promise((resolve, reject) => {
      const failed = (error: Error) => {
        this.#failAll(error);
        reject(error);
      };
      this.#worker.on('error', failed);
      this.#worker.on('exit', (code) => {
        this.#closed = true;
        failed(new Error(`the PGlite thread stopped (exit code ${code})`));
      });
      this.#worker.on('message', (reply: PgliteReply) => {
        if ('ready' in reply) {
          if (this.#waiting.size === 0) this.#worker.unref();
          if (reply.ready) resolve();
          else failed(revive(reply.error));
        } else if ('notify' in reply) {
          for (const listener of this.#listeners.get(reply.notify) ?? []) listener(reply.payload);
        } else this.#settle(reply);
      });
    });
    // Once started, kept alive only while a statement is under way (#call): an idle database must not keep
    // the process running, as PGlite on the main thread did not.
  }

  get closed() {
    return this.#closed;
  }

  #settle(reply: Extract<PgliteReply, { id: number }>) {
    const waiting = this.#waiting.get(reply.id);
    if (!waiting) return;
    this.#waiting.delete(reply.id);
    if (this.#waiting.size === 0) this.#worker.unref();
    if (reply.ok) waiting.resolve(reply.result);
    else waiting.reject(revive(reply.error));
  }

  #failAll(error: Error) {
    for (const waiting of this.#waiting.values()) waiting.reject(error);
    this.#waiting.clear();
  }

  #call<T>(request: WithoutId<PgliteRequest>): Promise<T> {
    if (this.#closed) return Promise.reject(new Error('PGlite is closed'));
    const id = this.#next++;
    return new Promise<T>((resolve, reject) => {
      if (this.#waiting.size === 0) this.#worker.ref();
      this.#waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.#worker.postMessage({ ...request, id } as PgliteRequest);
    });
  }

  #runner(tx: number | undefined): PgliteRunner {
    return {
      query: async <T>(sql: string, params?: unknown[], options?: QueryOptions) =>
        this.#call<Results<T>>({ op: 'query', sql, params, options: wireOptions(options), tx }),
      exec: async (sql: string, options?: QueryOptions) =>
        this.#call<Results[]>({ op: 'exec', sql, options: wireOptions(options), tx }),
    };
  }

  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.#runner(undefined).query<T>(sql, params, options);
  }

  exec(sql: string, options?: QueryOptions): Promise<Results[]> {
    return this.#runner(undefined).exec(sql, options);
  }

  /** PGlite's transaction: commits when the callback resolves, rolls back when it throws. */
  async transaction<T>(callback: (tx: PgliteThreadTransaction) => Promise<T>): Promise<T> {
    const txId = await this.#call<number>({ op: 'begin' });
    let over = false;
    const tx: PgliteThreadTransaction = {
      ...this.#runner(txId),
      rollback: async () => {
        await this.#call({ op: 'rollback', tx: txId });
        over = true;
      },
      get closed() {
        return over;
      },
    };
    let result: T;
    try {
      result = await callback(tx);
    } catch (error) {
      await this.#call({ op: 'end', tx: txId, commit: false });
      throw error;
    }
    await this.#call({ op: 'end', tx: txId, commit: true });
    return result;
  }

  /** LISTEN on the channel; resolves with the function that stops listening. */
  async listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>> {
    let listeners = this.#listeners.get(channel);
    if (!listeners) {
      listeners = new Set();
      this.#listeners.set(channel, listeners);
      await this.#call({ op: 'listen', channel });
    }
    listeners.add(callback);
    return async () => {
      const current = this.#listeners.get(channel);
      if (!current?.delete(callback) || current.size > 0) return;
      this.#listeners.delete(channel);
      await this.#call({ op: 'unlisten', channel });
    };
  }

  dumpDataDir(): Promise<Blob> {
    return this.#call<Blob>({ op: 'dump' });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    await this.#call({ op: 'close' });
    this.#closed = true;
    await this.#worker.terminate();
  }
}
