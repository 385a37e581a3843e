import { AppError } from '@server/lib/errors';
import { MESSAGES } from '@shared/auth';
import { describe, expect, it } from 'vitest';
import { assertAcceptablePassword, isCommonPassword } from './password-policy';

function refusal(run: () => void): AppError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('the password was accepted');
}

describe('password policy', () => {
  it.each(['password123', 'qwerty123', 'password', '123456', 'iloveyou'])(
    'knows %s is common',
    (password) => {
      expect(isCommonPassword(password)).toBe(true);
    },
  );

  it('ignores case when looking a password up', () => {
    expect(isCommonPassword('PassWord123')).toBe(true);
  });

  it.each(['Kola-nut-2026!', 'Harmattan-wind-42', 'correct horse battery staple ₦'])(
    'accepts %s',
    (password) => {
      expect(isCommonPassword(password)).toBe(false);
      expect(() => assertAcceptablePassword(password, { email: 'ada@tambari.test' })).not.toThrow();
    },
  );

  it('refuses a common password with a 400 naming the password field', () => {
    const error = refusal(() => assertAcceptablePassword('qwerty123'));
    expect(error.statusCode).toBe(400);
    expect(error.message).toBe(MESSAGES.commonPassword);
    expect(error.extra).toEqual({ errors: [{ path: 'password', message: MESSAGES.commonPassword }] });
  });

  it('refuses a password equal to the local part of the email, in any case', () => {
    const error = refusal(() => assertAcceptablePassword('ChiomaObi', { email: 'chiomaobi@tambari.test' }));
    expect(error.statusCode).toBe(400);
    expect(error.message).toContain('email');
  });

  it('does not apply the email rule to very short local parts', () => {
    expect(() => assertAcceptablePassword('abc', { email: 'abc@tambari.test' })).not.toThrow();
  });
});
