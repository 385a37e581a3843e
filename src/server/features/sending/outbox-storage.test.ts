import { createTestApp } from '@tests/setup/test-app';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * A queued message is written once and then moved four times (claimed, allocated, delivering, sent).
 * With its body stored in the row (a 7.6 KB newsletter compresses to ~1.9 KB, just under the size at
 * which PostgreSQL moves a value out of line), every move copied the whole body, and with full pages no
 * move could stay on its page, so each one also wrote an entry in every index (bench/newsletter-million).
 */

let app: FastifyInstance;

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

describe('outbox storage', () => {
  it('keeps message bodies out of the row and leaves room on each page for in-place state changes', async () => {
    const result = await app.services.db.execute(sql`
      SELECT reloptions FROM pg_class
      WHERE relname = 'outbox_messages' AND relnamespace = 'public'::regnamespace`);
    const [row] = (result as unknown as { rows: { reloptions: string[] | null }[] }).rows;
    expect(row?.reloptions ?? []).toEqual(
      expect.arrayContaining(['toast_tuple_target=128', 'fillfactor=70']),
    );
  });
});
