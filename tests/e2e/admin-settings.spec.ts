import { expect, type Page, test } from '@playwright/test';

import { newAccount, registerViaApi, signInAsSuperAdmin } from './support/accounts';
import { expectToast } from './support/ui';

/** Screenshots for a person to look at (MONITOR_SCREENSHOTS=<dir>), at a laptop's and a phone's width. */
async function screenshots(page: Page, name: string) {
  const dir = process.env.MONITOR_SCREENSHOTS;
  if (!dir) return;
  for (const [label, width] of [
    ['1366', 1366],
    ['390', 390],
  ] as const) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.screenshot({ path: `${dir}/${name}-${label}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

test('settings: the legacy path opens the page; a changed support address is saved, shown after a reload and audited', async ({
  page,
}) => {
  await signInAsSuperAdmin(page.request);
  await page.goto('/admin-settings');
  await expect(page).toHaveURL(/\/admin\/settings$/);
  await expect(page.getByRole('heading', { name: 'Platform settings', level: 1 })).toBeVisible();
  await expect(page.getByTestId('provider-paystack')).toBeVisible();
  await expect(page.getByTestId('settings-providers')).not.toContainText(/sk_|pk_/);

  const section = page.getByTestId('settings-section-support');
  const field = section.getByTestId('settings-email');
  const before = await field.inputValue();
  const address = `help-${Date.now()}@tambari.test`;
  await field.fill('not an address');
  await section.getByTestId('settings-save-support').click();
  await expect(section.getByRole('alert')).toContainText('valid email');

  await field.fill(address);
  await section.getByTestId('settings-save-support').click();
  await expectToast(page, { title: 'Saved', description: /updated\.$/ });
  const change = page.getByTestId('settings-change').first();
  await expect(change).toContainText('Support addresses');
  await expect(change).toContainText(`${before} → ${address}`);
  await screenshots(page, 'admin-settings');

  await page.reload();
  await expect(page.getByTestId('settings-section-support').getByTestId('settings-email')).toHaveValue(
    address,
  );
  await expect(page.getByTestId('settings-change').first()).toContainText(address);

  // Put it back, so a rerun starts from the same address.
  await page.getByTestId('settings-section-support').getByTestId('settings-email').fill(before);
  await page.getByTestId('settings-save-support').click();
  await expectToast(page, { title: 'Saved', description: /updated\.$/ });
});

test('settings: closed sign-ups show the message on /register, and the form is back once they reopen', async ({
  page,
  browser,
}) => {
  await signInAsSuperAdmin(page.request);
  await page.goto('/admin/settings');
  const section = page.getByTestId('settings-section-signups');
  const message = `Closed for maintenance ${Date.now()}.`;
  await section.getByTestId('settings-open').click();
  await section.getByTestId('settings-closedMessage').fill(message);
  await section.getByTestId('settings-save-signups').click();
  await expectToast(page, { title: 'Saved', description: /updated\.$/ });

  const visitor = await browser.newPage();
  try {
    await visitor.goto('/register');
    await expect(visitor).toHaveURL(/\/auth\?mode=signup$/);
    await expect(visitor.getByTestId('signups-closed')).toContainText(message);
    await expect(visitor.getByTestId('register-form')).toHaveCount(0);
  } finally {
    await section.getByTestId('settings-open').click();
    await section.getByTestId('settings-save-signups').click();
    await expectToast(page, { title: 'Saved', description: /updated\.$/ });
  }
  await visitor.reload();
  await expect(visitor.getByTestId('register-form')).toBeVisible();
  await visitor.close();
});

test('documentation: the runbooks open with a table of contents', async ({ page }) => {
  await signInAsSuperAdmin(page.request);
  await page.goto('/admin/documentation');
  await expect(page).toHaveURL(/\/admin\/documentation\/deploy$/);
  await expect(page.getByRole('heading', { name: 'Deploy', level: 1 })).toBeVisible();
  for (const title of ['Scale out', 'Rotate keys', 'Restore a backup', 'Handle a complaint spike']) {
    await expect(page.getByTestId('runbook-list')).toContainText(title);
  }
  await page.getByTestId('runbook-link-refund').click();
  await expect(page.getByRole('heading', { name: 'Refund a payment', level: 1 })).toBeVisible();
  const toc = page.getByTestId('runbook-toc');
  await toc.getByRole('link', { name: 'Partial refunds and credits' }).click();
  await expect(page).toHaveURL(/#partial-refunds-and-credits$/);
  await expect(page.getByRole('heading', { name: 'Partial refunds and credits' })).toBeInViewport();
  await screenshots(page, 'admin-documentation');
});

test('aliases: a super admin is taken to the console pages; an unknown console page stays in the console', async ({
  page,
}) => {
  test.slow(); // eight page loads
  await signInAsSuperAdmin(page.request);
  for (const [from, to] of [
    ['/users', '/admin/users'],
    ['/scraper', '/admin/scraper'],
    ['/admin-settings', '/admin/settings'],
    ['/system-analytics', '/admin/system-analytics'],
    ['/email-queue-status', '/admin/email-queue-status'],
  ] as const) {
    await page.goto(from);
    await expect(page).toHaveURL(new RegExp(`${to}$`));
    await expect(page.getByTestId('not-found')).toHaveCount(0);
    await expect(page.getByTestId('sidebar')).toBeVisible();
  }

  for (const path of ['/admin/no-such-screen', '/admin-nothing-here', '/users/unknown/page']) {
    await page.goto(path);
    await expect(page.getByTestId('admin-not-found')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Not found in the console' })).toBeVisible();
    await expect(page.getByTestId('sidebar')).toBeVisible();
    await expect(page.getByTestId('not-found')).toHaveCount(0);
  }
  await screenshots(page, 'admin-not-found');
});

test('aliases: a subscriber is sent from every admin path and alias to /dashboard', async ({ page }) => {
  test.slow(); // eight page loads
  await registerViaApi(page.request, newAccount('aliases'));
  for (const path of [
    '/admin/settings',
    '/admin/documentation',
    '/admin-settings',
    '/system-analytics',
    '/email-queue-status',
    '/users',
    '/scraper',
    '/admin/no-such-screen',
  ]) {
    await page.goto(path);
    await expect(page, path).toHaveURL(/\/dashboard$/);
    await expect(page.getByTestId('admin-not-found')).toHaveCount(0);
  }
});
