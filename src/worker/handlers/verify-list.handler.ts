import type { FastifyBaseLogger } from 'fastify';
import {
  productionVerifier,
  recheckGreylisted,
  runListVerification,
} from '../../server/features/verification/verification.service';
import type { WorkerServices } from '../services';

export async function handleVerifyList(input: {
  services: WorkerServices;
  log: FastifyBaseLogger;
  payload: { runId: string };
}): Promise<void> {
  const { env } = input.services;
  if (!env) throw new Error('verify-list needs the environment');
  await runListVerification({
    db: input.services.db,
    runId: input.payload.runId,
    verifier: productionVerifier(env),
  });
  input.log.info({ runId: input.payload.runId }, 'list verified');
}

export async function handleRecheckGreylisted(input: {
  services: WorkerServices;
  log: FastifyBaseLogger;
}): Promise<void> {
  const { env } = input.services;
  if (!env) throw new Error('recheck-greylisted needs the environment');
  const probed = await recheckGreylisted({ db: input.services.db, verifier: productionVerifier(env) });
  if (probed > 0) input.log.info({ probed }, 'greylisted addresses asked again');
}
