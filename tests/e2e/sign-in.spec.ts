import { expect, test } from '@playwright/test';

import { newAccount, registerViaApi } from './support/accounts';
import { DEMO, E2E_DEMO_PASSWORD } from './support/env';
import { expectToast, openAccountMenu, signInViaUi } from './support/ui';

test.describe('sign-in', () => {
  test('a wrong password shows the Login failed toast and stays on /auth', async ({ page }) => {
    await signInViaUi(page, DEMO.user, 'not-the-password');

    await expectToast(page, {
      title: 'Login failed',
      description: 'Invalid email or password. Please try again.',
      variant: 'destructive',
    });
    await expect(page).toHaveURL('/auth');
    await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
    await expect(page.getByTestId('login-submit')).toBeEnabled();
  });

  test('a subscriber goes to /dashboard, without the view switcher', async ({ page }) => {
    await signInViaUi(page, DEMO.user, E2E_DEMO_PASSWORD);

    await expectToast(page, { title: 'Welcome back!', description: /^Signed in as \S+$/ });
    await expect(page).toHaveURL('/dashboard');
    await expect(page.getByTestId('welcome-name')).toHaveText('Adaeze');
    await expect(page.getByTestId('app-header')).toBeVisible();
    await expect(page.getByTestId('view-switcher')).toHaveCount(0);
  });

  test('a super admin goes to /admin-dashboard and gets the view switcher', async ({ page }) => {
    await signInViaUi(page, DEMO.superAdmin, E2E_DEMO_PASSWORD);

    await expect(page).toHaveURL('/admin-dashboard');
    await expect(page.getByRole('heading', { name: 'Admin Dashboard', level: 1 })).toBeVisible();
    const switcher = page.getByTestId('view-switcher');
    await expect(switcher).toBeVisible();
    await expect(switcher.getByTestId('view-switcher-admin')).toHaveAttribute('aria-current', 'page');

    await switcher.getByTestId('view-switcher-user').click();
    await expect(page).toHaveURL('/dashboard');
    await expect(switcher.getByTestId('view-switcher-user')).toHaveAttribute('aria-current', 'page');
    const menu = await openAccountMenu(page);
    await expect(menu.getByTestId('account-role-label')).toHaveText('Super Admin');
  });

  test('a data entry officer goes to /data-entry and is kept there', async ({ page }) => {
    await signInViaUi(page, DEMO.dataEntry, E2E_DEMO_PASSWORD);

    await expect(page).toHaveURL('/data-entry');
    await expect(page.getByRole('heading', { name: 'Data Entry Dashboard' })).toBeVisible();
    await expect(page.getByTestId('view-switcher')).toHaveCount(0);

    await page.goto('/dashboard');
    await expect(page).toHaveURL('/data-entry');
    await expect(page.getByRole('heading', { name: 'Data Entry Dashboard' })).toBeVisible();
    const menu = await openAccountMenu(page);
    await expect(menu.getByTestId('account-role-label')).toHaveText('Data Entry Officer');
  });
});

test.describe('sign-out', () => {
  test('signs out from the account menu and closes the signed-in routes', async ({ page, request }) => {
    const account = await registerViaApi(request, newAccount('signout'));
    await signInViaUi(page, account.email, account.password);
    await expect(page).toHaveURL('/dashboard');

    const menu = await openAccountMenu(page);
    await menu.getByRole('menuitem', { name: 'Sign out' }).click();

    await expect(page).toHaveURL('/auth');
    await expectToast(page, { title: 'Signed out', description: 'You have been successfully signed out.' });
    await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();

    await page.goto('/dashboard');
    await expect(page).toHaveURL('/auth');
    const me = await page.request.get('/api/user');
    expect(me.status()).toBe(401);
  });
});
