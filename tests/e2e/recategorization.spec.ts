import { expect, test } from '@playwright/test';
import { signInAsSuperAdmin } from './support/accounts';
import { importIntoDirectory, uniqueToken } from './support/contacts';
import { expectToast } from './support/ui';

test('recategorization: three haulage firms filed under retail move to logistics by rule, and back', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signInAsSuperAdmin(page.request);
  const token = uniqueToken();
  await importIntoDirectory(
    page.request,
    [1, 2, 3].map((n) => ({
      company: `${token} Haulage ${n}`,
      contact: 'Kofi Mensah',
      email: `haulage${n}.${token.toLowerCase()}@example.com`,
      city: 'Accra',
      country: 'GH',
      category: 'retail',
    })),
  );

  await page.goto('/admin/contact-database');
  await page.getByTestId('recategorize-by-rule').click();
  await expect(page.getByRole('heading', { name: 'Recategorization', level: 1 })).toBeVisible();
  await page.getByLabel('Business name contains').fill(token);
  await page.getByTestId('recat-to').click();
  await page.getByTestId('recat-to-search').fill('haulage');
  await page.getByRole('option', { name: /Logistics & Freight/ }).click();
  await page.getByRole('button', { name: 'Preview' }).click();
  const preview = page.getByTestId('recat-preview');
  await expect(preview).toContainText('3 records match');
  await expect(preview).toContainText(`${token} Haulage 1`);

  await page.getByRole('button', { name: 'Apply to 3 records' }).click();
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  await expectToast(page, { title: 'Recategorized', description: '3 records moved to Logistics & Freight.' });

  await page.getByRole('button', { name: 'Undo' }).first().click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Undo' }).click();
  await expectToast(page, { title: 'Undone', description: '3 records moved back.' });
});
