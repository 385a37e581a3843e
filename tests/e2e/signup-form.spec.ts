import { expect, test } from '@playwright/test';

import { newAccount, registerViaApi, signInAsSuperAdmin } from './support/accounts';
import { uniqueToken } from './support/contacts';

test('double opt-in: a list owner sets up a subscribe form, a visitor signs up and confirms from the dev mailbox', async ({
  page,
  browser,
}) => {
  await registerViaApi(page.request, newAccount('signup-form'));
  const listName = `Readers ${uniqueToken()}`;
  const created = await page.request.post('/api/lists', { data: { name: listName } });
  expect(created.status(), await created.text()).toBe(201);
  const list = (await created.json()) as { id: string };

  await page.goto(`/lead-discovery/lists/${list.id}`);
  const card = page.getByTestId('signup-form-card');
  await card.getByTestId('signup-form-edit').click();
  await card.getByLabel('Title').fill('Kano Foods monthly');
  await card.getByTestId('signup-form-save').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Subscribe form created' })).toBeVisible();
  const hostedUrl = (await card.getByTestId('signup-form-url').getAttribute('href')) ?? '';
  expect(hostedUrl).toMatch(/\/subscribe\/[0-9a-f-]{36}$/);
  await expect(card.getByLabel('HTML to paste into your website')).toHaveValue(/<form action=/);

  // A visitor, signed in nowhere, on the hosted page.
  const visitorContext = await browser.newContext();
  const reader = `reader-${uniqueToken().toLowerCase()}@reader.test`;
  try {
    const visitor = await visitorContext.newPage();
    await visitor.goto(new URL(hostedUrl).pathname);
    await expect(visitor.getByRole('heading', { name: 'Kano Foods monthly' })).toBeVisible();
    await visitor.getByLabel('Email', { exact: true }).fill(reader);
    await visitor.getByLabel('First name (optional)').fill('Amaka');
    await visitor.getByRole('button', { name: 'Subscribe' }).click();
    await expect(visitor.getByText('Tick the box to agree before subscribing')).toBeVisible();
    await visitor.getByRole('checkbox').check();
    await visitor.getByRole('button', { name: 'Subscribe' }).click();
    await expect(visitor.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();

    // The confirmation mail, read in the development mailbox by the super admin.
    const adminContext = await browser.newContext();
    let confirmLink = '';
    try {
      const admin = await adminContext.newPage();
      await signInAsSuperAdmin(admin.request);
      await admin.goto('/admin/dev-mailbox');
      const message = admin.getByTestId('mail-list-item').filter({ hasText: `To: ${reader}` });
      await expect(async () => {
        await admin.getByTestId('mailbox-refresh').click();
        await expect(message).toHaveCount(1, { timeout: 1_000 });
      }).toPass({ timeout: 15_000 });
      await message.click();
      const link = admin
        .getByTestId('mail-viewer')
        .getByTestId('mail-links')
        .getByRole('link', { name: /\/subscribe\/confirm\// });
      confirmLink = (await link.getAttribute('href')) ?? '';
    } finally {
      await adminContext.close();
    }

    await visitor.goto(new URL(confirmLink).pathname);
    await expect(visitor.getByRole('heading', { name: 'Confirm your subscription' })).toBeVisible();
    await visitor.getByRole('button', { name: 'Yes, subscribe me' }).click();
    await expect(visitor.getByRole('heading', { name: 'You are subscribed' })).toBeVisible();
  } finally {
    await visitorContext.close();
  }

  await page.reload();
  await expect(page.getByText(reader)).toBeVisible();
  await expect(page.getByTestId('signup-form-card')).toContainText('1 confirmed');
});
