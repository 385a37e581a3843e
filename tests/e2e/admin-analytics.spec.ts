import { expect, type Page, test } from '@playwright/test';

import { registerViaApi, signInAsSuperAdmin } from './support/accounts';

/** Screenshots for a person to look at (MONITOR_SCREENSHOTS=<dir>), at a laptop's and a phone's width. */
async function screenshots(page: Page, name: string) {
  const dir = process.env.MONITOR_SCREENSHOTS;
  if (!dir) return;
  // Full-page captures at two widths take a while on a busy machine; they are not what is tested.
  test.info().setTimeout(test.info().timeout + 120_000);
  for (const [label, width] of [
    ['1366', 1366],
    ['390', 390],
  ] as const) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.waitForTimeout(300); // the charts redraw at the new width
    await page.screenshot({ path: `${dir}/${name}-${label}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

test('system analytics: the legacy path opens it; charts draw and follow the chosen range', async ({
  page,
}) => {
  await signInAsSuperAdmin(page.request);
  await page.goto('/system-analytics');
  await expect(page).toHaveURL(/\/admin\/system-analytics$/);
  await expect(page.getByRole('heading', { name: 'System Analytics', level: 1 })).toBeVisible();
  await expect(page.getByTestId('monitor-freshness')).toContainText('Updated');
  await expect(page.getByTestId('figure-sent')).toBeVisible();
  await expect(page.getByTestId('figure-users-value')).not.toHaveText('0');
  for (const chart of ['chart-sends', 'chart-errors', 'chart-latency', 'chart-tracking', 'chart-imports']) {
    await expect(page.getByTestId(chart).locator('.recharts-surface')).toBeVisible();
  }
  await expect(page.getByRole('link', { name: 'Cost Optimization' })).toHaveAttribute(
    'href',
    '/admin/cost-optimization',
  );
  await screenshots(page, 'system-analytics');

  await page.getByTestId('range-7d').click();
  await expect(page).toHaveURL(/range=7d/);
  await expect(page.getByTestId('range-7d')).toHaveAttribute('data-state', 'active');
  // Six-hour buckets over a week: the hidden data table has 28 rows.
  await expect(page.getByTestId('chart-sends').locator('table tbody tr')).toHaveCount(28, {
    timeout: 30_000,
  });
  await page.getByTestId('range-30d').click();
  await expect(page.getByTestId('chart-sends').locator('table tbody tr')).toHaveCount(30, {
    timeout: 30_000,
  });
  await page.reload();
  await expect(page.getByTestId('range-30d')).toHaveAttribute('data-state', 'active');
});

test('analytics: a new sign-up is counted today, and the range switches', async ({ page, request }) => {
  await signInAsSuperAdmin(page.request);
  await page.goto('/admin/analytics?range=7d');
  await expect(page.getByRole('heading', { name: 'Analytics', level: 1 })).toBeVisible();
  const signups = page.getByTestId('figure-signups-value');
  await expect(signups).toBeVisible();
  const before = Number((await signups.textContent())?.replace(/\D/g, ''));
  await registerViaApi(request);
  await page.getByRole('button', { name: 'Refresh now' }).click();
  await expect(signups).toHaveText(String(before + 1));
  await expect(page.getByTestId('chart-growth').locator('.recharts-surface')).toBeVisible();
  await expect(page.getByTestId('plans-table')).toContainText('Starter');
  await expect(page.getByTestId('top-users')).toBeVisible();
  await screenshots(page, 'admin-analytics');

  await page.getByTestId('range-90d').click();
  await expect(page).toHaveURL(/range=90d/);
  await expect(page.getByTestId('chart-growth').locator('table tbody tr')).toHaveCount(90, {
    timeout: 30_000,
  });
});

test('database monitor: sizes of the real tables, and what the embedded database cannot show', async ({
  page,
}) => {
  await signInAsSuperAdmin(page.request);
  await page.goto('/admin/database-monitor');
  await expect(page.getByRole('heading', { name: /Database Monitor/, level: 1 })).toBeVisible();
  await expect(page.getByTestId('db-engine')).toContainText('Embedded (PGlite)');
  await expect(page.getByTestId('db-tables')).toContainText('public.outbox_messages');
  await expect(page.getByTestId('db-notes')).toContainText('pg_stat_statements is not available');
  await expect(page.getByTestId('db-long-running')).toContainText('Not available here');
  await expect(page.getByTestId('monitor-freshness')).toContainText('Updated');
  await screenshots(page, 'database-monitor');
});
