import { expect, test } from '@playwright/test';

import { newAccount, registerViaApi } from './support/accounts';
import { expectToast } from './support/ui';

test('a visitor browses and previews the public template library without signing in', async ({ page }) => {
  await page.goto('/templates');
  await expect(page.getByRole('heading', { name: /email templates that get replies/i })).toBeVisible();
  const cards = page.getByTestId('template-card');
  await expect(cards.first()).toBeVisible();
  expect(await cards.count()).toBeGreaterThanOrEqual(100);

  await page.getByTestId('template-search').fill('jamhuri');
  await expect(page).toHaveURL(/q=jamhuri/);
  await expect(cards).toHaveCount(1);
  await cards.first().click();
  const dialog = page.getByTestId('template-detail-dialog');
  await expect(dialog.getByRole('heading', { name: 'Kenya Jamhuri Day (12 December)' })).toBeVisible();
  await expect(dialog.getByTestId('template-preview-subject')).toHaveText('Happy Jamhuri Day!');
  // Merge tags are shown with a sample contact inside the sandboxed preview.
  const frame = page.frameLocator('[data-testid="template-preview-frame"]');
  await expect(frame.locator('body')).toContainText('Hi Amaka,');
  await expect(frame.locator('body')).not.toContainText('{{');
  // Read-only: no saving or using, only an invitation to sign up.
  await expect(dialog.getByTestId('save-as-mine')).toHaveCount(0);
  await expect(dialog.getByTestId('use-in-campaign')).toHaveCount(0);
  await expect(dialog.getByTestId('signup-to-use')).toHaveAttribute('href', '/auth');
});

test('a subscriber searches, filters, previews and saves a library template as their own', async ({
  page,
}) => {
  const account = await registerViaApi(page.request, newAccount('templates'));
  await page.goto('/templates');
  await expect(page.getByRole('heading', { name: 'Templates', level: 1 })).toBeVisible();

  await page.getByTestId('template-category').click();
  await page.getByRole('option', { name: 'Follow-up' }).click();
  await expect(page).toHaveURL(/category=follow-up/);
  await page.getByTestId('template-search').fill('polite last');
  const cards = page.getByTestId('template-card');
  await expect(cards).toHaveCount(1);
  await cards.first().click();

  const dialog = page.getByTestId('template-detail-dialog');
  await expect(dialog.getByRole('heading', { name: 'Polite last email' })).toBeVisible();
  await expect(dialog.getByTestId('use-in-campaign')).toHaveAttribute(
    'href',
    /^\/campaigns\?template=[0-9a-f-]{36}$/,
  );
  await expect(dialog.getByTestId('use-in-bulk')).toHaveAttribute(
    'href',
    /^\/newsletter-editor\?kind=bulk&template=[0-9a-f-]{36}$/,
  );

  await dialog.getByTestId('save-as-mine').click();
  const form = page.getByTestId('template-form-dialog');
  await expect(form.getByTestId('template-form-name')).toHaveValue('Polite last email (my copy)');
  await form.getByTestId('template-form-name').fill(`Closing the loop ${account.email}`);
  await form
    .getByTestId('template-form-subject')
    .fill('Should I close your file, {{ firstName | default: "there" }}?');
  await form.getByTestId('template-form-save').click();
  await expectToast(page, { title: 'Template created', description: `Closing the loop ${account.email}` });

  // The copy is under "My templates" and opens with edit and delete.
  await expect(page).toHaveURL(/tab=mine/);
  const saved = page.getByTestId('template-detail-dialog');
  await expect(saved.getByRole('heading', { name: `Closing the loop ${account.email}` })).toBeVisible();
  await expect(saved.getByTestId('template-preview-subject')).toHaveText('Should I close your file, Amaka?');
  await expect(saved.getByTestId('edit-template')).toBeVisible();
  // Its close button, not Escape: while the "Template created" notice is up, Escape closes the notice.
  await saved.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(saved).toHaveCount(0);

  await page.getByTestId('template-search').fill('');
  await page.getByTestId('template-category').click();
  await page.getByRole('option', { name: 'All categories' }).click();
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText('Mine');
  await page.reload();
  await expect(cards).toHaveCount(1);

  // Another account does not see it.
  await page.request.post('/api/logout');
  await registerViaApi(page.request, newAccount('templates-other'));
  await page.goto('/templates?tab=mine');
  await expect(page.getByTestId('templates-empty')).toBeVisible();
});
