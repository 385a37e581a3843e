import { expect, type Page, test } from '@playwright/test';

import { newAccount, registerViaApi, signInAsSuperAdmin } from './support/accounts';
import { E2E_BASE_URL } from './support/env';
import { expectToast } from './support/ui';

/** A desktop Chrome's user agent: the headless browser's own one is (rightly) taken for a bot. */
const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

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

test('website traffic: a signed-out visit to a public page is counted without a cookie; a headless bot is not', async ({
  page,
  browser,
}) => {
  const visitor = await browser.newContext({ baseURL: E2E_BASE_URL, userAgent: BROWSER_UA });
  const visitorPage = await visitor.newPage();
  const counted: string[] = [];
  visitorPage.on('request', (r) => {
    // A beacon's body is not shown to Playwright: the page it came from is.
    if (r.url().endsWith('/api/traffic/page-view')) counted.push(new URL(r.frame().url()).pathname);
  });
  const beacon = visitorPage.waitForResponse((r) => r.url().endsWith('/api/traffic/page-view'));
  await visitorPage.goto('/features');
  // A plain public page is counted as it loads, before the app (which waits for the visitor's intent).
  expect((await beacon).status()).toBe(204);
  // The app, once woken, does not count the same page a second time.
  await visitorPage.keyboard.press('Shift');
  await visitorPage.locator('html[data-hydrated]').waitFor({ state: 'attached' });
  // The page view is sent after the route changes: wait for it, or closing the tab may cancel it.
  const pricingBeacon = visitorPage.waitForResponse((r) => r.url().endsWith('/api/traffic/page-view'));
  await visitorPage.getByRole('link', { name: 'Pricing' }).first().click();
  await expect(visitorPage).toHaveURL(/\/pricing$/);
  expect((await pricingBeacon).status()).toBe(204);
  expect(counted).toEqual(['/features', '/pricing']);
  // Nothing was stored in the visitor's browser to follow them.
  expect(await visitor.cookies()).toEqual([]);
  await visitor.close();

  const bot = await browser.newContext({ baseURL: E2E_BASE_URL });
  const botPage = await bot.newPage();
  const botBeacon = botPage.waitForResponse((r) => r.url().endsWith('/api/traffic/page-view'));
  await botPage.goto('/about');
  expect((await botBeacon).status()).toBe(204);
  await bot.close();

  await signInAsSuperAdmin(page.request);
  await page.goto('/admin/website-traffic');
  await expect(page.getByRole('heading', { name: 'Website Traffic', level: 1 })).toBeVisible();
  await page.getByTestId('range-24h').click();
  const pages = page.getByTestId('top-pages');
  await expect(pages).toContainText('/features');
  await expect(pages).toContainText('/pricing');
  await expect(pages).not.toContainText('/about');
  await expect(page.getByTestId('traffic-views-value')).not.toHaveText('0');
  await expect(page.getByTestId('traffic-visitors-value')).toHaveText('1');
  await expect(page.getByTestId('monitor-freshness')).toContainText('Updated');
  await screenshots(page, 'website-traffic');
});

test('cost optimization: storage per table and the purge jobs with their schedules, sortable', async ({
  page,
}) => {
  await signInAsSuperAdmin(page.request);
  await page.goto('/admin/cost-optimization');
  await expect(page.getByRole('heading', { name: 'Cost Optimization', level: 1 })).toBeVisible();
  const tables = page.getByTestId('cost-tables');
  await expect(tables).toContainText('directory_contacts');
  await expect(page.getByTestId('cost-database-size-value')).toContainText('B');
  await expect(page.getByTestId('cost-stale-table')).toContainText('purge-deleted-lists');
  await expect(page.getByTestId('cost-stale-table')).toContainText('Daily at 03:25 UTC');
  await expect(page.getByTestId('cost-users')).toContainText('demo@tambari.test');

  // Sorting by name puts the tables in alphabetical order.
  await page.getByTestId('cost-tables-sort-table').click();
  const cells = await tables.getByTestId('cost-tables-row').locator('td:first-child').allInnerTexts();
  // pg-boss's tables show their schema before the name; the sort is by the table's own name.
  const names = cells.map((cell) => cell.replace(/^\w+\./, ''));
  expect(names.length).toBeGreaterThan(5);
  expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
  await screenshots(page, 'cost-optimization');
});

