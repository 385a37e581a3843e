import { AppError } from '@server/lib/errors';
import { MESSAGES } from '@shared/auth';
import { dictionary } from '@zxcvbn-ts/language-common';

// The list is ordered by frequency; its top 10,000 are the passwords attackers try first.
const COMMON_PASSWORDS = new Set(
  (dictionary['passwords-common'] as string[]).slice(0, 10_000).map((p) => p.toLowerCase()),
);

export function isCommonPassword(password: string): boolean {
  return COMMON_PASSWORDS.has(password.toLowerCase());
}

/** Length is checked by the request schema; this adds what a schema cannot know. */
export function assertAcceptablePassword(password: string, context: { email?: string } = {}): void {
  if (isCommonPassword(password)) {
    throw new AppError('validation', MESSAGES.commonPassword, {
      errors: [{ path: 'password', message: MESSAGES.commonPassword }],
    });
  }
  const localPart = context.email?.split('@')[0]?.toLowerCase();
  if (localPart && localPart.length >= 4 && password.toLowerCase() === localPart) {
    const message = 'Your password must not be the same as your email address.';
    throw new AppError('validation', message, { errors: [{ path: 'password', message }] });
  }
}
