import { expect, test } from '@playwright/test';

import { newAccount, registerViaApi, signInAsSuperAdmin } from './support/accounts';
import { importIntoDirectory, setPlanViaAdmin, uniqueToken } from './support/contacts';
import { E2E_BASE_URL } from './support/env';

/*
 * Issue #16 §1: the embedded default's generated directory says "Sample data" wherever a subscriber sees
 * it, and nothing in it is called "Verified"; marketing quotes no figure the data does not hold.
 */
test('the demo directory is labelled sample data and never verified', async ({
  page,
  playwright,
  browser,
}, testInfo) => {
  test.setTimeout(90_000);
  const admin = await playwright.request.newContext({ baseURL: E2E_BASE_URL });
  await signInAsSuperAdmin(admin);
  const account = await registerViaApi(page.request, newAccount('sample'));
  await setPlanViaAdmin(admin, account.email, 'starter');
  // One real record, imported and then checked by staff: the only kind that may say "Verified".
  const token = uniqueToken();
  await importIntoDirectory(admin, [
    {
      company: `${token} Freight`,
      contact: 'Ama Owusu',
      email: `ama.${token.toLowerCase()}@freight-${token.toLowerCase()}.com.gh`,
      city: 'Accra',
      country: 'GH',
      category: 'logistics',
    },
  ]);
  const found = await admin.get(`/api/admin/directory?q=${token}`);
  expect(found.status(), await found.text()).toBe(200);
  const [real] = ((await found.json()) as { items: { id: string }[] }).items;
  const verify = await admin.post(`/api/data-entry/contacts/${real!.id}/verify`, {
    data: { status: 'verified' },
  });
  expect(verify.status(), await verify.text()).toBe(200);
  await admin.dispose();

  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto('/lead-discovery');
  await expect(page.getByRole('heading', { name: 'Browse Contacts', level: 1 })).toBeVisible();
  const banner = page.getByTestId('sample-data-banner');
  await expect(banner).toBeVisible();
  await expect(banner).toContainText('Sample data');
  await expect(banner).toContainText('none is verified');
  // The count says so too.
  await expect(page.getByTestId('audience').getByTestId('sample-badge')).toBeVisible();

  const rows = page.getByTestId('leads-table').getByTestId('lead-row');
  await expect(rows.first()).toBeVisible();
  const visibleRows = await rows.count();
  expect(visibleRows).toBeGreaterThan(0);
  // Every generated row wears the label; none of them is called verified.
  await expect(rows.filter({ has: page.getByTestId('sample-badge').locator('visible=true') })).toHaveCount(
    visibleRows,
  );
  await expect(page.getByTestId('leads-table').locator('[data-status="verified"]')).toHaveCount(0);
  await expect(rows.first().getByTestId('lead-provenance')).toContainText(/Generated · added .*2\d{3}/);

  // Verified in the last 30 days.
  await page.getByTestId('filter-verification').click();
  await page.getByRole('option', { name: 'Verified in the last 30 days' }).click();
  await expect(page).toHaveURL(/verifiedWithin=30/);
  // Only real, recently checked records remain (ours among them); no sample row is ever "verified".
  await expect(rows.filter({ hasText: token })).toHaveCount(1);
  await expect(page.getByTestId('leads-table').getByTestId('sample-badge')).toHaveCount(0);
  // The real, checked record: "Verified" with the date of the check, its source and date added.
  await page.goto(`/lead-discovery?q=${token}`);
  await expect(rows).toHaveCount(1);
  await expect(rows.first().getByTestId('verification-badge')).toHaveText(/^Verified .*2\d{3}$/);
  await expect(rows.first().getByTestId('sample-badge')).toHaveCount(0);
  await expect(rows.first().getByTestId('lead-provenance')).toContainText(/Admin import · added .*2\d{3}/);
  await page.screenshot({ path: testInfo.outputPath('lead-discovery-verified-1366.png') });

  await page.goto('/lead-discovery');
  await expect(rows.first()).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('lead-discovery-1366.png') });

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(banner).toBeVisible();
  await expect(rows.first().getByTestId('sample-badge').locator('visible=true')).toHaveCount(1);
  await page.screenshot({ path: testInfo.outputPath('lead-discovery-390.png') });

  // The dashboard card.
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto('/dashboard');
  await expect(page.getByTestId('stat-available-contacts').getByTestId('sample-badge')).toBeVisible();

  // Marketing, as a visitor: no copied "million", a live figure or an honest line without a number.
  const visitor = await browser.newPage({ baseURL: E2E_BASE_URL, viewport: { width: 1366, height: 900 } });
  for (const path of ['/', '/global-database', '/pricing']) {
    await visitor.goto(path);
    await expect(visitor.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await expect(visitor.locator('main')).not.toContainText(/million|1M\+/i);
  }
  await visitor.goto('/global-database');
  await expect(visitor.getByTestId('directory-figure')).toHaveText(
    /Build your own verified lists|^[\d,]+\+? verified contacts? in \d+ countr(y|ies)$/,
  );
  await visitor.goto('/');
  const band = visitor.getByTestId('landing-stats');
  await band.scrollIntoViewIfNeeded();
  await expect(band).not.toContainText('1M+');
  await visitor.screenshot({ path: testInfo.outputPath('landing-1366.png') });
  await visitor.setViewportSize({ width: 390, height: 844 });
  await band.scrollIntoViewIfNeeded();
  await visitor.screenshot({ path: testInfo.outputPath('landing-390.png') });
  await visitor.close();
});
