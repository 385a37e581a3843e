import { expect, test } from '@playwright/test';

import { newAccount, registerViaApi, signInAsSuperAdmin } from './support/accounts';
import { expectToast } from './support/ui';

const TOO_MANY = 'Too many attempts. Please wait a few minutes and try again.';

test('security monitor: an address locked by wrong passwords is listed, and the admin lifts the lock', async ({
  page,
  request,
}) => {
  const account = await registerViaApi(request, newAccount('locked'));
  for (let i = 0; i < 5; i++) {
    const wrong = await request.post('/api/login', {
      data: { email: account.email, password: 'Not-the-password-1' },
    });
    expect(wrong.status()).toBe(401);
  }
  const locked = await request.post('/api/login', {
    data: { email: account.email, password: account.password },
  });
  expect(locked.status()).toBe(429);
  expect((await locked.json()).message).toBe(TOO_MANY);

  await signInAsSuperAdmin(page.request);
  await page.goto('/admin/security-monitor');
  await expect(page.getByRole('heading', { name: 'Security Monitor', level: 1 })).toBeVisible();
  await page.getByLabel('Locked only').click();
  const row = page.getByTestId('sign-in-failure-row').filter({ hasText: account.email });
  await expect(row).toContainText('Locked until');
  await expect(row.getByRole('cell').nth(1)).toHaveText('5');

  await row.getByRole('button', { name: 'Lift lock' }).click();
  const dialog = page.getByTestId('lift-lock-dialog');
  await expect(dialog).toContainText(account.email);
  await dialog.getByRole('button', { name: 'Lift lock' }).click();
  await expectToast(page, { title: 'Lock lifted', description: 'Failed sign-ins for this address cleared.' });
  await expect(row).toHaveCount(0);

  const again = await request.post('/api/login', {
    data: { email: account.email, password: account.password },
  });
  expect(again.status()).toBe(200);
});
