import type { FastifyBaseLogger } from 'fastify';
import { dnsResolverFromEnv } from '../../server/features/sender-accounts/domain-check.service';
import { checkStaleSenderDomains } from '../../server/jobs/check-sender-domains.job';
import type { WorkerServices } from '../services';

export async function handleCheckSenderDomains(input: {
  services: WorkerServices;
  log: FastifyBaseLogger;
  payload: Record<string, never>;
}): Promise<void> {
  const { db, env } = input.services;
  if (!env) throw new Error('check-sender-domains needs the environment');
  const result = await checkStaleSenderDomains({
    db,
    network: env.SENDER_NETWORK,
    dnsResolver: dnsResolverFromEnv(env),
  });
  if (result.checked + result.failed > 0) input.log.info(result, 're-checked sender domains');
}
