import type { FastifyBaseLogger } from 'fastify';
import { evaluateAlertRules } from '../../server/features/admin-operations/alerting.service';
import type { WorkerServices } from '../services';

/** Safe to run twice: an active alert is opened (and mailed) once; see evaluateAlertRules. */
export async function handleEvaluateAlertRules(input: {
  services: WorkerServices;
  log: FastifyBaseLogger;
  payload: Record<string, never>;
}): Promise<void> {
  const { services } = input;
  const result = await evaluateAlertRules({
    db: services.db,
    mailer: services.mailer,
    appUrl: services.env?.APP_URL,
    log: input.log,
  });
  if (result.opened + result.resolved > 0) input.log.info(result, 'alert rules evaluated');
}
