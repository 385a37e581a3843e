import { outboxMessages } from '@server/db/schema/index';
import { createCampaignWithMessage } from '@tests/factories/sending';
import { createUser } from '@tests/factories/users';
import { createTestApp } from '@tests/setup/test-app';
import { eq, sql } from 'drizzle-orm';
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

  it('refuses a column type it would not read as drizzle does', () => {
    const wide = pgTable('plain_rows_test', { id: uuid('id'), n: bigint('n', { mode: 'number' }) });
    expect(() => plainRowReader(wide)).toThrow(/n \(PgBigInt53\)/);
    const local = pgTable('plain_rows_test', { at: timestamp('at') });
    expect(() => plainRowReader(local)).toThrow(/at \(PgTimestamp\)/);
  });
});
