import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { defineJob, type JobServices } from '@server/jobs/define-job';
import { sharedGroupCommit } from '@server/lib/group-commit';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { recordSent } from './delivery-outcomes';
import { drainOutbox, SENT_GATHER, type SentMessage, type SentStepHook } from './dispatch';
import { createSentFolderRecorder } from './sent-folder';
import { createTransportCache, type TransportCache } from './transport-cache';

/** A drain gives the worker back after this long, so a long queue does not hold one job forever. */
export const DRAIN_MAX_MS = 50_000;
/**
 * A drain with nothing due stays while something comes due within this time (an account's random gap
 * between sends), so short gaps are kept to the second rather than to the next wake.
 */
export const DRAIN_WAIT_FOR_DUE_MS = 30_000;

/** Per worker process: its lease name and its SMTP connection pools, kept across drains. */
export interface Dispatcher {
  workerId: string;
  transports: TransportCache;
  close(): void;
}

export function createDispatcher(services: JobServices, log?: FastifyBaseLogger): Dispatcher {
  const { env, secrets } = services;
  // Each accepted message's bytes go to the mailbox's Sent folder later, by a job (sent-folder.ts).
  const sentFolder = log ? createSentFolderRecorder({ db: services.db, queue: services.queue, log }) : null;
  const transports = createTransportCache({
    encryptionKey: secrets.encryptionKey,
    network: env.SENDER_NETWORK,
    devMailboxPort: services.devMailbox?.port ?? (env.SMTP_URL ? null : env.DEV_MAILBOX_PORT),
    ehloName: env.SMTP_EHLO_NAME,
    onSent: sentFolder ? (account, raw) => sentFolder.add(account, raw) : undefined,
  });
  return {
    workerId: `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
    transports,
    close: () => {
      transports.closeAll();
      void sentFolder?.close();
    },
  };
}

/**
 * Drains the outbox (dispatch.ts). Sent on enqueue and when a deferred message comes due; the
 * every-minute schedule is the safety net that picks up everything else. What follows a sent campaign
 * step, and what follows a drain that sent something (newsletters' finish), are handed in by the
 * registry, so sending imports neither campaigns nor newsletters.
 */
export const dispatchOutboxJobWith = (hooks: {
  onStepMessagesSent: SentStepHook;
  /** After a drain that claimed messages: it ends when nothing more is due (or its time is up). */
  onDrained?: (services: JobServices) => Promise<void>;
}) =>
  defineJob({
    name: 'dispatch-outbox',
    description: 'Sends the queued campaign messages that are due (the outbox), through each sender account.',
    payload: z.object({}),
    cron: '* * * * *',
    // Several drains at once per process: each claims its own batch (SKIP LOCKED), so SMTP round trips
    // of one batch overlap the database work of another.
    concurrency: (env) => env.DISPATCH_CONCURRENCY,
    start: (services, log) => ({
      ...createDispatcher(services, log),
      // One flush loop for the process's concurrent drains: their accepted messages are marked sent in
      // the same statements, more rows each, gathered by SENT_GATHER. The statement and its triggers have
      // a fixed cost per call (more than half of a ten-row call's), which larger groups spread
      // (docs/sending.md).
      sentCommits: sharedGroupCommit(
        (group: SentMessage[]) =>
          recordSent({ db: services.db, onStepMessagesSent: hooks.onStepMessagesSent }, group),
        SENT_GATHER,
      ),
    }),
    stop: (dispatcher) => dispatcher.close(),
    async run({ services, log, signal, state: dispatcher }) {
      const summary = await drainOutbox(
        {
          db: services.db,
          env: services.env,
          mailer: services.mailer,
          queue: services.queue,
          transports: dispatcher.transports,
          log,
          workerId: dispatcher.workerId,
          onStepMessagesSent: hooks.onStepMessagesSent,
          sentCommits: dispatcher.sentCommits,
        },
        { signal, maxMs: DRAIN_MAX_MS, waitForDueMs: DRAIN_WAIT_FOR_DUE_MS },
      );
      if (summary.claimed > 0) {
        log.info(summary, 'outbox drained');
        await hooks.onDrained?.(services);
      }
    },
  });
