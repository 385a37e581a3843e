import { expect, test } from '@playwright/test';

import { newAccount, registerViaApi } from './support/accounts';
import { expectToast, openAccountMenu } from './support/ui';

test.describe('settings', () => {
  test('a new first name shows in the account menu', async ({ page }) => {
    const account = await registerViaApi(page.request, newAccount('profile', { firstName: 'Chidi' }));

    await page.goto('/dashboard');
    await openAccountMenu(page).then((menu) => menu.getByRole('menuitem', { name: 'Profile' }).click());
    await expect(page).toHaveURL('/settings#account-settings');

    const profile = page.getByTestId('profile-section');
    const firstName = profile.getByLabel('First name');
    await expect(firstName).toHaveValue('Chidi');
    await expect(profile.getByLabel('Email')).toHaveValue(account.email);
    await firstName.fill('Ngozi');
    await profile.getByRole('button', { name: 'Save changes' }).click();

    await expectToast(page, { title: 'Profile updated', description: 'Your name has been saved.' });
    await expect(firstName).toHaveValue('Ngozi');
    await expect(page.getByTestId('account-menu')).toContainText('Ngozi');
    const menu = await openAccountMenu(page);
    await expect(menu.getByTestId('account-name')).toHaveText(`Ngozi ${account.lastName}`);
    await page.keyboard.press('Escape');

    // The change is the server's, not only the page's.
    await page.reload();
    await expect(page.getByTestId('profile-section').getByLabel('First name')).toHaveValue('Ngozi');
    await expect(page.getByTestId('account-menu')).toContainText('Ngozi');
  });

  test('the sessions list marks this device', async ({ page }) => {
    await registerViaApi(page.request, newAccount('sessions'));

    await page.goto('/settings');
    const sessions = page.getByTestId('sessions-list');
    await expect(sessions.getByTestId('session-item')).toHaveCount(1);
    const current = sessions.locator('[data-testid="session-item"][data-current="true"]');
    await expect(current.getByTestId('current-session-badge')).toHaveText('This device');
    await expect(current.getByTestId('revoke-session')).toHaveCount(0);
    await expect(page.getByText('This is your only active session.')).toBeVisible();
  });

  test('"Download my data" saves the account as a JSON Lines file', async ({ page }) => {
    const account = await registerViaApi(page.request, newAccount('export'));
    await page.goto('/settings');
    const downloading = page.waitForEvent('download');
    await page.getByTestId('data-export-download').click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^tambari-export-\d{4}-\d{2}-\d{2}\.jsonl$/);
    const text = await (await download.createReadStream()).toArray();
    const lines = Buffer.concat(text)
      .toString('utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines[0]).toMatchObject({ type: 'export', format: 'tambari-export/1' });
    expect(lines[1]).toMatchObject({ type: 'user', row: { email: account.email } });
  });
});
