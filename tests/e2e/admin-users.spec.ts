import { expect, test } from '@playwright/test';

import { newAccount, registerViaApi, signInAsSuperAdmin } from './support/accounts';
import { dismissToast, expectToast, signInViaUi } from './support/ui';

const SUSPENDED = 'Your account has been suspended. Please contact support.';

test('admin users: find a new user, suspend them with a reason, then restore them', async ({
  page,
  browser,
  request,
}) => {
  const account = await registerViaApi(
    request,
    newAccount('suspend', { firstName: 'Tunde', lastName: 'Bello' }),
  );
  const reason = `Spam complaints (${account.email})`;

  await signInAsSuperAdmin(page.request);
  await page.goto('/admin/users');
  await expect(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search users by name or email' }).fill(account.email);
  await expect(page).toHaveURL(/[?&]q=/);
  const rows = page.getByTestId('users-table').getByTestId('user-row');
  await expect(rows).toHaveCount(1);
  const row = rows.first();
  await expect(row).toContainText(account.email);
  await expect(row).toContainText('Tunde Bello');

  await row.getByRole('button', { name: `Open Tunde Bello (${account.email})` }).click();
  const sheet = page.getByTestId('user-detail-sheet');
  await expect(sheet.getByRole('heading', { name: 'Tunde Bello' })).toBeVisible();
  await sheet.getByRole('button', { name: 'Suspend' }).click();

  const dialog = page.getByTestId('suspend-user-dialog');
  await expect(dialog.getByRole('heading', { name: `Suspend ${account.email}?` })).toBeVisible();
  await dialog.getByLabel('Reason').fill(reason);
  await dialog.getByRole('button', { name: 'Suspend user' }).click();

  await expectToast(page, {
    title: 'User suspended',
    description: `${account.email} is suspended and signed out everywhere.`,
  });
  await expect(dialog).toBeHidden();
  await expect(sheet.getByTestId('suspension-notice')).toContainText(`Reason: ${reason}`);
  await expect(row).toHaveAttribute('data-state', 'suspended');

  // The suspended user tries to sign in, in a browser of their own.
  const userContext = await browser.newContext();
  try {
    const userPage = await userContext.newPage();
    await signInViaUi(userPage, account.email, account.password);
    await expectToast(userPage, { title: 'Login failed', description: SUSPENDED, variant: 'destructive' });
    await expect(userPage).toHaveURL('/auth');

    // The notification sits over the sheet's action buttons.
    await dismissToast(page);
    await sheet.getByRole('button', { name: 'Restore' }).click();
    await expectToast(page, { title: 'User restored', description: `${account.email} can sign in again.` });
    await expect(sheet.getByTestId('suspension-notice')).toHaveCount(0);
    await expect(sheet.getByRole('button', { name: 'Suspend' })).toBeVisible();

    await userPage.getByTestId('login-submit').click();
    await expect(userPage).toHaveURL('/dashboard');
  } finally {
    await userContext.close();
  }
});
