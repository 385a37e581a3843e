import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '@/lib/api';
import { getPlanLimitMessage } from './plan-limit';

const failure = (status: number, body: Record<string, unknown>) =>
  new ApiRequestError(status, JSON.stringify(body), 'Error', body);

describe('getPlanLimitMessage', () => {
  it("reads the server's plan-limit refusal", () => {
    const message = 'Your Free plan allows 1 sender account. Upgrade to Starter for 3.';
    expect(getPlanLimitMessage(failure(403, { message, code: 'forbidden', reason: 'plan_limit' }))).toBe(
      message,
    );
  });

  it('also knows a 403 or 409 whose message names the plan and the upgrade', () => {
    const message = 'Your Starter plan allows 3 sender accounts. Upgrade to Growth for 10.';
    expect(getPlanLimitMessage(failure(409, { message, code: 'conflict' }))).toBe(message);
  });

  it('leaves other errors alone', () => {
    expect(getPlanLimitMessage(failure(403, { message: 'Forbidden', code: 'forbidden' }))).toBeNull();
    expect(
      getPlanLimitMessage(failure(400, { message: 'Enter a valid email address', code: 'validation' })),
    ).toBeNull();
    expect(getPlanLimitMessage(new Error('network down'))).toBeNull();
  });
});
