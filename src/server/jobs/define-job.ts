import type { FastifyBaseLogger } from 'fastify';
import type { Queue as QueueDefinition, SendOptions } from 'pg-boss';
import type { z } from 'zod';
import type { DatabaseHandle } from '../db/client';
import type { Env } from '../env';
import type { DevMailbox } from '../features/dev-mailbox/dev-mailbox.server';
import type { PaystackClient } from '../features/payments/paystack.client';
import type { SystemMailer } from '../lib/mailer';
import type { Secrets } from '../lib/secrets';
import type { Queue } from './queue';

/**
 * Everything a job may use, always present: a worker process builds all of it at boot, so a job never
 * finds a service missing at run time.
 */
export interface JobServices {
  env: Env;
  database: DatabaseHandle;
  db: DatabaseHandle['db'];
  queue: Queue;
  mailer: SystemMailer;
  secrets: Secrets;
  /** null when PAYSTACK_SECRET_KEY is unset. */
  paystack: PaystackClient | null;
  /** The development mailbox of this process (embedded mode); null in a worker-only process. */
  devMailbox: DevMailbox | null;
}

export interface JobContext<Payload, State = void> {
  services: JobServices;
  /** The job's own logger: its name and id are on every line. */
  log: FastifyBaseLogger;
  /** The job's data, parsed by the definition's schema. */
  payload: Payload;
  /** Aborted when the worker shuts down: a long job stops between batches and keeps its progress. */
  signal: AbortSignal;
  /** What `start` made for this process (pooled connections), shared by all its runs. */
  state: State;
}

/**
 * One background job: its queue name, payload, schedule, the options of its queue, and the work itself.
 * The worker registers every definition in the registry (jobs/registry.ts); the admin's Automated
 * Schedules screen lists the ones with a cron. A run must be safe to repeat (a retry, a crash).
 */
export interface JobDefinition<Payload extends z.ZodType = z.ZodType, State = void> {
  /** The pg-boss queue name; never renamed, queued jobs carry it. */
  name: string;
  /** What the job does, in one sentence an operator understands. */
  description: string;
  payload: Payload;
  /** Cron expression (UTC) the scheduler sends the job on; absent for jobs only sent by the app. */
  cron?: string;
  /** Queue options fixed when pg-boss first creates the queue (its policy). */
  queue?: Omit<QueueDefinition, 'name'>;
  /** Jobs one worker process runs at once (default one). */
  concurrency?: number | ((env: Env) => number);
  /** Options every send of this job carries (retries, expiry, heartbeat); senders spread them in. */
  sendOptions?: SendOptions;
  /** Makes what the job keeps between runs in this process, once, when the worker registers it. */
  start?(services: JobServices, log: FastifyBaseLogger): State;
  /** Releases what `start` made, at shutdown. */
  stop?(state: State): void;
  run(context: JobContext<z.infer<Payload>, State>): Promise<void>;
}

/** A job definition of any payload and state: the registry's element type. */
// biome-ignore lint/suspicious/noExplicitAny: the registry holds jobs of different states
export type AnyJobDefinition = JobDefinition<z.ZodType, any>;

/** Declares a job beside its feature. Typed so that `run` sees the parsed payload and `start`'s state. */
export function defineJob<Payload extends z.ZodType, State = void>(
  definition: JobDefinition<Payload, State>,
): JobDefinition<Payload, State> {
  return definition;
}

/** Jobs one worker process runs at once, from the definition and this process's environment. */
export function concurrencyOf(job: AnyJobDefinition, env: Env): number | undefined {
  return typeof job.concurrency === 'function' ? job.concurrency(env) : job.concurrency;
}
