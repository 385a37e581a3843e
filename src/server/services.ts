import type { DatabaseHandle } from './db/client';
import type { Env } from './env';
import type { RatesCache } from './features/currency/currency.service';
import type { DevMailbox } from './features/dev-mailbox/dev-mailbox.server';
import type { PaystackClient } from './features/payments/paystack.client';
import type { TrackingBuffer } from './features/tracking/tracking-buffer';
import type { TrackingResponder } from './features/tracking/tracking-responder';
import type { Queue } from './jobs/queue';
import type { Auth } from './lib/auth';
import type { CacheRegistry } from './lib/cache-registry';
import type { LogSink } from './lib/log-sink';
import type { SystemMailer } from './lib/mailer';
import type { Secrets } from './lib/secrets';
import type { SessionCache } from './lib/session-cache';

/*
 * What a running server holds: built once by buildApp (app.ts), reached as `app.services` in routes and
 * passed to services and job handlers. Its own module, so that code taking services does not import the
 * app that imports it.
 */

export interface Services {
  env: Env;
  database: DatabaseHandle;
  db: DatabaseHandle['db'];
  auth: Auth;
  queue: Queue;
  mailer: SystemMailer;
  secrets: Secrets;
  devMailbox: DevMailbox | null;
  /** null when PAYSTACK_SECRET_KEY is unset (payment calls then answer 503). */
  paystack: PaystackClient | null;
  /** Opens and clicks waiting to be written to email_events in multi-row inserts. */
  trackingBuffer: TrackingBuffer;
  /** The answers of the pixel and click (used by their routes and their fast path). */
  trackingResponder: TrackingResponder;
  /** NGN-keyed display rates, fetched at most hourly, shared by the currency and analytics routes. */
  currencyRates: RatesCache;
  /** This process's copy of its log lines into app_logs (the Logs screen). */
  logSink: LogSink;
  /** This process's in-memory caches, for the Cache Monitor. */
  caches: CacheRegistry;
  /** Signed-in sessions by cookie, kept a few seconds (emptied by every state-changing request). */
  sessions: SessionCache<Awaited<ReturnType<Auth['api']['getSession']>>>;
  /** 'web', or 'app' when this process runs the workers too (the embedded default). */
  processName: 'web' | 'app';
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
  interface FastifyRequest {
    sessionCache?: Awaited<ReturnType<Auth['api']['getSession']>>;
  }
}
