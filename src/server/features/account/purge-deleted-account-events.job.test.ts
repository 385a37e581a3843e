import { deletedAccounts, emailEvents, users } from '@server/db/schema/index';
import { TRACKING_PATHS } from '@shared/sending';
import { createCampaignWithMessage } from '@tests/factories/sending';
import { createUser } from '@tests/factories/users';
import { createTestApp } from '@tests/setup/test-app';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELETED_ACCOUNT_MEMORY_MS, purgeDeletedAccountEvents } from './purge-deleted-account-events.job';

/* email_events has no foreign key to the user (schema/sending.ts): these are what stands in for its cascade. */
describe('a deleted account takes its events with it', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  const eventsOf = (userId: string) =>
    app.services.db.select({ id: emailEvents.id }).from(emailEvents).where(eq(emailEvents.userId, userId));

  it('deletes them with the account, then any written for it later, and forgets the account after two days', async () => {
    const leaving = (await createUser(app)).user;
    const staying = (await createUser(app)).user;
    const theirs = await createCampaignWithMessage(app, { userId: leaving.id });
    const kept = await createCampaignWithMessage(app, { userId: staying.id });
    for (const { token } of [theirs, kept]) {
      await app.inject({ method: 'GET', url: TRACKING_PATHS.open(token) });
    }
    await app.services.trackingBuffer.flush();
    expect(await eventsOf(leaving.id)).toHaveLength(1);

    await app.services.db.delete(users).where(eq(users.id, leaving.id));
    expect(await eventsOf(leaving.id)).toEqual([]);
    expect(await eventsOf(staying.id)).toHaveLength(1);
    const [remembered] = await app.services.db
      .select()
      .from(deletedAccounts)
      .where(eq(deletedAccounts.userId, leaving.id));
    expect(remembered).toBeDefined();

    // A click that was already buffered when the account went, written afterwards.
    const { message } = theirs;
    await app.services.db.insert(emailEvents).values({
      userId: leaving.id,
      campaignId: message.campaignId,
      campaignContactId: message.campaignContactId,
      outboxMessageId: message.id,
      type: 'clicked',
    });
    expect(await purgeDeletedAccountEvents({ db: app.services.db })).toEqual({ events: 1 });
    expect(await eventsOf(leaving.id)).toEqual([]);
    expect(await eventsOf(staying.id)).toHaveLength(1);

    // Remembered for two days, then forgotten; running again changes nothing else.
    expect(await purgeDeletedAccountEvents({ db: app.services.db })).toEqual({ events: 0 });
    expect(
      await app.services.db.select().from(deletedAccounts).where(eq(deletedAccounts.userId, leaving.id)),
    ).toHaveLength(1);
    await app.services.db
      .update(deletedAccounts)
      .set({ deletedAt: new Date(Date.now() - DELETED_ACCOUNT_MEMORY_MS - 60_000) })
      .where(eq(deletedAccounts.userId, leaving.id));
    await purgeDeletedAccountEvents({ db: app.services.db });
    expect(
      await app.services.db.select().from(deletedAccounts).where(eq(deletedAccounts.userId, leaving.id)),
    ).toEqual([]);
    expect(await eventsOf(staying.id)).toHaveLength(1);
  });
});
