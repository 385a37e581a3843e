import { describe, expect, it } from 'vitest';
import { apiErrorSchema, checksFailedErrorSchema, ERROR_STATUS, readApiError } from './errors';

describe('apiErrorSchema', () => {
  it('keeps a case’s own details after the shared fields', () => {
    const body = {
      message: 'Upgrade',
      code: 'forbidden',
      reason: 'plan_limit',
      limit: 'countries',
      allowed: 3,
    };
    expect(apiErrorSchema.parse(body)).toEqual(body);
  });

  it('refuses a code or reason outside the contract', () => {
    expect(apiErrorSchema.safeParse({ message: 'x', code: 'teapot' }).success).toBe(false);
    expect(apiErrorSchema.safeParse({ message: 'x', code: 'forbidden', reason: 'whim' }).success).toBe(false);
  });

  it('lets a refused check list its blockers in errors', () => {
    const body = {
      message: 'Fix these',
      code: 'unprocessable',
      errors: [{ code: 'empty_subject', message: 'Step 1: the first email needs a subject', stepId: 's1' }],
    };
    expect(checksFailedErrorSchema.parse(body)).toEqual(body);
    expect(apiErrorSchema.safeParse(body).success).toBe(false);
  });

  it('maps every code to a 4xx or 5xx status', () => {
    for (const status of Object.values(ERROR_STATUS)) expect(status).toBeGreaterThanOrEqual(400);
    expect(ERROR_STATUS.duplicate).toBe(409);
  });
});

describe('readApiError', () => {
  it('reads the shared fields and keeps the details', () => {
    expect(readApiError({ message: 'Taken', code: 'duplicate', existing: { id: '1' } })).toEqual({
      message: 'Taken',
      code: 'duplicate',
      existing: { id: '1' },
    });
  });

  it('drops a field of an unexpected shape but keeps the message', () => {
    expect(readApiError({ message: 'Nope', code: 'teapot', reason: 'whim', errors: 'bad' })).toEqual({
      message: 'Nope',
    });
  });

  it('keeps only the contract fields of the existing user and of each field error', () => {
    expect(
      readApiError({
        message: 'Exists',
        code: 'conflict',
        action: 'login_required',
        existingUser: { email: 'a@b.co', firstName: 'Ada', id: 'x' },
        errors: [{ path: 'email', message: 'Taken', extra: 1 }],
      }),
    ).toEqual({
      message: 'Exists',
      code: 'conflict',
      action: 'login_required',
      existingUser: { email: 'a@b.co', firstName: 'Ada' },
      errors: [{ path: 'email', message: 'Taken' }],
    });
    expect(readApiError({ message: 'x', errors: [{ path: 'a', message: 'b' }, { path: 1 }] })).toEqual({
      message: 'x',
    });
    expect(readApiError({ existingUser: { email: 'a@b.co' }, reason: 'plan_limit' })).toEqual({
      reason: 'plan_limit',
    });
  });

  it('answers undefined for a body that is not an object', () => {
    expect(readApiError('text')).toBeUndefined();
    expect(readApiError(null)).toBeUndefined();
    expect(readApiError([1])).toBeUndefined();
  });
});
