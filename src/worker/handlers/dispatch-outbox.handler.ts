import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import { scheduleNextSteps } from '../../server/features/campaigns/campaigns.service';
import { type DispatchContext, drainOutbox } from '../../server/features/sending/dispatch';
import { wakeDispatchers } from '../../server/features/sending/outbox.service';
import { recoverExpiredLeases } from '../../server/features/sending/outbox-recovery';
import { createSentFolderRecorder } from '../../server/features/sending/sent-folder';
import { createTransportCache, type TransportCache } from '../../server/features/sending/transport-cache';
import { dispatchOutboxJob } from '../../server/jobs/dispatch-outbox.job';
import type { WorkerServices } from '../services';

/** Per worker process: its lease name and its pooled SMTP transports, kept across drains. */
export interface Dispatcher {
  workerId: string;
  transports: TransportCache;
  close(): void;
}

export function createDispatcher(services: WorkerServices, log?: FastifyBaseLogger): Dispatcher {
  const { env, secrets, mailer } = services;
  if (!env || !secrets || !mailer) {
    throw new Error('the dispatcher needs the environment, the encryption key and the system mailer');
  }
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

function contextFor(
  services: WorkerServices,
  dispatcher: Dispatcher,
  log: FastifyBaseLogger,
): DispatchContext {
  return {
    db: services.db,
    env: services.env!,
    mailer: services.mailer!,
    queue: services.queue,
    transports: dispatcher.transports,
    log,
    workerId: dispatcher.workerId,
    onStepMessagesSent: scheduleNextSteps,
  };
}

export async function handleDispatchOutbox(input: {
  services: WorkerServices;
  dispatcher: Dispatcher;
  log: FastifyBaseLogger;
  signal?: AbortSignal;
}): Promise<void> {
  const summary = await drainOutbox(contextFor(input.services, input.dispatcher, input.log), {
    signal: input.signal,
    maxMs: dispatchOutboxJob.maxMs,
    waitForDueMs: dispatchOutboxJob.waitForDueMs,
  });
  if (summary.claimed > 0) input.log.info(summary, 'outbox drained');
}

export async function handleRecoverOutboxLeases(input: {
  services: WorkerServices;
  log: FastifyBaseLogger;
}): Promise<void> {
  const result = await recoverExpiredLeases({ db: input.services.db });
  if (result.requeued === 0) return;
  input.log.warn(result, 'recovered messages from expired leases');
  await wakeDispatchers({
    queue: input.services.queue,
    parallelism: input.services.env?.DISPATCH_CONCURRENCY ?? 2,
  });
}
