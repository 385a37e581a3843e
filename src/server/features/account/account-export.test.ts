import { outboxMessages } from '@server/db/schema';
import {
  addStepViaApi,
  createCampaignViaApi,
  createListWithContacts,
  testEmails,
} from '@tests/factories/campaigns';
import { createSendingCampaign, createSinkAccount, queueForContacts } from '@tests/factories/dispatch';
import { createUser } from '@tests/factories/users';
import { as, createTestApp } from '@tests/setup/test-app';
import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SENDER_PLACEHOLDERS } from '../sending/sending.service';
import { addSuppression } from '../suppression/suppression.service';
import { EXPORT_FORMAT } from './account-export';

let app: FastifyInstance;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

describe('GET /api/user/export', () => {
  it('streams everything the account holds as JSON lines, without secrets and nothing of anyone else', async () => {
    const owner = await createUser(app);
    const other = await createUser(app);
    // More contacts than one page of the keyset walk (1,000).
    const emails = testEmails(1_050);
    await createListWithContacts(
      app,
      owner.user.id,
      emails.map((email) => ({ email })),
    );
    // A second list: the walk goes list by list, (list_id, id).
    const more = testEmails(5).map((email) => `more-${email}`);
    await createListWithContacts(
      app,
      owner.user.id,
      more.map((email) => ({ email })),
    );
    const othersContact = `someone-else-${Date.now()}@example.com`;
    await createListWithContacts(app, other.user.id, [{ email: othersContact }]);
    const account = await createSinkAccount(app, owner.user.id);
    const campaign = await createCampaignViaApi(app, owner.cookie, { senderAccountIds: [account.id] });
    await addStepViaApi(app, owner.cookie, campaign.id);
    await addSuppression({
      db: app.services.db,
      userId: owner.user.id,
      email: 'gone@example.com',
      reason: 'unsubscribed',
    });

    const response = await as(app, owner.cookie)({ method: 'GET', url: '/api/user/export' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('application/jsonl');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="tambari-export-\d{4}-\d{2}-\d{2}\.jsonl"$/,
    );
    const lines = response.body
      .trimEnd()
      .split('\n')
      .map((text) => JSON.parse(text) as { type: string; row?: Record<string, unknown> });
    expect(lines[0]).toMatchObject({ type: 'export', format: EXPORT_FORMAT });
    expect(lines[1]).toMatchObject({ type: 'user', row: { id: owner.user.id, email: owner.email } });
    const of = (type: string) => lines.filter((l) => l.type === type).map((l) => l.row!);

    expect(new Set(of('list_contacts').map((row) => row.email))).toEqual(new Set([...emails, ...more]));
    expect(of('list_contacts')).toHaveLength(1_055);
    const [sender] = of('sender_accounts');
    expect(sender).toMatchObject({ id: account.id, from_email: account.fromEmail });
    expect(sender).not.toHaveProperty('smtp_password_enc');
    expect(of('campaigns').map((row) => row.id)).toEqual([campaign.id]);
    expect(of('campaign_step_variants')[0]).toMatchObject({ campaign_id: campaign.id, key: 'A' });
    const [suppression] = of('suppressions');
    expect(suppression).toMatchObject({
      reason: 'unsubscribed',
      email_hint: expect.stringContaining('@example.com'),
    });
    expect(suppression).not.toHaveProperty('email_hash');

    expect(response.body).not.toContain(othersContact);
    expect(response.body).not.toContain(other.user.id);
    expect(response.body).not.toContain(account.smtpPasswordEnc);
  });

  it('names the sender in message subjects as sent, and as the merge tag while a message waits', async () => {
    const owner = await createUser(app);
    const account = await createSinkAccount(app, owner.user.id, { fromName: 'Sade Sender' });
    const campaign = await createSendingCampaign(app, owner.user.id, [account]);
    const { messageIds } = await queueForContacts(app, campaign, 2);
    await app.services.db
      .update(outboxMessages)
      .set({ subject: `A note from ${SENDER_PLACEHOLDERS.fromName}` })
      .where(inArray(outboxMessages.id, messageIds));
    await app.services.db
      .update(outboxMessages)
      .set({ state: 'sent', senderAccountId: account.id, sentAt: new Date() })
      .where(eq(outboxMessages.id, messageIds[0]!));

    const response = await as(app, owner.cookie)({ method: 'GET', url: '/api/user/export' });
    const subjects = response.body
      .trimEnd()
      .split('\n')
      .map((text) => JSON.parse(text) as { type: string; row?: Record<string, unknown> })
      .filter((l) => l.type === 'outbox_messages')
      .map((l) => [l.row!.id, l.row!.subject]);
    expect(new Map(subjects as [string, string][])).toEqual(
      new Map([
        [messageIds[0], 'A note from Sade Sender'],
        [messageIds[1], 'A note from {{ senderName }}'],
      ]),
    );
  });

  it('answers 401 when signed out', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/user/export' })).statusCode).toBe(401);
  });
});
