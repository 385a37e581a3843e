import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { newAccount, registerViaApi } from './support/accounts';
import { expectToast } from './support/ui';

/*
 * Issue #17, segments: a list narrowed by rules with a live count, picked beside the list when sending a
 * newsletter; the count the builder shows is the audience the send dialog announces and the send reaches.
 */

test('a segment built on a list counts live, and a newsletter sent to it reaches that many', async ({
  page,
}) => {
  await registerViaApi(page.request, newAccount('segments'));
  const sender = await page.request.post('/api/sender-accounts/dev-mailbox');
  expect(sender.status(), await sender.text()).toBeLessThan(300);
  const run = randomUUID().slice(0, 6);
  const listName = `Customers ${run}`;
  const list = await page.request.post('/api/lists', { data: { name: listName, customFields: ['stage'] } });
  expect(list.status()).toBe(201);
  const listId = ((await list.json()) as { id: string }).id;
  const contacts = [
    { email: `e2e-seg-ada-${run}@example.com`, city: 'Lagos', customFields: { stage: 'won' } },
    { email: `e2e-seg-bayo-${run}@example.com`, city: 'Lagos', customFields: { stage: 'lead' } },
    { email: `e2e-seg-chidi-${run}@example.com`, city: 'Lagos', customFields: { stage: 'won' } },
    { email: `e2e-seg-dayo-${run}@example.com`, city: 'Abuja', customFields: { stage: 'won' } },
  ];
  for (const contact of contacts) {
    const added = await page.request.post(`/api/lists/${listId}/contacts`, { data: contact });
    expect(added.status(), await added.text()).toBe(201);
  }
  // Chidi unsubscribed: never counted, never sent to.
  const suppressed = await page.request.post('/api/suppressions', { data: { emails: [contacts[2]!.email] } });
  expect(suppressed.status(), await suppressed.text()).toBe(200);

  await page.goto(`/lead-discovery/lists/${listId}`);
  await page.getByTestId('segment-new').click();
  const builder = page.getByTestId('segment-builder');
  await builder.getByLabel('Segment name', { exact: true }).fill('Lagos customers');
  // The first row starts as "City is …".
  await builder.getByLabel('Rule 1 value', { exact: true }).fill('lagos');
  await expect(builder.getByTestId('segment-live-count')).toHaveText('2 contacts match');
  // A second rule on a custom field narrows it further, live.
  await builder.getByRole('button', { name: 'Add rule' }).click();
  await builder.getByLabel('Rule 2 field', { exact: true }).click();
  await page.getByRole('option', { name: 'stage', exact: true }).click();
  await builder.getByLabel('Rule 2 value', { exact: true }).fill('won');
  await expect(builder.getByTestId('segment-live-count')).toHaveText('1 contact matches');
  await builder.getByRole('button', { name: 'Remove rule 2' }).click();
  await expect(builder.getByTestId('segment-live-count')).toHaveText('2 contacts match');
  await page.getByTestId('segment-save').click();
  await expectToast(page, { title: 'Segment created', description: 'Lagos customers: 2 contacts.' });
  await expect(page.getByTestId('segment-item')).toHaveCount(1);
  await expect(page.getByTestId('segment-item-count')).toHaveText('2 contacts');

  const created = await page.request.post('/api/newsletters', {
    data: {
      kind: 'bulk',
      name: `Lagos promo ${run}`,
      subject: 'New prices in Lagos',
      html: '<p>Our new prices</p>',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const newsletterId = ((await created.json()) as { id: string }).id;
  await page.goto(`/newsletters/editor/${newsletterId}`);
  await page.getByTestId('open-send').click();
  await page.getByTestId(`send-list-${listName}`).click();
  await expect(page.getByTestId('send-recipients')).toHaveText(
    'Up to 4 recipients (duplicates are sent once).',
  );
  await page.getByLabel(`Segment of ${listName}`, { exact: true }).click();
  await page.getByRole('option', { name: 'Lagos customers', exact: true }).click();
  await expect(page.getByTestId('segment-picker-count')).toHaveText('2 contacts in this segment');
  await expect(page.getByTestId('send-recipients')).toHaveText('2 recipients.');
  await page.getByTestId('send-confirm').click();
  await expect(page.getByTestId('newsletter-status')).toHaveAttribute('data-status', /sending|sent/);

  const sent = await page.request.get(`/api/newsletters/${newsletterId}`);
  const body = (await sent.json()) as { recipientCount: number; segmentIds: string[] };
  expect(body.recipientCount).toBe(2);
  expect(body.segmentIds).toHaveLength(1);
});
