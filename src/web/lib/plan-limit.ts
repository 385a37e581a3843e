import { parseApiError } from '@/lib/errors';

/**
 * The message of a refusal because of the plan's limits ("Your Free plan allows 1 sender account. Upgrade
 * to Starter for 3."), or null for any other error. The server marks these with `reason: 'plan_limit'`.
 */
export function getPlanLimitMessage(error: unknown): string | null {
  const { status, message, data } = parseApiError(error);
  const reason = (data as { reason?: unknown } | undefined)?.reason;
  if (reason === 'plan_limit' && message) return message;
  // An older or other service may only answer 403/409 with a message naming the plan.
  if (
    (status === 403 || status === 409) &&
    message &&
    /\bplan\b/i.test(message) &&
    /upgrade/i.test(message)
  ) {
    return message;
  }
  return null;
}
