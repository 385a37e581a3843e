import { randomUUID } from 'node:crypto';
import { expect, type Page, test } from '@playwright/test';
import { signInAsSuperAdmin } from './support/accounts';
import { DEMO } from './support/env';
import { expectToast } from './support/ui';

/** A screen's code is loaded on first visit: on a busy machine that can take a while. */
const FIRST_PAINT_MS = 30_000;

// Each test walks a whole flow (several saves, checks and refreshes); give it room on a busy machine.
test.describe.configure({ timeout: 180_000 });

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

test('logs: a request’s lines are found by its id, and a request link gathers them', async ({ page }) => {
  await signInAsSuperAdmin(page.request);
  const requestId = `e2e-${randomUUID()}`;
  const answer = await page.request.get('/api/user', { headers: { 'x-request-id': requestId } });
  expect(answer.ok()).toBe(true);

  await page.goto('/admin/log-dashboard');
  await expect(page.getByRole('heading', { name: 'Logs', level: 1 })).toBeVisible({
    timeout: FIRST_PAINT_MS,
  });
  await expect(page.getByTestId('monitor-freshness')).toContainText('Updated');
  await expect(page.getByTestId('log-bounds')).toContainText('The table keeps the newest');

  // Lines reach the table within a second or so (batched); search for ours by its request id.
  await page.getByLabel('Request id').fill(requestId);
  await expect(async () => {
    await page.getByTestId('search-logs').click();
    await page.getByRole('button', { name: 'Refresh now' }).click();
    await expect(page.getByTestId('log-line')).toHaveCount(2, { timeout: 5_000 });
  }).toPass({ timeout: 60_000 });
  await expect(page).toHaveURL(new RegExp(`requestId=${requestId}`));
  await expect(page.getByTestId('log-lines')).toContainText('request completed');
  await expect(page.getByTestId('log-lines')).toContainText('/api/user');
  await expect(page.getByTestId('log-lines')).toContainText(DEMO.superAdmin);
  await expect(page.getByTestId('request-filter-note')).toContainText(requestId);

  // From the whole log, a line's request link filters to that request.
  await page.getByRole('button', { name: 'Show all requests' }).click();
  await expect(page).not.toHaveURL(/requestId=/);
  await page.getByTestId('request-link').first().click();
  await expect(page).toHaveURL(/requestId=/);
  await expect(page.getByTestId('request-filter-note')).toBeVisible();
  await screenshots(page, 'log-dashboard');

  await page.goto('/admin/log-dashboard?q=no-such-line-anywhere-42');
  await expect(page.getByTestId('logs-empty')).toContainText('No line matches these filters.');
});

test('alerting: a rule crossed opens an alert, the admin acknowledges it, and it resolves when cleared', async ({
  page,
}) => {
  await signInAsSuperAdmin(page.request);
  await page.goto('/admin/alerting-dashboard');
  await expect(page.getByRole('heading', { name: 'Alerting', level: 1 })).toBeVisible({
    timeout: FIRST_PAINT_MS,
  });
  await expect(page.getByTestId('alert-rule')).toHaveCount(8);

  // Any database is bigger than 0 MB: with that threshold the rule fires on the next check.
  const rule = page.getByTestId('alert-rule').filter({ hasText: 'Database size' });
  await rule.getByLabel('Threshold (MB)').fill('0');
  await rule.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, { title: 'Done', description: /threshold is now 0 MB/ });
  await page.getByTestId('evaluate-now').click();
  await expectToast(page, { title: 'Done', description: /rules checked/ });
  const alert = page.getByTestId('active-alert').filter({ hasText: 'Database size' });
  await expect(alert).toContainText('Open');
  await expect(alert).toContainText('mailed to');
  await screenshots(page, 'alerting-dashboard');

  await alert.getByTestId('acknowledge-alert').click();
  await expectToast(page, { title: 'Done', description: /acknowledged/ });
  await expect(alert).toContainText('Acknowledged');

  await rule.getByLabel('Threshold (MB)').fill('10240');
  await rule.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, { title: 'Done', description: /threshold is now 10,240 MB/ });
  await page.getByTestId('evaluate-now').click();
  await expect(page.getByTestId('active-alert').filter({ hasText: 'Database size' })).toHaveCount(0);
  await expect(page.getByTestId('alert-history')).toContainText('Resolved');
});

test('cache monitor: lists the web process’s caches with their hit rate, and clears one', async ({
  page,
}) => {
  await signInAsSuperAdmin(page.request);
  // Fill the currency cache (one miss, then a hit).
  await page.request.get('/api/currency/rates');
  await page.request.get('/api/currency/rates');
  await page.goto('/admin/cache-monitor');
  await expect(page.getByRole('heading', { name: 'Cache Monitor', level: 1 })).toBeVisible({
    timeout: FIRST_PAINT_MS,
  });
  await expect(page.getByTestId('cache-process-note')).toContainText('this process');
  const row = page.getByTestId('cache-row').filter({ hasText: 'currency-rates' });
  await expect(row).toContainText('%');
  await expect(page.getByTestId('caches-table')).toContainText('tracking-tokens');
  await screenshots(page, 'cache-monitor');

  await row.getByTestId('clear-cache').click();
  await page.getByTestId('clear-cache-dialog').getByRole('button', { name: 'Clear it' }).click();
  await expectToast(page, { title: 'Done', description: /Cache currency-rates cleared/ });
  await expect(row.getByTestId('clear-cache')).toBeDisabled();
});
