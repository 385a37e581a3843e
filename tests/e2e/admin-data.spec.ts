import { type APIRequestContext, expect, type Page, test } from '@playwright/test';

import { newAccount, registerViaApi, signInAsSuperAdmin, signInViaApi } from './support/accounts';
import { importIntoDirectory, uniqueToken } from './support/contacts';
import { DEMO, E2E_DEMO_PASSWORD } from './support/env';
import { expectToast } from './support/ui';

/** Screenshots for a person to look at (ADMIN_SCREENSHOTS=<dir>), at a laptop's and a phone's width. */
async function screenshots(page: Page, name: string) {
  const dir = process.env.ADMIN_SCREENSHOTS;
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

/** A subscriber's list with these addresses, made through the API as the subscriber would. */
async function listWith(request: APIRequestContext, name: string, emails: string[]): Promise<string> {
  const created = await request.post('/api/lists', { data: { name } });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  for (const email of emails) {
    const added = await request.post(`/api/lists/${id}/contacts`, { data: { email, firstName: 'Ngozi' } });
    expect(added.status(), await added.text()).toBe(201);
  }
  return id;
}

test('contacts: the admin finds an address in the directory and a user’s list, and erases it everywhere', async ({
  page,
  request,
}) => {
  const token = uniqueToken('erase').toLowerCase();
  const email = `${token}@abujaagro.test`;
  const owner = await registerViaApi(request, newAccount('owner'));
  await listWith(request, `Leads ${token}`, [email]);
  await signInAsSuperAdmin(page.request);
  await importIntoDirectory(page.request, [
    {
      company: `Abuja Agro ${token}`,
      contact: 'Ngozi Obi',
      email,
      city: 'Abuja',
      country: 'NG',
      category: 'agriculture',
    },
  ]);

  await page.goto('/admin/contacts');
  await expect(page.getByRole('heading', { name: 'Contacts', level: 1 })).toBeVisible();
  await expect(page.getByTestId('contacts-start')).toBeVisible();
  await page.getByTestId('contact-search').fill(token);
  await page.getByTestId('contact-search-submit').click();
  const match = page.getByTestId('contact-match').filter({ hasText: email });
  await expect(match).toContainText('1 directory · 1 lists');
  await screenshots(page, 'contacts-search');
  await match.click();

  const details = page.getByTestId('contact-details');
  await expect(details.getByTestId('contact-email')).toHaveText(email);
  await expect(details.getByTestId('list-memberships')).toContainText(owner.email);
  await expect(details.getByTestId('directory-records')).toContainText(`Abuja Agro ${token}`);
  await screenshots(page, 'contacts-details');

  await details.getByTestId('erase-button').click();
  const dialog = page.getByTestId('erase-dialog');
  await expect(dialog.getByTestId('erase-confirm')).toBeDisabled();
  await dialog.getByTestId('erase-confirm-input').fill(email);
  await dialog.getByTestId('erase-confirm').click();
  await expectToast(page, {
    title: 'Erased everywhere',
    description: /1 directory record\(s\), 1 list membership\(s\)/,
  });
  await expect(details.getByTestId('erased-badge')).toBeVisible();
  await expect(details).toContainText("In nobody's list.");
  await expect(details).toContainText('Not in the directory.');

  // The owner cannot put it back.
  const again = await request.post('/api/lists', { data: { name: `Again ${token}` } });
  const { id } = (await again.json()) as { id: string };
  const refused = await request.post(`/api/lists/${id}/contacts`, { data: { email } });
  expect(refused.status()).toBe(400);
  expect(((await refused.json()) as { message: string }).message).toMatch(/erased at its owner's request/);
});

test('user lists: the admin freezes a subscriber’s list and the owner is told why when adding to it', async ({
  page,
  request,
}) => {
  const token = uniqueToken('list');
  const owner = await registerViaApi(request, newAccount('lists'));
  const listId = await listWith(request, `Bought ${token}`, [
    `info@${token.toLowerCase()}.test`,
    `sales@${token.toLowerCase()}.test`,
  ]);
  await signInAsSuperAdmin(page.request);

  await page.goto('/admin/user-lists');
  await expect(page.getByRole('heading', { name: 'User Lists', level: 1 })).toBeVisible();
  await page.getByTestId('user-lists-search').fill(token);
  const row = page
    .getByTestId('user-list-row')
    .filter({ hasText: `Bought ${token}` })
    .first();
  await expect(row).toContainText(owner.email);
  await expect(row).toContainText('100% role');
  await screenshots(page, 'user-lists');

  await row.getByTestId('freeze-list').click();
  const dialog = page.getByTestId('freeze-dialog');
  await dialog.getByTestId('freeze-reason').fill('Only role addresses: looks bought');
  await dialog.getByTestId('freeze-confirm').click();
  await expectToast(page, { title: 'Done', description: /is frozen/ });
  await expect(row.getByTestId('frozen-badge')).toBeVisible();
  await expect(row).toContainText('Only role addresses: looks bought');

  const refused = await request.post(`/api/lists/${listId}/contacts`, {
    data: { email: `ceo@${token.toLowerCase()}.test` },
  });
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { message: string }).message).toContain(
    'is frozen by the Tambari team (Only role addresses: looks bought)',
  );

  await page.getByTestId('user-lists-search').fill('no list is called this zz');
  await expect(page.getByTestId('user-lists-empty')).toContainText('No list matches these filters');
});

