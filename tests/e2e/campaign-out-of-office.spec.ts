import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { newAccount, registerViaApi, signInAsSuperAdmin } from './support/accounts';

/*
 * An out-of-office answer pauses a contact; the campaign page says until when, in the campaign's zone
 * with its city: on the contacts table, the contact's timeline and the replies list.
 */
test('a contact paused by an out-of-office answer shows when they resume', async ({ page, browser }) => {
  await registerViaApi(page.request, newAccount('ooo'));
  const sender = await page.request.post('/api/sender-accounts/dev-mailbox');
  expect(sender.status(), await sender.text()).toBeLessThan(300);
  const senderId = ((await sender.json()) as { id: string }).id;
  const list = await page.request.post('/api/lists', { data: { name: `OOO ${randomUUID().slice(0, 6)}` } });
  const listId = ((await list.json()) as { id: string }).id;
  const email = `e2e-ooo-${randomUUID().slice(0, 8)}@example.com`;
  const contact = await page.request.post(`/api/lists/${listId}/contacts`, {
    data: { email, firstName: 'Chidi', company: 'Onitsha Traders' },
  });
  expect(contact.status(), await contact.text()).toBe(201);
  const created = await page.request.post('/api/campaigns', {
    data: {
      name: 'Out of office e2e',
      audience: { listIds: [listId] },
      senderAccountIds: [senderId],
      windowStartMinute: 0,
      windowEndMinute: 1440,
      sendDays: [1, 2, 3, 4, 5, 6, 7],
      timezoneMode: 'fixed',
      timeZone: 'Africa/Lagos',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const campaignId = ((await created.json()) as { id: string }).id;
  // Two steps: after the first the contact is still in the sequence, so the answer pauses them.
  for (const [delayDays, subject] of [
    [0, 'Hello {{ firstName }}'],
    [3, 'Following up'],
  ] as const) {
    const step = await page.request.post(`/api/campaigns/${campaignId}/steps`, {
      data: {
        delayDays,
        delayHours: 0,
        businessDays: false,
        condition: 'always',
        variants: [{ key: 'A', subject, bodyHtml: '<p>Hi</p>', splitPercent: 100 }],
        winnerRule: null,
      },
    });
    expect(step.status(), await step.text()).toBe(201);
  }
  const launched = await page.request.post(`/api/campaigns/${campaignId}/launch`);
  expect(launched.status(), await launched.text()).toBe(200);

  // The super admin makes the caught message "receive" an out-of-office answer.
  const admin = await browser.newContext();
  try {
    await signInAsSuperAdmin(admin.request);
    let caught: { id: string } | undefined;
    await expect
      .poll(
        async () => {
          const mail = (await (await admin.request.get('/api/admin/dev-mailbox')).json()) as {
            id: string;
            to: string;
          }[];
          caught = mail.find((m) => m.to.includes(email));
          return Boolean(caught);
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    const simulated = await admin.request.post(`/api/admin/dev-mailbox/messages/${caught!.id}/simulate`, {
      data: { kind: 'out_of_office' },
    });
    expect(simulated.status(), await simulated.text()).toBe(200);
    expect(((await simulated.json()) as { detail: string }).detail).toMatch(
      /paused until \w{3} \d+ \w{3}, 08:00 \(Lagos\)/,
    );
  } finally {
    await admin.close();
  }

  const pausedUntil = /paused until \w{3} \d{1,2} \w{3}, 08:00 \(Lagos\)/;
  await page.goto(`/campaigns/${campaignId}`);
  await page.getByTestId('campaign-tab-contacts').click();
  await expect(page.getByTestId('contact-paused-until')).toHaveText(pausedUntil);
  await page.getByTestId('campaign-contact-row').first().click();
  await expect(page.getByTestId('timeline-paused-until')).toHaveText(pausedUntil);
  await page.keyboard.press('Escape');
  await page.getByTestId('campaign-tab-replies').click();
  await expect(page.getByTestId('reply-paused-until')).toContainText(pausedUntil);
});
