import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Page, test } from '@playwright/test';
import { newAccount, registerViaApi } from './support/accounts';

const EXPORTS = fileURLToPath(new URL('../fixtures/imports/exports/', import.meta.url));

async function newListImport(page: Page, name: string): Promise<void> {
  const created = await page.request.post('/api/lists', { data: { name } });
  expect(created.status(), await created.text()).toBe(201);
  const list = (await created.json()) as { id: string };
  await page.goto(`/lead-discovery/import?listId=${list.id}`);
  await expect(page.getByTestId('import-upload-step')).toBeVisible();
}

test("LinkedIn's header is found below its notes, and the header line can be chosen", async ({ page }) => {
  test.setTimeout(120_000);
  await registerViaApi(page.request, newAccount('linkedin'));
  await newListImport(page, 'LinkedIn connections');
  await page.getByTestId('import-file-input').setInputFiles(path.join(EXPORTS, 'linkedin-connections.csv'));
  await page.getByTestId('upload-submit').click();

  const mapping = page.getByTestId('import-mapping-step');
  await expect(mapping).toBeVisible();
  const headerLine = mapping.getByTestId('import-header-line');
  await expect(headerLine).toContainText('Line 4: First Name, Last Name');
  const row = (header: string) =>
    mapping.locator(`[data-testid="mapping-row"][data-column="${header}"]`).getByTestId('mapping-select');
  await expect(row('First Name')).toHaveText('First name');
  await expect(row('Company')).toHaveText('Company');
  await expect(row('Position')).toHaveText('Job title');

  // Choosing the note line makes it the header; choosing line 4 again brings the names back.
  await headerLine.click();
  await page.getByRole('option', { name: /^Line 1: Notes:/ }).click();
  await expect(mapping.locator('[data-testid="mapping-row"][data-column="Notes:"]')).toBeVisible();
  await mapping.getByTestId('import-header-line').click();
  await page.getByRole('option', { name: /^Line 4: First Name/ }).click();
  await expect(row('First Name')).toHaveText('First name');

  await mapping.getByTestId('start-import').click();
  const report = page.getByTestId('import-report-step');
  await expect(report).toHaveAttribute('data-status', 'completed', { timeout: 60_000 });
  await expect(report.getByTestId('import-count-imported')).toHaveText('4');
});

test("a file past the plan's limit is flagged, with the choice to import the first N; empty rows are told", async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  await registerViaApi(page.request, newAccount('overlimit'));
  await newListImport(page, 'Big file');
  const csvPath = testInfo.outputPath('big.csv');
  const rows = Array.from({ length: 510 }, (_, i) => `person${i + 1}@example.com,Person ${i + 1}`);
  rows.splice(3, 0, ',');
  await writeFile(csvPath, `Email,Name\n${rows.join('\n')}\n`);
  await page.getByTestId('import-file-input').setInputFiles(csvPath);
  await page.getByTestId('upload-submit').click();

  const mapping = page.getByTestId('import-mapping-step');
  await expect(mapping).toBeVisible();
  await expect(mapping.getByTestId('import-empty-rows')).toHaveText('1 empty row (skipped)');
  const flag = mapping.getByTestId('import-over-limit');
  await expect(flag).toContainText('This file holds about 510 contacts; your plan lets you add 500 more.');
  await expect(flag).toContainText('Import the first 500');
  await expect(flag.getByTestId('import-first-n')).toBeChecked();
  await mapping.getByTestId('start-import').click();

  const report = page.getByTestId('import-report-step');
  await expect(report).toHaveAttribute('data-status', 'completed', { timeout: 60_000 });
  await expect(report.getByTestId('import-count-imported')).toHaveText('500');
  await expect(report.getByTestId('import-empty-rows')).toHaveText('1 empty row was skipped.');
});
