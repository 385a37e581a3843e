import { randomUUID } from 'node:crypto';
import { type APIRequestContext, expect, test } from '@playwright/test';
import { newAccount, registerViaApi, signInAsSuperAdmin } from './support/accounts';

/*
 * The unified inbox on a phone-sized screen: a contact answers a campaign message (the development
 * mailbox's "simulate reply"), the account menu shows it unread, the user opens it in /inbox, reads the
 * conversation and replies from the app; the reply leaves through the sender account, threaded, and the
 * contact's next answer lands in the same conversation.
 */

interface CaughtMail {
  id: string;
  to: string;
  subject: string;
}

async function waitForMail(
  admin: APIRequestContext,
  match: (mail: CaughtMail) => boolean,
): Promise<CaughtMail> {
  let found: CaughtMail | undefined;
  await expect
    .poll(
      async () => {
        const mail = (await (await admin.get('/api/admin/dev-mailbox')).json()) as CaughtMail[];
        found = mail.find(match);
        return Boolean(found);
      },
      { timeout: 60_000 },
    )
    .toBe(true);
  return found!;
}

test('a reply arrives in the inbox, and the user answers it from the app', async ({ page, browser }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await registerViaApi(page.request, newAccount('inbox'));
  const sender = await page.request.post('/api/sender-accounts/dev-mailbox');
  expect(sender.status(), await sender.text()).toBeLessThan(300);
  const senderId = ((await sender.json()) as { id: string }).id;
  const signature = await page.request.put(`/api/inbox/signatures/${senderId}`, {
    data: { signature: 'Ada from Kano Foods' },
  });
  expect(signature.status(), await signature.text()).toBe(200);
  const list = await page.request.post('/api/lists', { data: { name: `Inbox ${randomUUID().slice(0, 6)}` } });
  const listId = ((await list.json()) as { id: string }).id;
  const email = `e2e-inbox-${randomUUID().slice(0, 8)}@example.com`;
  const contact = await page.request.post(`/api/lists/${listId}/contacts`, {
    data: { email, firstName: 'Tunde', company: 'Ibadan Foods' },
  });
  expect(contact.status(), await contact.text()).toBe(201);
  const created = await page.request.post('/api/campaigns', {
    data: {
      name: 'Inbox e2e',
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
  const step = await page.request.post(`/api/campaigns/${campaignId}/steps`, {
    data: {
      delayDays: 0,
      delayHours: 0,
      businessDays: false,
      condition: 'always',
      variants: [
        {
          key: 'A',
          subject: 'Deliveries to Ibadan',
          bodyHtml: '<p>Hi {{ firstName }}</p>',
          splitPercent: 100,
        },
      ],
      winnerRule: null,
    },
  });
  expect(step.status(), await step.text()).toBe(201);
  const launched = await page.request.post(`/api/campaigns/${campaignId}/launch`);
  expect(launched.status(), await launched.text()).toBe(200);

  const admin = await browser.newContext();
  try {
    await signInAsSuperAdmin(admin.request);
    const sent = await waitForMail(admin.request, (m) => m.to.includes(email));
    const simulated = await admin.request.post(`/api/admin/dev-mailbox/messages/${sent.id}/simulate`, {
      data: { kind: 'reply' },
    });
    expect(simulated.status(), await simulated.text()).toBe(200);

    // The account menu counts it; its Inbox item opens the inbox.
    await page.goto('/dashboard');
    await expect(page.getByTestId('account-menu-unread')).toContainText('1');
    await page.getByTestId('account-menu').click();
    await page.getByTestId('account-menu-inbox').click();
    await expect(page).toHaveURL(/\/inbox$/);

    const item = page.getByTestId('inbox-item').first();
    await expect(item).toHaveAttribute('data-unread', 'true');
    await expect(item).toContainText('Meeting request');
    await item.click();

    const thread = page.getByTestId('inbox-thread');
    await expect(thread.getByTestId('inbox-thread-subject')).toContainText('Deliveries to Ibadan');
    await expect(thread.getByTestId('inbox-entry')).toHaveCount(2);
    await expect(thread.getByTestId('inbox-entry').nth(1)).toContainText('can we talk Tuesday?');
    await expect(page.getByTestId('account-menu-unread')).toHaveCount(0);

    await page.getByTestId('inbox-reply-text').fill('Tuesday at 10 works for me.');
    await page.getByTestId('inbox-reply-send').click();
    const replied = thread.locator('[data-testid="inbox-entry"][data-type="replied"]');
    await expect(replied).toHaveCount(1);
    await expect(replied).toContainText('Tuesday at 10 works for me.');
    await expect(replied).toContainText('Ada from Kano Foods');
    // Nothing sideways on a phone.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    // The reply left through the account, to the contact; their answer to it joins the conversation.
    const reply = await waitForMail(admin.request, (m) => m.to.includes(email) && /^Re: /.test(m.subject));
    const answered = await admin.request.post(`/api/admin/dev-mailbox/messages/${reply.id}/simulate`, {
      data: { kind: 'reply' },
    });
    expect(answered.status(), await answered.text()).toBe(200);
    expect(((await answered.json()) as { matched: boolean }).matched).toBe(true);
  } finally {
    await admin.close();
  }

  await page.reload();
  await expect(page.getByTestId('inbox-thread').getByTestId('inbox-entry')).toHaveCount(4);
  await expect(
    page.getByTestId('inbox-thread').locator('[data-testid="inbox-entry"]').last(),
  ).toHaveAttribute('data-type', 'received');
});
