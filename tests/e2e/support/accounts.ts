import { randomUUID } from 'node:crypto';
import { type APIRequestContext, expect } from '@playwright/test';

import { DEMO, E2E_DEMO_PASSWORD } from './env';

export interface TestAccount {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}

/** A password no common-password list holds (the server refuses those). */
export const STRONG_PASSWORD = 'Kora-Lagos-2026!';

/** A fresh, lower-case address on a reserved domain; the part before @ is what the dashboard greets. */
export function uniqueEmail(label = 'user'): string {
  return `e2e-${label}-${randomUUID().slice(0, 8)}@example.com`;
}

export function newAccount(label = 'user', overrides: Partial<TestAccount> = {}): TestAccount {
  return {
    email: uniqueEmail(label),
    password: STRONG_PASSWORD,
    firstName: 'Amaka',
    lastName: 'Okafor',
    ...overrides,
  };
}

/**
 * Registers an account through the API. Registration also signs that request context in, so pass
 * `page.request` to start a page signed in as the new user, or the `request` fixture to only seed it.
 */
export async function registerViaApi(
  request: APIRequestContext,
  account: TestAccount = newAccount(),
): Promise<TestAccount> {
  const response = await request.post('/api/register', {
    data: {
      email: account.email,
      password: account.password,
      firstName: account.firstName,
      lastName: account.lastName,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return account;
}

/** Signs a request context in (`page.request` shares its cookies with the page). */
export async function signInViaApi(
  request: APIRequestContext,
  email: string,
  password: string,
): Promise<void> {
  const response = await request.post('/api/login', { data: { email, password } });
  expect(response.status(), await response.text()).toBe(200);
}

export function signInAsSuperAdmin(request: APIRequestContext): Promise<void> {
  return signInViaApi(request, DEMO.superAdmin, E2E_DEMO_PASSWORD);
}
