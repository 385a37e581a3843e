import { expect, test } from '@playwright/test';

import { newAccount, registerViaApi, signInAsSuperAdmin } from './support/accounts';
import { expectToast, signInViaUi } from './support/ui';

const RESET_REQUESTED = "If an account exists for that email, we've sent a link to reset your password.";
const RESET_DONE = 'Your password has been reset. Please sign in with your new password.';

test('password reset: request, find the email in the dev mailbox, set a new password, sign in', async ({
  page,
  browser,
  request,
}) => {
  const account = await registerViaApi(request, newAccount('reset'));
  const newPassword = 'Fresh-Harmattan-2026';

  await page.goto('/auth');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL('/forgot-password');
  await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
  await page.getByLabel('Email').fill(account.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  const success = page.getByTestId('forgot-password-success');
  await expect(success.getByRole('heading', { name: 'Check your email' })).toBeVisible();
  await expect(success.getByRole('status')).toHaveText(RESET_REQUESTED);

  // The super admin reads the reset email in the development mailbox, in a browser of their own.
  const adminContext = await browser.newContext();
  let resetLink: string;
  try {
    const admin = await adminContext.newPage();
    await signInAsSuperAdmin(admin.request);
    await admin.goto('/admin/dev-mailbox');
    const message = admin.getByTestId('mail-list-item').filter({ hasText: `To: ${account.email}` });
    // The mail is sent in the background; the list polls, and Refresh asks at once.
    await expect(async () => {
      await admin.getByTestId('mailbox-refresh').click();
      await expect(message).toHaveCount(1, { timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    await expect(message).toContainText('Reset your Tambari password');
    await message.click();

    const viewer = admin.getByTestId('mail-viewer');
    await expect(viewer.getByTestId('mail-subject')).toHaveText('Reset your Tambari password');
    const link = viewer.getByTestId('mail-links').getByRole('link', { name: /\/reset-password\?token=/ });
    resetLink = (await link.getAttribute('href')) ?? '';
  } finally {
    await adminContext.close();
  }
  const url = new URL(resetLink);
  expect(url.pathname).toBe('/reset-password');
  expect(url.searchParams.get('token')).toBeTruthy();

  await page.goto(`${url.pathname}${url.search}`);
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm new password').fill(newPassword);
  await page.getByRole('button', { name: 'Reset password' }).click();

  await expectToast(page, { title: 'Password updated', description: RESET_DONE });
  await expect(page.getByTestId('reset-password-success')).toBeVisible();
  await expect(page).toHaveURL('/auth');

  // The old password is gone, the new one works.
  const oldLogin = await request.post('/api/login', {
    data: { email: account.email, password: account.password },
  });
  expect(oldLogin.status()).toBe(401);
  await signInViaUi(page, account.email, newPassword);
  await expect(page).toHaveURL('/dashboard');
  await expect(page.getByTestId('welcome-name')).toHaveText(account.firstName);
});
