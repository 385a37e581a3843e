import { campaignContacts, campaigns, outboxMessages } from '@server/db/schema/index';
import { addOutboxMessage, createCampaignWithMessage } from '@tests/factories/sending';
import { createUser } from '@tests/factories/users';
import { createTestApp } from '@tests/setup/test-app';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * The outbox's keys (migration 0068_outbox_fewer_keys): a message belongs to its campaign and to that
 * campaign's owner, one key on (campaign_id, user_id) says both, and a user's deletion still takes their
 * messages with it (through their campaigns).
 */

let app: FastifyInstance;

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

describe('the outbox keys', () => {
  it("refuses a message whose user is not its campaign's owner", async () => {
    const owner = await createUser(app);
    const stranger = await createUser(app);
    const { campaign, contact } = await createCampaignWithMessage(app, { userId: owner.user.id });
    await expect(
      addOutboxMessage(app, {
        campaign: { ...campaign, userId: stranger.user.id },
        contactId: contact.id,
        email: contact.email,
      }),
    ).rejects.toThrow();
    const rows = await app.services.db
      .select({ id: outboxMessages.id })
      .from(outboxMessages)
      .where(eq(outboxMessages.userId, stranger.user.id));
    expect(rows).toHaveLength(0);
  });

  it('refuses a message of a campaign that does not exist', async () => {
    const owner = await createUser(app);
    const { campaign, contact } = await createCampaignWithMessage(app, { userId: owner.user.id });
    await expect(
      addOutboxMessage(app, {
        campaign: { ...campaign, id: '00000000-0000-4000-8000-000000000001' },
        contactId: contact.id,
        email: contact.email,
      }),
    ).rejects.toThrow();
  });

  it("deletes a user's messages with the user, and a campaign's with the campaign", async () => {
    const owner = await createUser(app);
    const { campaign, contact, message } = await createCampaignWithMessage(app, { userId: owner.user.id });
    const queued = await addOutboxMessage(app, { campaign, contactId: contact.id, email: contact.email });
    const other = await createCampaignWithMessage(app, { userId: owner.user.id });
    const bystander = await createUser(app);
    const kept = await createCampaignWithMessage(app, { userId: bystander.user.id });

    await app.services.db.delete(campaigns).where(eq(campaigns.id, other.campaign.id));
    const count = async (id: string) =>
      Number(
        (
          (await app.services.db.execute(
            sql`SELECT count(*)::int AS n FROM outbox_messages WHERE id = ${id}::uuid`,
          )) as unknown as { rows: { n: number }[] }
        ).rows[0]!.n,
      );
    expect(await count(other.message.id)).toBe(0);
    expect(await count(message.id)).toBe(1);

    await app.services.db.execute(sql`DELETE FROM "user" WHERE id = ${owner.user.id}`);
    expect(await count(message.id)).toBe(0);
    const contacts = await app.services.db
      .select({ id: campaignContacts.id })
      .from(campaignContacts)
      .where(eq(campaignContacts.userId, owner.user.id));
    expect(contacts).toHaveLength(0);
    expect(await count(queued.id)).toBe(0);
    expect(await count(kept.message.id)).toBe(1);
  });
});
