import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { newAccount, registerViaApi } from './support/accounts';

/*
 * Issue #18: placeholders never reach a recipient. A test send goes anyway but lists the merge tag that
 * would be sent empty and the placeholder; the real send is refused with a message naming the block.
 */

test('a newsletter with a typo tag and a placeholder: the test warns, the send is refused', async ({
  page,
}) => {
  await registerViaApi(page.request, newAccount('placeholders'));
  const sender = await page.request.post('/api/sender-accounts/dev-mailbox');
  expect(sender.status(), await sender.text()).toBeLessThan(300);
  const listName = `Customers ${randomUUID().slice(0, 6)}`;
  const list = await page.request.post('/api/lists', { data: { name: listName } });
  const listId = ((await list.json()) as { id: string }).id;
  const added = await page.request.post(`/api/lists/${listId}/contacts`, {
    data: { email: `e2e-ph-${randomUUID().slice(0, 8)}@client.test`, firstName: 'Amina' },
  });
  expect(added.status(), await added.text()).toBe(201);
  const created = await page.request.post('/api/newsletters', {
    data: {
      kind: 'newsletter',
      name: 'Open day',
      subject: 'Our open day',
      blocks: [{ id: 't', type: 'text', text: 'Hello {{ frstName }}, join us on [Date].' }],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const id = ((await created.json()) as { id: string }).id;

  await page.goto(`/newsletters/editor/${id}`);
  await page.getByTestId('test-send').click();
  await page.getByTestId('newsletter-test-send-submit').click();
  const warnings = page.getByTestId('test-send-warnings');
  await expect(warnings).toContainText('The test was sent, but fix this before sending');
  await expect(warnings).toContainText(
    'Block 1 (Text): {{ frstName }} is not a merge tag (did you mean {{ firstName }}?): it would be sent empty',
  );
  await expect(warnings).toContainText('Block 1 (Text): [Date] is a placeholder');
  // The dialog stays open on its warnings until it is closed.
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  await expect(warnings).toHaveCount(0);

  await page.getByTestId('open-send').click();
  await page.getByTestId(`send-list-${listName}`).click();
  await page.getByTestId('send-confirm').click();
  await expect(page.getByTestId('send-error')).toContainText(
    'Replace the placeholders before sending: Block 1 (Text): [Date] is a placeholder',
  );
  await expect(page.getByTestId('newsletter-status')).toHaveAttribute('data-status', 'draft');
});
