import { expect, type Page, test } from '@playwright/test';

import { newAccount, registerViaApi, signInAsSuperAdmin } from './support/accounts';
import { DEMO } from './support/env';
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

test('email queue: the legacy path opens the monitor with the queues and the outbox, and it says how fresh it is', async ({
  page,
}) => {
  await signInAsSuperAdmin(page.request);
  await page.goto('/email-queue-status');
  await expect(page).toHaveURL(/\/admin\/email-queue-status$/);
  await expect(page.getByRole('heading', { name: 'Email Queue', level: 1 })).toBeVisible();
  await expect(page.getByTestId('queues-table')).toContainText('dispatch-outbox');
  await expect(page.getByTestId('outbox-queued')).toBeVisible();
  await expect(page.getByTestId('monitor-freshness')).toContainText('Updated');
  await expect(
    page.getByTestId('failed-messages-empty').or(page.getByTestId('failed-messages-table')),
  ).toBeVisible();
  await expect(page.getByTestId('failed-jobs-empty').or(page.getByTestId('failed-jobs-table'))).toBeVisible();
  await screenshots(page, 'email-queue');
});

test('email processing: the admin finds the demo subscriber’s account, pauses it and resumes it', async ({
  page,
}) => {
  await signInAsSuperAdmin(page.request);
  await page.goto('/admin/email-processing-monitor');
  await expect(page.getByRole('heading', { name: 'Email Processing', level: 1 })).toBeVisible();
  await page.getByTestId('sender-search').fill(DEMO.user);
  const row = page
    .getByTestId('sender-row')
    .filter({ hasText: `Owner: ${DEMO.user}` })
    .first();
  await expect(row.getByTestId('sender-status')).toHaveText('Active');
  await expect(row).toContainText('/ ');
  await screenshots(page, 'email-processing');

  await row.getByRole('button', { name: 'Pause' }).click();
  const dialog = page.getByTestId('sender-action-dialog');
  await expect(dialog).toContainText(DEMO.user);
  await dialog.getByRole('button', { name: 'Pause' }).click();
  await expectToast(page, { title: 'Done', description: /is paused\.$/ });
  await expect(row.getByTestId('sender-status')).toHaveText('Paused');

  await page.getByTestId('sender-status-filter').click();
  await page.getByRole('option', { name: 'Paused' }).click();
  await expect(row.getByTestId('sender-status')).toHaveText('Paused');
  await row.getByRole('button', { name: 'Resume' }).click();
  await page.getByTestId('sender-action-dialog').getByRole('button', { name: 'Resume' }).click();
  await expectToast(page, { title: 'Done', description: /is active again\.$/ });
  await expect(page.getByTestId('senders-empty')).toContainText('No sender account matches these filters');
});

test('aliases: /users opens the users screen for a super admin; a subscriber is sent from the monitors and their aliases to /dashboard', async ({
  page,
  browser,
}) => {
  await signInAsSuperAdmin(page.request);
  await page.goto('/users');
  await expect(page).toHaveURL(/\/admin\/users$/);
  await expect(page.getByTestId('admin-users-page')).toBeVisible();
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/admin-dashboard$/);
  await expect(page.getByTestId('admin-dashboard-page')).toBeVisible();

  const context = await browser.newContext();
  const subscriber = await context.newPage();
  await registerViaApi(subscriber.request, newAccount('monitors'));
  for (const path of [
    '/admin/email-queue-status',
    '/email-queue-status',
    '/admin/email-processing-monitor',
    '/users',
  ]) {
    await subscriber.goto(path);
    await expect(subscriber, path).toHaveURL(/\/dashboard$/);
    await expect(subscriber.getByTestId('welcome-header')).toBeVisible();
  }
  await context.close();
});
