import type { FastifyBaseLogger } from 'fastify';
import { renewSubscriptions } from '../../server/jobs/renew-subscriptions.job';
import type { WorkerServices } from '../services';

export async function handleRenewSubscriptions(input: {
  services: WorkerServices;
  log: FastifyBaseLogger;
  payload: Record<string, never>;
}): Promise<void> {
  const { db, paystack, mailer, env } = input.services;
  if (!mailer || !env) {
    input.log.warn('renew-subscriptions needs the mailer and environment; skipped');
    return;
  }
  const result = await renewSubscriptions({ db, paystack: paystack ?? null, mailer, env, log: input.log });
  if (result.checked > 0) input.log.info(result, 'subscription renewals processed');
}
