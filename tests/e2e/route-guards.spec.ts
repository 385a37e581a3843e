import { expect, test } from '@playwright/test';

import { newAccount, registerViaApi } from './support/accounts';

test.describe('route guards', () => {
  test('a signed-out visitor of /dashboard lands on /auth', async ({ page }) => {
    await page.goto('/dashboard');

    await expect(page).toHaveURL('/auth');
    await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
  });

  test('a subscriber is sent from the admin routes to /dashboard', async ({ page }) => {
    // Registering through page.request signs the page in as that new subscriber.
    await registerViaApi(page.request, newAccount('guard'));

    await page.goto('/admin/users');
    await expect(page).toHaveURL('/dashboard');
    await expect(page.getByTestId('welcome-header')).toBeVisible();
    await expect(page.getByTestId('admin-users-page')).toHaveCount(0);

    await page.goto('/admin-dashboard');
    await expect(page).toHaveURL('/dashboard');
    await expect(page.getByTestId('welcome-header')).toBeVisible();
    await expect(page.getByTestId('admin-dashboard-page')).toHaveCount(0);
  });

  test('a signed-in subscriber opening /auth goes to /dashboard', async ({ page }) => {
    await registerViaApi(page.request, newAccount('bounce'));

    await page.goto('/auth');
    await expect(page).toHaveURL('/dashboard');
    await expect(page.getByTestId('welcome-header')).toBeVisible();
  });
});
