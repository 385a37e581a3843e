import type { Database } from '@server/db/client';
import { outboxMessages } from '@server/db/schema';
import { createCampaignWithMessage } from '@tests/factories/sending';
import { createUser } from '@tests/factories/users';
import { createTestApp } from '@tests/setup/test-app';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordClaims } from './claim-batch';
import { type DispatchedMessage, recordSent } from './delivery-outcomes';
import type { DispatchContext, OutboxRow } from './dispatch';

/*
 * The dispatcher's per-batch writes go to PostgreSQL as named prepared statements: each pooled
 * connection parses and analyses them once instead of on every call (issue 19: parse, analysis and
 * planning of top-level statements were ~30% of PostgreSQL's CPU in the newsletter bench's profile).
 */

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

let app: FastifyInstance;

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

async function preparedOn(tx: Database, label: string): Promise<string[]> {
  const result = await tx.execute(
    sql`SELECT name FROM pg_prepared_statements WHERE name LIKE ${`${label}%`} ORDER BY name`,
  );
  return (result as unknown as { rows: { name: string }[] }).rows.map((r) => r.name);
}

describe("the dispatcher's claim and 'sent' writes", () => {
  it('record the claim and the acceptance, and stay prepared on the connection (PostgreSQL)', async () => {
    const { user } = await createUser(app);
    const created = await createCampaignWithMessage(app, {
      userId: user.id,
      state: 'queued',
      sentAt: null,
    });
    const { account, campaign } = created;
    // The factory's message has its own html (a newsletter's copies name a shared body instead).
    const message = created.message as OutboxRow;
    const at = new Date();
    await app.services.db.transaction(async (trx) => {
      const tx = trx as unknown as Database;
      const ctx = {
        db: tx,
        workerId: 'prepared-writes-test',
        env: { SEND_LEASE_SECONDS: 300 },
        transports: { connectionsPerAccount: 1 },
        onStepMessagesSent: async () => {},
      } as unknown as DispatchContext;
      const dispatched = {
        message,
        account,
        campaign,
        day: '2026-11-29',
        campaignDay: null,
      } as DispatchedMessage;
      await recordClaims(ctx, { claimed: [message], allocated: [{ dispatched, paceHour: null }], at });
      const [claimed] = await tx.select().from(outboxMessages).where(eq(outboxMessages.id, message.id));
      expect(claimed).toMatchObject({
        state: 'sending',
        phase: 'delivering',
        leaseOwner: 'prepared-writes-test',
      });

      await recordSent(ctx, [
        {
          dispatched: { ...dispatched, message: { ...message, stepId: null } },
          response: '250 OK',
        },
      ]);
      const [sent] = await tx.select().from(outboxMessages).where(eq(outboxMessages.id, message.id));
      expect(sent).toMatchObject({ state: 'sent', smtpResponse: '250 OK', leaseOwner: null });

      if (onPostgres) {
        expect(await preparedOn(tx, 'outbox_claim_')).toHaveLength(1);
        expect(await preparedOn(tx, 'outbox_mark_sent_')).toHaveLength(1);
      }
    });
  });
});
