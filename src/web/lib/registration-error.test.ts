import { describe, expect, it } from 'vitest';

import { ApiRequestError } from '@/lib/api';
import { describeRegistrationError, extractExistingAccount } from '@/lib/registration-error';

function apiError(status: number, body: unknown, statusText = '') {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return new ApiRequestError(
    status,
    text,
    statusText,
    typeof body === 'string' ? undefined : (body as never),
  );
}

describe('describeRegistrationError', () => {
  it('turns 409 login_required into Account Found with the existing user', () => {
    const outcome = describeRegistrationError(
      apiError(409, {
        message: 'An account with this email already exists. Please sign in.',
        action: 'login_required',
        existingUser: { email: 'ada@example.com', firstName: 'Ada' },
      }),
      'typed@example.com',
    );
    expect(outcome).toEqual({
      title: 'Account Found',
      description: 'An account with this email already exists. Please sign in.',
      switchToLogin: {
        email: 'ada@example.com',
        firstName: 'Ada',
        message: 'An account with this email already exists. Please sign in.',
      },
    });
  });

  it('turns 400 switch_to_login into Account Exists with the fixed text', () => {
    const outcome = describeRegistrationError(
      apiError(400, { message: 'Exists', action: 'switch_to_login' }),
      'typed@example.com',
    );
    expect(outcome.title).toBe('Account Exists');
    expect(outcome.description).toBe('Please sign in with your existing account.');
    expect(outcome.switchToLogin?.email).toBe('typed@example.com');
  });

  it('switches on an "already exists" message and reads the name and email from it', () => {
    const outcome = describeRegistrationError(
      apiError(422, { message: 'Welcome back, Chidi! User chidi@example.com already exists' }),
    );
    expect(outcome.title).toBe('Welcome back!');
    expect(outcome.description).toBe('Welcome back, Chidi! Please sign in to complete your subscription');
    expect(outcome.switchToLogin?.email).toBe('chidi@example.com');
  });

  it('uses the generic welcome-back text when the message names nobody', () => {
    const outcome = describeRegistrationError(
      apiError(422, { message: 'User already exists' }),
      'x@example.com',
    );
    expect(outcome.description).toBe('Account already exists. Please sign in instead.');
    expect(outcome.switchToLogin?.email).toBe('x@example.com');
  });

  it('falls back to Registration Failed with the server message', () => {
    expect(describeRegistrationError(apiError(400, { message: 'This password is too common.' }))).toEqual({
      title: 'Registration Failed',
      description: 'This password is too common.',
    });
  });

  it('reads an { error } body as the message', () => {
    expect(describeRegistrationError(apiError(500, { error: 'Database unavailable' })).description).toBe(
      'Database unavailable',
    );
  });

  it('uses the fallback text when the server gave no message', () => {
    expect(describeRegistrationError(apiError(500, '', 'Internal Server Error')).description).toBe(
      'Internal Server Error',
    );
    expect(describeRegistrationError(new TypeError('')).description).toBe(
      'Unable to create account. Please try again.',
    );
  });
});

describe('extractExistingAccount', () => {
  it('finds nothing in an unrelated text', () => {
    expect(extractExistingAccount('Something else')).toEqual({});
  });
});
