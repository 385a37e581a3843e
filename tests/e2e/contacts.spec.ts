import { writeFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';

import { newAccount, registerViaApi, signInAsSuperAdmin } from './support/accounts';
import { type DirectoryRow, importIntoDirectory, setPlanViaAdmin, uniqueToken } from './support/contacts';
import { E2E_BASE_URL } from './support/env';
import { expectToast } from './support/ui';

test('a subscriber finds businesses, keeps them in a list and imports a CSV into it', async ({
  page,
  playwright,
}, testInfo) => {
  test.setTimeout(120_000);

  // Twelve Accra logistics firms that only this test's keyword finds, added as a super admin would.
  const token = uniqueToken();
  const email = (index: number) => `dispatch${index}.${token.toLowerCase()}@example.com`;
  const rows: DirectoryRow[] = Array.from({ length: 12 }, (_, index) => ({
    company: `${token} Haulage ${index + 1}`,
    contact: `Kofi Mensah`,
    email: email(index),
    city: 'Accra',
    country: 'GH',
    category: 'logistics',
  }));
  const admin = await playwright.request.newContext({ baseURL: E2E_BASE_URL });
  await signInAsSuperAdmin(admin);
  await importIntoDirectory(admin, rows);

  // A Starter subscriber searches every country and category.
  const account = await registerViaApi(page.request, newAccount('leads'));
  await setPlanViaAdmin(admin, account.email, 'starter');
  await admin.dispose();

  await page.goto('/lead-discovery');
  await expect(page.getByRole('heading', { name: 'Browse Contacts', level: 1 })).toBeVisible();

  await page.getByTestId('filter-country').click();
  await page.getByTestId('filter-country-search').fill('ghana');
  await page.getByRole('option', { name: /Ghana/ }).click();
  await page.keyboard.press('Escape');
  // A synonym finds its category.
  await page.getByTestId('filter-category').click();
  await page.getByTestId('filter-category-search').fill('haulage');
  await page.getByRole('option', { name: /Logistics & Freight/ }).click();
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/country=GH/);
  await expect(page).toHaveURL(/category=logistics/);

  await page.getByTestId('filter-keyword').fill(token);
  // The keyword searches after a 300 ms pause.
  await expect(page).toHaveURL(new RegExp(`q=${token}`));
  await expect(page.getByTestId('audience-count')).toHaveText('12');
  const results = page.getByTestId('leads-table').getByTestId('lead-row');
  await expect(results).toHaveCount(12);
  await expect(results.first()).toContainText(`${token} Haulage`);
  await expect(results.first()).toContainText('Accra, Ghana');

  // Every match into a new list.
  await page.getByTestId('select-all-matching').click();
  await expect(page.getByTestId('selection-banner')).toContainText('All 12 matching contacts are selected.');
  await page.getByTestId('add-to-list').click();
  const dialog = page.getByTestId('add-to-list-dialog');
  const listName = `Accra hauliers ${token}`;
  await dialog.getByTestId('new-list-name').fill(listName);
  await dialog.getByTestId('add-to-list-submit').click();
  await expectToast(page, { title: 'Added to list', description: `12 contacts added to ${listName}.` });

  await page.getByTestId('toast-open-list').click();
  await expect(page.getByTestId('list-name-heading')).toHaveText(listName);
  await expect(page.getByTestId('list-contact-count')).toHaveText('12');
  await expect(page.getByTestId('list-contact-row')).toHaveCount(12);

  // A CSV with two new people, a repeat within the file, someone already in the list and a bad address.
  const csvPath = testInfo.outputPath('my-contacts.csv');
  await writeFile(
    csvPath,
    [
      'Email,First name,Last name,Company',
      `ada.${token.toLowerCase()}@example.com,Ada,Obi,Kora Foods`,
      `bola.${token.toLowerCase()}@example.com,Bola,Ade,Sun Traders`,
      `ADA.${token.toLowerCase()}@example.com,Ada,Again,Kora Foods`,
      `${email(0)},Kofi,Mensah,${token} Haulage 1`,
      'not-an-email,Bad,Row,Nowhere Ltd',
    ].join('\n'),
  );

  await page.getByTestId('list-import-csv').click();
  await expect(page.getByTestId('import-upload-step')).toBeVisible();
  await expect(page.getByTestId('import-list-select')).toContainText(listName);
  await page.getByTestId('import-file-input').setInputFiles(csvPath);
  await expect(page.getByTestId('import-file-name')).toHaveText('my-contacts.csv');
  await page.getByTestId('upload-submit').click();

  const mapping = page.getByTestId('import-mapping-step');
  await expect(mapping).toBeVisible();
  await expect(mapping.getByTestId('import-preview')).toContainText(
    `bola.${token.toLowerCase()}@example.com`,
  );
  await expect(
    mapping.locator('[data-testid="mapping-row"][data-column="Email"]').getByTestId('mapping-select'),
  ).toHaveText('Email');
  await expect(mapping.getByTestId('mapping-ok')).toBeVisible();
  await mapping.getByTestId('start-import').click();

  const report = page.getByTestId('import-report-step');
  await expect(report).toHaveAttribute('data-status', 'completed', { timeout: 60_000 });
  await expect(report.getByTestId('import-count-imported')).toHaveText('2');
  await expect(report.getByTestId('import-count-duplicates')).toHaveText('1');
  await expect(report.getByTestId('import-count-existing')).toHaveText('1');
  await expect(report.getByTestId('import-count-invalid')).toHaveText('1');
  const reasons = report.getByTestId('rejection-reason');
  await expect(reasons).toHaveText(['Duplicate of line 2', 'Already in this list', 'Invalid email address']);
  await expect(report.getByTestId('download-report')).toHaveAttribute(
    'href',
    /\/api\/imports\/[^/]+\/report\.csv$/,
  );

  await report.getByTestId('view-destination').click();
  await expect(page.getByTestId('list-name-heading')).toHaveText(listName);
  await expect(page.getByTestId('list-contact-count')).toHaveText('14');
});
