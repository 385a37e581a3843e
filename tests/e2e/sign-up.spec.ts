import { expect, test } from '@playwright/test';

import { newAccount, registerViaApi } from './support/accounts';
import { expectToast } from './support/ui';

test.describe('sign-up', () => {
  test.beforeEach(async ({ page }) => {
    await page.goto('/auth');
    await page.getByRole('tab', { name: 'Create account' }).click();
    await expect(page.getByRole('heading', { name: 'Join Tambari' })).toBeVisible();
  });

  test('creates an account and lands on the free dashboard', async ({ page }) => {
    const account = newAccount('signup');
    const form = page.getByTestId('register-form');

    await form.getByLabel('First name').fill(account.firstName);
    await form.getByLabel('Last name (optional)').fill(account.lastName);
    await form.getByLabel('Email').fill(account.email);
    await form.getByLabel('Password', { exact: true }).fill(account.password);
    await form.getByRole('button', { name: 'Create account' }).click();

    await expectToast(page, {
      title: 'Account created!',
      description: `Welcome to Tambari, ${account.firstName}!`,
    });
    await expect(page).toHaveURL('/dashboard');
    const welcome = page.getByTestId('welcome-header');
    // A brand-new user is greeted by first name, with "Welcome" (not "Welcome back") the first time.
    await expect(welcome.getByRole('heading', { level: 1 })).toHaveText(`Welcome, ${account.firstName}`);
    await expect(welcome.getByTestId('plan-badge')).toHaveText('Free Plan');
  });

  test('shows the validation messages and stays on /auth', async ({ page }) => {
    const form = page.getByTestId('register-form');
    let registerCalls = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/api/register')) registerCalls += 1;
    });

    await form.getByLabel('Email').fill('not-an-email');
    await form.getByLabel('Password', { exact: true }).fill('12345');
    await form.getByRole('button', { name: 'Create account' }).click();

    await expect(form.getByText('First name is required', { exact: true })).toBeVisible();
    await expect(form.getByText('Please enter a valid email address', { exact: true })).toBeVisible();
    await expect(form.getByText('Password must be at least 6 characters', { exact: true })).toBeVisible();
    await expect(form.getByLabel('First name')).toHaveAttribute('aria-invalid', 'true');
    await expect(page).toHaveURL('/auth');
    expect(registerCalls).toBe(0);
  });

  test('an existing email switches to sign in with the email filled in', async ({ page, request }) => {
    const existing = await registerViaApi(request, newAccount('existing'));
    const form = page.getByTestId('register-form');

    await form.getByLabel('First name').fill('Someone');
    await form.getByLabel('Email').fill(existing.email);
    await form.getByLabel('Password', { exact: true }).fill('Another-pass-77');
    await form.getByRole('button', { name: 'Create account' }).click();

    await expectToast(page, {
      title: 'Account Found',
      description: 'An account with this email already exists. Please sign in instead.',
    });
    await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Sign in' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByTestId('login-email')).toHaveValue(existing.email);
    await expect(page.getByTestId('login-password')).toBeFocused();
    await expect(page).toHaveURL('/auth');
  });
});
