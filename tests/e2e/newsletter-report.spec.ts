import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { newAccount, registerViaApi } from './support/accounts';

/*
 * Issue #17: a newsletter is written on a phone-sized screen (social links block included, new blocks
 * above the footer), sent with its progress shown as it goes, and opens a report once sent: delivered,
 * the 48-hour chart, links, recipients and a CSV export.
 */

test.setTimeout(240_000);

test('a newsletter send shows its progress, then its report', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await registerViaApi(page.request, newAccount('nlreport'));
  const sender = await page.request.post('/api/sender-accounts/dev-mailbox');
  expect(sender.status(), await sender.text()).toBeLessThan(300);
  const listName = `Readers ${randomUUID().slice(0, 6)}`;
  const list = await page.request.post('/api/lists', { data: { name: listName } });
  const listId = ((await list.json()) as { id: string }).id;
  const emails = [
    `e2e-rep-a-${randomUUID().slice(0, 8)}@example.com`,
    `e2e-rep-b-${randomUUID().slice(0, 8)}@example.com`,
  ];
  for (const email of emails) {
    const added = await page.request.post(`/api/lists/${listId}/contacts`, {
      data: { email, firstName: 'Ada' },
    });
    expect(added.status(), await added.text()).toBe(201);
  }

  await page.goto('/newsletter-editor');
  await page.getByTestId('newsletter-name').fill('Report newsletter');
  await page.getByTestId('newsletter-subject').fill('Week notes for {{ firstName | default: "you" }}');

  // The starter layout ends with its footer; a new social links block goes above it.
  await expect(page.locator('[data-testid="block-editor"] > [data-testid^="block-"]').last()).toHaveAttribute(
    'data-testid',
    'block-footer',
  );
  await page.getByTestId('add-block').click();
  await page.getByTestId('add-block-social').click();
  const order = await page
    .locator('[data-testid="block-editor"] > [data-testid^="block-"]')
    .evaluateAll((cards) => cards.map((card) => card.getAttribute('data-testid')));
  expect(order.slice(-2)).toEqual(['block-social', 'block-footer']);

  // The editor fits the phone's width: nothing scrolls sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(await page.evaluate(() => document.querySelector('main')?.scrollWidth ?? 0)).toBeLessThanOrEqual(
    390,
  );

  // The new social link's empty https:// is an unfilled field, not an error.
  await page.getByTestId('save-draft').click();
  await expect(page).toHaveURL(/\/newsletters\/editor\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('editor-error')).toHaveCount(0);
  const id = /editor\/([0-9a-f-]{36})/.exec(page.url())![1]!;

  await page.getByTestId('open-send').click();
  await page.getByTestId(`send-list-${listName}`).click();
  await page.getByTestId('send-confirm').click();
  // Sending shows queued / sent / failed on the editor (or the report, when it has already finished).
  await expect(
    page.getByTestId('send-progress').or(page.getByTestId('newsletter-report')).first(),
  ).toBeVisible();

  await page.goto(`/newsletters/${id}/report`);
  await expect(page.getByTestId('newsletter-report')).toBeVisible();
  await expect(page.getByTestId('report-delivered-value')).toHaveText('2', { timeout: 90_000 });
  await expect(page.getByTestId('report-hours-chart')).toBeVisible();
  await expect(page.getByTestId('report-recipient')).toHaveCount(2);
  await expect(page.getByTestId('recipient-status').first()).toHaveAttribute(
    'data-status',
    /sent|opened|clicked/,
  );

  const csvHref = await page.getByTestId('report-export').getAttribute('href');
  const csv = await page.request.get(csvHref!);
  expect(csv.status()).toBe(200);
  const body = await csv.text();
  for (const email of emails) expect(body).toContain(email);

  // Once the send is over, the newsletter opens its report, not the locked editor; the list shows
  // the subject as readers see it.
  await expect
    .poll(
      async () => {
        const res = await page.request.get(`/api/newsletters/${id}/progress`);
        return ((await res.json()) as { status: string }).status;
      },
      { timeout: 150_000, intervals: [2_000] },
    )
    .toBe('sent');
  await page.goto(`/newsletters/editor/${id}`);
  await expect(page).toHaveURL(new RegExp(`/newsletters/${id}/report$`));
  await page.goto('/newsletters');
  await expect(page.getByTestId('newsletter-row').filter({ hasText: 'Week notes for you' })).toBeVisible();
});
