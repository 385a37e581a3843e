import { campaignContacts, campaigns, outboxMessages, senderAccounts } from '@server/db/schema/index';
import { createCampaignWithMessage } from '@tests/factories/sending';
import { createUser } from '@tests/factories/users';
import { createTestApp } from '@tests/setup/test-app';
import { eq, inArray, sql } from 'drizzle-orm';
import { bigint, pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainRowReader } from './plain-rows';

let app: FastifyInstance;

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

describe('plainRowReader', () => {
  it('reads an outbox row exactly as drizzle selects it: dates, day strings, JSON, nulls', async () => {
    const db = app.services.db;
    const { user } = await createUser(app);
    const { message } = await createCampaignWithMessage(app, {
      userId: user.id,
      links: ['https://kanofoods.test/a', 'https://kanofoods.test/b'],
      sentAt: new Date('2026-11-28T09:30:15.123Z'),
    });
    await db
      .update(outboxMessages)
      .set({
        slotDay: '2026-11-28',
        campaignSlotDay: '2026-11-27',
        paceHour: new Date('2026-11-28T09:00:00Z'),
        leaseUntil: new Date('2026-11-28T09:35:00.5Z'),
        threadReferences: ['<a@x.test>', '<b@x.test>'],
        attempts: 2,
      })
      .where(eq(outboxMessages.id, message.id));
    const reader = plainRowReader(outboxMessages);
    const [expected] = await db.select().from(outboxMessages).where(eq(outboxMessages.id, message.id));
    const plain = reader.read(
      await db.execute(sql`SELECT ${reader.selection} FROM outbox_messages WHERE id = ${message.id}`),
    );
    expect(plain).toEqual([expected]);
    expect(plain[0]!.sentAt).toBeInstanceOf(Date);
    expect(plain[0]!.slotDay).toBe('2026-11-28');
    expect(plain[0]!.links).toEqual(['https://kanofoods.test/a', 'https://kanofoods.test/b']);
  });

  it('reads campaigns, accounts and contacts as drizzle does: reals, int arrays, bigints, days, JSON, nulls', async () => {
    const db = app.services.db;
    const { user } = await createUser(app);
    const both = await createCampaignWithMessage(app, { userId: user.id });
    const bare = await createCampaignWithMessage(app, { userId: user.id });
    await db
      .update(campaigns)
      .set({
        sendDays: [1, 3, 7],
        bouncePausePercent: 2.75,
        dailyCap: 40,
        startedAt: new Date('2026-11-28T08:00:00.25Z'),
      })
      .where(eq(campaigns.id, both.campaign.id));
    await db
      .update(senderAccounts)
      .set({
        imapUidValidity: 2 ** 40 + 3,
        imapLastUid: 0,
        sendsDay: '2026-11-28',
        warmupStartedOn: '2026-11-01',
        cooldownUntil: new Date('2026-11-28T10:00:00.999Z'),
        domainCheck: { checkedAt: 'x', spf: null } as never,
      })
      .where(eq(senderAccounts.id, both.account.id));
    // A JSON string in a jsonb column: drizzle parses the driver's string again ('"17"' answers 17).
    await db.execute(
      sql`UPDATE sender_accounts SET domain_check = '"17"'::jsonb WHERE id = ${bare.account.id}`,
    );
    await db
      .update(campaignContacts)
      .set({
        timeZone: 'Africa/Lagos',
        pausedUntil: new Date('2026-12-01T00:00:00Z'),
        fields: { plan: 'gold' },
      })
      .where(eq(campaignContacts.id, both.contact.id));

    const campaignIds = [both.campaign.id, bare.campaign.id];
    const accountIds = [both.account.id, bare.account.id];
    const contactIds = [both.contact.id, bare.contact.id];
    const cases = [
      [campaigns, plainRowReader(campaigns), campaignIds, sql`campaigns`],
      [senderAccounts, plainRowReader(senderAccounts), accountIds, sql`sender_accounts`],
      [campaignContacts, plainRowReader(campaignContacts), contactIds, sql`campaign_contacts`],
    ] as const;
    for (const [table, reader, ids, name] of cases) {
      const expected = await db.select().from(table).where(inArray(table.id, ids)).orderBy(table.id);
      const plain = reader.read(
        await db.execute(
          sql`SELECT ${reader.selection} FROM ${name} WHERE id = ANY(${sql.param(ids)}::uuid[]) ORDER BY id`,
        ),
      );
      expect(plain).toEqual(expected);
      expect(plain).toHaveLength(2);
    }

    const picked = plainRowReader(campaignContacts, ['id', 'status', 'pausedUntil', 'timeZone']);
    const expected = await db
      .select({
        id: campaignContacts.id,
        status: campaignContacts.status,
        pausedUntil: campaignContacts.pausedUntil,
        timeZone: campaignContacts.timeZone,
      })
      .from(campaignContacts)
      .where(inArray(campaignContacts.id, contactIds))
      .orderBy(campaignContacts.id);
    const plain = picked.read(
      await db.execute(
        sql`SELECT ${picked.selection} FROM campaign_contacts WHERE id = ANY(${sql.param(contactIds)}::uuid[]) ORDER BY id`,
      ),
    );
    expect(plain).toEqual(expected);
    expect(Object.keys(plain[0]!)).toEqual(['id', 'status', 'pausedUntil', 'timeZone']);
  });

  it('reads a bigint and a timestamp without time zone as drizzle does', async () => {
    const db = app.services.db;
    const odd = pgTable('plain_rows_odd', {
      id: uuid('id'),
      n: bigint('n', { mode: 'number' }),
      at: timestamp('at'),
    });
    await db.execute(sql`CREATE TEMP TABLE plain_rows_odd (id uuid, n bigint, at timestamp)`);
    await db.execute(
      sql`INSERT INTO plain_rows_odd VALUES (gen_random_uuid(), 9007199254740991, '2026-11-28 09:30:15.5'), (gen_random_uuid(), NULL, NULL)`,
    );
    const reader = plainRowReader(odd);
    const expected = await db.select().from(odd).orderBy(odd.n);
    const plain = reader.read(
      await db.execute(sql`SELECT ${reader.selection} FROM plain_rows_odd ORDER BY n`),
    );
    expect(plain).toEqual(expected);
    expect(plain[0]!.n).toBe(9007199254740991);
    expect(plain[0]!.at).toEqual(new Date('2026-11-28T09:30:15.5Z'));
    await db.execute(sql`DROP TABLE plain_rows_odd`);
  });
});
