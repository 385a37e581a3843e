import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';

import { newAccount, registerViaApi, signInAsSuperAdmin } from './support/accounts';
import { type DirectoryRow, importIntoDirectory, setPlanViaAdmin, uniqueToken } from './support/contacts';
import { E2E_BASE_URL } from './support/env';
import { expectToast } from './support/ui';

test('a Starter subscriber downloads the directory contacts of a list; the Free plan is offered an upgrade', async ({
  page,
  playwright,
}, testInfo) => {
  test.setTimeout(120_000);
  const token = uniqueToken();
  const rows: DirectoryRow[] = [
    {
      company: `${token} Haulage`,
      contact: 'Kofi Mensah',
      email: `kofi.${token}@example.com`,
      city: 'Accra',
      country: 'GH',
      category: 'logistics',
    },
    {
      company: `${token} Formula`,
      // A leading = would run as a formula in a spreadsheet: the file escapes it. (Not in the company name:
      // that would sort this record onto the first page other browser tests read.)
      contact: '=Ama Owusu',
      email: `ama.${token}@example.com`,
      city: 'Accra',
      country: 'GH',
      category: 'logistics',
    },
  ].map((row) => ({ ...row, email: row.email.toLowerCase() }));
  const admin = await playwright.request.newContext({ baseURL: E2E_BASE_URL });
  await signInAsSuperAdmin(admin);
  await importIntoDirectory(admin, rows);

  // A Free subscriber first: the page offers a paid plan.
  await registerViaApi(page.request, newAccount('free-download'));
  await page.goto('/database-download');
  await expect(page.getByTestId('subscription-blocked')).toHaveAttribute('data-issue', 'free_plan');
  await expect(page.getByRole('link', { name: 'Choose Plan & Pay' })).toBeVisible();

  const account = await registerViaApi(page.request, newAccount('download'));
  await setPlanViaAdmin(admin, account.email, 'starter');
  await admin.dispose();
  const found = await page.request.get(`/api/leads/search?q=${token}&limit=10`);
  expect(found.status(), await found.text()).toBe(200);
  const ids = ((await found.json()) as { items: { id: string }[] }).items.map((lead) => lead.id);
  expect(ids).toHaveLength(2);
  const listName = `Accra ${token}`;
  const added = await page.request.post('/api/leads/add-to-list', {
    data: { newListName: listName, contactIds: ids },
  });
  expect(added.status(), await added.text()).toBe(200);

  // Reached from My lists.
  await page.goto('/lead-discovery?tab=lists');
  await page.getByTestId('open-database-download').click();
  await expect(page.getByRole('heading', { name: 'Database Download', level: 1 })).toBeVisible();
  await expect(page.getByTestId('download-allowance-used')).toContainText('0 of 2,000 used');
  await page.getByLabel(listName, { exact: true }).check();
  await expect(page.getByTestId('download-start')).toHaveText(/Download up to 2 contacts/);

  const downloading = page.waitForEvent('download');
  await page.getByTestId('download-start').click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^tambari-contacts-\d{4}-\d{2}-\d{2}\.csv$/);
  const file = await readFile(await download.path(), 'utf8');
  expect(file).toContain('verification_status');
  expect(file).toContain("'=Ama Owusu");
  expect(file).toContain('Ghana');
  await expectToast(page, { title: 'Download ready', description: /2 contacts saved as tambari-contacts-/ });

  await expect(page.getByTestId('download-allowance-used')).toContainText('2 of 2,000 used');
  await expect(page.getByTestId('download-history')).toContainText(listName);

  for (const [label, width, height] of [
    ['desktop', 1366, 900],
    ['phone', 390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: testInfo.outputPath(`database-download-${label}.png`), fullPage: true });
  }
});