test('recycle bin: a subscriber’s deleted list is restored by the admin, deleted again and purged', async ({
  page,
  playwright,
}) => {
  const owner = await playwright.request.newContext({ baseURL: E2E_BASE_URL });
  const account = await registerViaApi(owner, newAccount('binowner'));
  const name = `Abuja retailers ${Date.now()}`;
  const created = await owner.post('/api/lists', { data: { name } });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  expect((await owner.delete(`/api/lists/${id}`)).status()).toBe(200);

  await signInAsSuperAdmin(page.request);
  await page.goto('/admin/recycle-bin');
  await expect(page.getByRole('heading', { name: 'Recycle Bin', level: 1 })).toBeVisible();
  let row = page.getByTestId('recycle-bin-row').filter({ hasText: name });
  await expect(row).toContainText(account.email);
  await screenshots(page, 'recycle-bin');

  await row.getByRole('button', { name: `Restore ${name}` }).click();
  await page.getByTestId('recycle-bin-dialog').getByRole('button', { name: 'Restore' }).click();
  await expectToast(page, { title: 'Done', description: `“${name}” was restored.` });
  await expect(row).toHaveCount(0);
  expect((await owner.get(`/api/lists/${id}`)).status()).toBe(200);

  expect((await owner.delete(`/api/lists/${id}`)).status()).toBe(200);
  await page.getByRole('button', { name: 'Refresh now' }).click();
  row = page.getByTestId('recycle-bin-row').filter({ hasText: name });
  await row.getByRole('button', { name: `Delete ${name} for good` }).click();
  await page.getByTestId('recycle-bin-dialog').getByRole('button', { name: 'Delete for good' }).click();
  await expectToast(page, { title: 'Done', description: `“${name}” was deleted for good.` });
  await expect(row).toHaveCount(0);
  expect((await owner.get(`/api/lists/${id}`)).status()).toBe(404);

  await page.getByTestId('bin-tab-directory_contact').click();
  await expect(page.getByTestId('recycle-bin-empty').or(page.getByTestId('recycle-bin-table'))).toBeVisible();
  await owner.dispose();
});

test('recycle bin: a subscriber’s deleted campaign, bulk email and template are in their tabs with the owner; restored or purged', async ({
  page,
  playwright,
}) => {
  const owner = await playwright.request.newContext({ baseURL: E2E_BASE_URL });
  const account = await registerViaApi(owner, newAccount('binitems'));
  const stamp = Date.now();
  const made = async (url: string, data: Record<string, unknown>) => {
    const response = await owner.post(url, { data });
    expect(response.status()).toBe(201);
    return ((await response.json()) as { id: string }).id;
  };
  const campaign = { name: `Kano follow-up ${stamp}`, url: '/api/campaigns' };
  const campaignId = await made(campaign.url, { name: campaign.name });
  const bulk = { name: `Price change ${stamp}`, url: '/api/newsletters' };
  const bulkId = await made(bulk.url, {
    kind: 'bulk',
    name: bulk.name,
    subject: 'Prices',
    html: '<p>Hi</p>',
  });
  const template = { name: `Fair follow-up ${stamp}`, url: '/api/templates' };
  const templateId = await made(template.url, {
    category: 'follow-up',
    name: template.name,
    subject: 'Good to meet you',
    bodyHtml: '<p>Hello</p>',
  });
  for (const url of [
    `/api/campaigns/${campaignId}`,
    `/api/newsletters/${bulkId}`,
    `/api/templates/${templateId}`,
  ]) {
    expect((await owner.delete(url)).status()).toBe(204);
    expect((await owner.get(url)).status()).toBe(404);
  }

  await signInAsSuperAdmin(page.request);
  await page.goto('/admin/recycle-bin');
  await expect(page.getByRole('heading', { name: 'Recycle Bin', level: 1 })).toBeVisible();

  await page.getByTestId('bin-tab-campaign').click();
  let row = page.getByTestId('recycle-bin-row').filter({ hasText: campaign.name });
  await expect(row).toContainText(account.email);
  await expect(row).toContainText('Draft · 0 steps');
  await screenshots(page, 'recycle-bin-campaigns');
  await row.getByRole('button', { name: `Restore ${campaign.name}` }).click();
  await page.getByTestId('recycle-bin-dialog').getByRole('button', { name: 'Restore' }).click();
  await expectToast(page, { title: 'Done', description: `“${campaign.name}” was restored.` });
  await expect(row).toHaveCount(0);
  expect((await owner.get(`/api/campaigns/${campaignId}`)).status()).toBe(200);

  await page.getByTestId('bin-tab-newsletter').click();
  row = page.getByTestId('recycle-bin-row').filter({ hasText: bulk.name });
  await expect(row).toContainText(account.email);
  await expect(row).toContainText('Bulk email');
  await row.getByRole('button', { name: `Restore ${bulk.name}` }).click();
  await page.getByTestId('recycle-bin-dialog').getByRole('button', { name: 'Restore' }).click();
  await expectToast(page, { title: 'Done', description: `“${bulk.name}” was restored.` });
  expect((await owner.get(`/api/newsletters/${bulkId}`)).status()).toBe(200);

  await page.getByTestId('bin-tab-template').click();
  row = page.getByTestId('recycle-bin-row').filter({ hasText: template.name });
  await expect(row).toContainText(account.email);
  await row.getByRole('button', { name: `Delete ${template.name} for good` }).click();
  await page.getByTestId('recycle-bin-dialog').getByRole('button', { name: 'Delete for good' }).click();
  await expectToast(page, { title: 'Done', description: `“${template.name}” was deleted for good.` });
  await expect(row).toHaveCount(0);
  expect((await owner.get(`/api/templates/${templateId}`)).status()).toBe(404);
  await owner.dispose();
});