test('data entry management: the admin reviews the officer’s record, sets a quota, and the officer sees it on /data-entry', async ({
  page,
  browser,
}) => {
  // Two signed-in browsers and four screens: more than the default minute on a loaded machine.
  test.slow();
  const officer = await browser.newContext();
  const officerPage = await officer.newPage();
  await signInViaApi(officerPage.request, DEMO.dataEntry, E2E_DEMO_PASSWORD);
  const company = `Kano Grains ${uniqueToken()}`;
  const entered = await officerPage.request.post('/api/data-entry/contacts', {
    data: {
      companyName: company,
      email: `${uniqueToken('grain').toLowerCase()}@kanograins.test`,
      countryCode: 'NG',
      category: 'agriculture',
    },
  });
  expect(entered.status(), await entered.text()).toBe(201);

  await signInAsSuperAdmin(page.request);
  await page.goto('/admin/data-entry-management');
  await expect(page.getByRole('heading', { name: 'Data Entry Management', level: 1 })).toBeVisible();
  const row = page.getByTestId('officer-row').filter({ hasText: DEMO.dataEntry }).first();
  await expect(row.getByTestId('officer-throughput')).toContainText(/[1-9]\d* in 14 days/);
  await screenshots(page, 'data-entry-management');

  await row.getByTestId('review-sample').click();
  const review = page.getByTestId('review-dialog');
  const record = review.getByTestId('review-record').filter({ hasText: company });
  await record.getByTestId('review-correct').click();
  await expect(record.getByTestId('review-done')).toHaveText('Correct');
  await screenshots(page, 'data-entry-review');
  await page.keyboard.press('Escape');
  await expect(row.getByTestId('officer-quality')).toContainText('% correct');

  await row.getByTestId('edit-assignment').click();
  const dialog = page.getByTestId('assignment-dialog');
  await dialog.getByTestId('assignment-quota').fill('25');
  await dialog.getByTestId('assignment-save').click();
  await expectToast(page, {
    title: 'Assignment saved',
    description: `${DEMO.dataEntry} sees it on their next visit.`,
  });
  await expect(row.getByTestId('officer-quota')).toContainText('/ 25');

  await officerPage.goto('/data-entry');
  // The dashboard's queries all load at once; on a loaded machine they take a while.
  await expect(officerPage.getByTestId('my-assignment')).toContainText('of 25 records today', {
    timeout: 30_000,
  });
  await officer.close();
});
