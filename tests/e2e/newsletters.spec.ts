import { randomUUID } from 'node:crypto';
import { expect, request as playwrightRequest, test } from '@playwright/test';
import { newAccount, registerViaApi, signInViaApi } from './support/accounts';
import { DEMO, E2E_BASE_URL, E2E_DEMO_PASSWORD } from './support/env';

/*
 * Issue #5: a subscriber writes a newsletter from blocks, previews it and sends it to a list; the
 * development mailbox catches one personalised copy per contact.
 */

test('a newsletter written from blocks is sent to a list and arrives personalised', async ({ page }) => {
  await registerViaApi(page.request, newAccount('newsletter'));
  const sender = await page.request.post('/api/sender-accounts/dev-mailbox');
  expect(sender.status(), await sender.text()).toBeLessThan(300);
  const listName = `Customers ${randomUUID().slice(0, 6)}`;
  const list = await page.request.post('/api/lists', { data: { name: listName } });
  expect(list.status()).toBe(201);
  const listId = ((await list.json()) as { id: string }).id;
  const emails = [
    `e2e-news-a-${randomUUID().slice(0, 8)}@example.com`,
    `e2e-news-b-${randomUUID().slice(0, 8)}@example.com`,
  ];
  for (const [i, email] of emails.entries()) {
    const added = await page.request.post(`/api/lists/${listId}/contacts`, {
      data: { email, firstName: i === 0 ? 'Chiamaka' : 'Tunde' },
    });
    expect(added.status(), await added.text()).toBe(201);
  }

  await page.goto('/newsletters');
  await page.getByTestId('new-newsletter').click();
  await expect(page).toHaveURL(/\/newsletter-editor$/);
  const subject = `Harvest news ${randomUUID().slice(0, 6)}`;
  await page.getByTestId('newsletter-name').fill('Harvest newsletter');
  await page.getByTestId('newsletter-subject').fill(`${subject} for {{ firstName | default: "you" }}`);

  // The starter layout's heading, then a text block of our own.
  await page.getByTestId('block-heading-text').first().fill('The harvest is in');
  await page.getByTestId('add-block').click();
  await page.getByTestId('add-block-text').click();
  await page
    .getByTestId('block-text-text')
    .last()
    .fill('Dear {{ firstName | default: "friend" }}, our **new season** prices are here.');

  // The preview follows the blocks.
  const preview = page.frameLocator('[data-testid="email-preview"]');
  await expect(preview.getByRole('heading', { name: 'The harvest is in' })).toBeVisible();
  await expect(preview.getByText('new season')).toBeVisible();
  await page.getByTestId('preview-mobile').click();

  await page.getByTestId('save-draft').click();
  await expect(page).toHaveURL(/\/newsletters\/editor\/[0-9a-f-]{36}$/);

  await page.getByTestId('open-send').click();
  await page.getByTestId(`send-list-${listName}`).click();
  await page.getByTestId('send-confirm').click();
  await expect(page.getByTestId('newsletter-status')).toHaveAttribute('data-status', /sending|sent/);

  // The worker delivers one copy per contact to the development mailbox.
  const admin = await playwrightRequest.newContext({ baseURL: E2E_BASE_URL });
  await signInViaApi(admin, DEMO.superAdmin, E2E_DEMO_PASSWORD);
  await expect
    .poll(
      async () => {
        const res = await admin.get('/api/admin/dev-mailbox');
        const mail = (await res.json()) as { to: string; subject: string }[];
        return mail
          .filter((m) => m.subject.startsWith(subject))
          .map((m) => `${emails.find((e) => m.to.includes(e)) ?? m.to} | ${m.subject}`)
          .sort();
      },
      { timeout: 45_000 },
    )
    .toEqual([`${emails[0]} | ${subject} for Chiamaka`, `${emails[1]} | ${subject} for Tunde`].sort());
  await admin.dispose();

  await page.goto('/newsletters');
  await expect(page.getByTestId('newsletter-row').filter({ hasText: 'Harvest newsletter' })).toBeVisible();

  // Analytics counts the two sends, with the newsletter in its table.
  await page.goto('/analytics');
  await expect(page.getByTestId('analytics-sent-value')).toHaveText('2');
  await expect(page.getByTestId('analytics-campaign-row').filter({ hasText: subject })).toBeVisible();
});
