import { expect, test } from '@playwright/test';
import { newAccount, registerViaApi } from './support/accounts';

const step = (subject: string, bodyHtml: string, delayDays = 0) => ({
  delayDays,
  delayHours: 0,
  businessDays: false,
  condition: 'always',
  variants: [{ key: 'A', subject, bodyHtml, splitPercent: 100 }],
  winnerRule: null,
});

test('a test run sends the sequence to the user through the test mailbox and shows each step', async ({
  page,
}) => {
  const account = newAccount('testrun');
  await registerViaApi(page.request, account);
  const mailbox = await page.request.post('/api/sender-accounts/dev-mailbox');
  expect(mailbox.ok(), await mailbox.text()).toBe(true);
  const sender = (await mailbox.json()) as { id: string };
  const created = await page.request.post('/api/campaigns', {
    data: { name: 'Test run e2e', senderAccountIds: [sender.id] },
  });
  expect(created.status(), await created.text()).toBe(201);
  const campaignId = ((await created.json()) as { id: string }).id;
  for (const body of [
    step('Hello {{ firstName | default: "there" }}', '<p>First note</p>'),
    step('', '<p>Following up in the thread</p>', 3),
  ]) {
    const added = await page.request.post(`/api/campaigns/${campaignId}/steps`, { data: body });
    expect(added.status(), await added.text()).toBe(201);
  }

  await page.goto(`/campaigns/${campaignId}/steps`);
  await page.getByTestId('test-run-open').click();
  await expect(page.getByTestId('test-run-to')).toContainText(account.email.toLowerCase());
  await page.getByTestId('test-run-submit').click();

  const steps = page.getByTestId('test-run-step');
  await expect(steps).toHaveCount(2);
  // Written for the sample contact (the audience is empty); the follow-up answers in the same thread.
  await expect(steps.nth(0)).toContainText(/Step 1 · \[Test\] Hello \w+/);
  await expect(steps.nth(1)).toContainText(/Step 2 · Re: \[Test\] Hello \w+/);
  // The worker sends step 1 within seconds; step 2 waits its minute.
  await expect(steps.nth(0)).toHaveAttribute('data-state', 'sent', { timeout: 30_000 });
  await expect(steps.nth(1)).toHaveAttribute('data-state', 'queued');
  await expect(page.getByTestId('test-run-open')).toBeDisabled();
});
