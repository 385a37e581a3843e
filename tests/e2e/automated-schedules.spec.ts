import { expect, type Page, test } from '@playwright/test';

import { signInAsSuperAdmin } from './support/accounts';
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

const completedToday = async (page: Page, name: string): Promise<number> => {
  const totals = page
    .locator(`[data-testid="schedule-row"][data-name="${name}"]:visible`)
    .getByTestId('schedule-day-totals');
  const text = (await totals.textContent()) ?? '';
  return Number(/(\d[\d,]*) completed/.exec(text)?.[1]?.replace(/,/g, '') ?? Number.NaN);
};

test('automated schedules: the super admin runs a job now and sees it complete, then pauses and resumes a schedule', async ({
  page,
}) => {
  await signInAsSuperAdmin(page.request);
  await page.goto('/admin/automated-schedules');
  await expect(page.getByRole('heading', { name: 'Automated Schedules', level: 1 })).toBeVisible();
  await expect(page.getByTestId('monitor-freshness')).toContainText('Updated');
  const table = page.getByTestId('schedules-table');
  await expect(table).toContainText('dispatch-outbox');
  await expect(table).toContainText('Every minute');

  // Run a nightly job now: the embedded worker picks it up, and its run shows as the last one.
  const name = 'rebuild-directory-facets';
  const row = table.locator(`[data-testid="schedule-row"][data-name="${name}"]`);
  await expect(row).toContainText('Every day at 02:40 UTC');
  const before = await completedToday(page, name);
  await row.getByRole('button', { name: `Run ${name} now` }).click();
  const dialog = page.getByTestId('schedule-action-dialog');
  await expect(dialog).toContainText(name);
  await dialog.getByRole('button', { name: 'Run now' }).click();
  await expectToast(page, { title: 'Done', description: /will run in a moment\.$/ });
  await expect.poll(() => completedToday(page, name), { timeout: 40_000 }).toBe(before + 1);
  await expect(row.getByTestId('schedule-outcome')).toHaveText('Completed');
  await screenshots(page, 'automated-schedules');

  // Pause a schedule: no next run while paused, and it says who paused it; then resume it.
  const purge = table.locator('[data-testid="schedule-row"][data-name="purge-deleted-lists"]');
  await purge.getByRole('button', { name: 'Pause purge-deleted-lists' }).click();
  await dialog.getByRole('button', { name: 'Pause' }).click();
  await expectToast(page, { title: 'Done', description: /is paused: it will not run on its schedule\.$/ });
  await expect(purge.getByTestId('schedule-paused')).toBeVisible();
  await expect(purge.getByTestId('schedule-next-run')).toContainText(' by ');
  await expect(page.getByTestId('schedule-totals')).toContainText('1 paused');

  await purge.getByRole('button', { name: 'Resume purge-deleted-lists' }).click();
  await dialog.getByRole('button', { name: 'Resume' }).click();
  await expectToast(page, { title: 'Done', description: /runs on its schedule again\.$/ });
  await expect(purge.getByTestId('schedule-paused')).toHaveCount(0);
  await expect(purge.getByTestId('schedule-next-run')).toContainText(
    /in \d+ hours?|tomorrow|in \d+ minutes?/,
  );
  await expect(page.getByTestId('schedule-totals')).toContainText('0 paused');
});
