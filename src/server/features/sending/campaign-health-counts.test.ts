import { campaignContacts, campaigns, emailEvents, newsletters, outboxMessages } from '@server/db/schema';
import { CAMPAIGN_PROTECTION_MIN_SENDS } from '@shared/campaigns';
import { createUser } from '@tests/factories/users';
import { createTestApp } from '@tests/setup/test-app';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkCampaignHealth } from './campaign-health';

/*
 * What the campaign health check counts, and what it no longer reads. It runs after every hard bounce
 * and complaint; counting every sent message of the campaign each time cost bounces × campaign size
 * (200,000 messages: 125-220 ms a check on PostgreSQL). Now a campaign that is not active is not
 * counted, a newsletter's sends come from its send counters (newsletter_report_counts) and a sequence
 * campaign's are counted only as far as the decision needs. The decision and its text are the old
 * rule's on the same data: `oldRule` below is the previous query and rule, kept as the reference.
 */

let app: FastifyInstance;
type Db = FastifyInstance['services']['db'];

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

function percent(share: number): string {
  return `${Number((share * 100).toFixed(share * 100 >= 10 ? 0 : 2))}%`;
}

/**
 * The rule as it was (counts of the whole outbox each time), the reference for the decisions; a
 * newsletter's bounce text leaves out the campaign settings it does not have.
 */
async function oldRule(db: Db, campaignId: string, kind: 'campaign' | 'newsletter'): Promise<string | null> {
  const result = await db.execute(sql`
    SELECT c.status, c.bounce_pause_percent AS "bouncePausePercent", c.complaint_pause_percent AS "complaintPausePercent",
           (SELECT count(*) FROM outbox_all o WHERE o.campaign_id = c.id AND o.state IN ('sent', 'bounced'))::int AS sent,
           (SELECT count(*) FROM outbox_all o WHERE o.campaign_id = c.id AND o.state = 'bounced')::int AS bounced,
           (SELECT count(*) FROM email_events e WHERE e.campaign_id = c.id AND e.type = 'complained')::int AS complaints
    FROM campaigns c WHERE c.id = ${campaignId}`);
  const row = (result as unknown as { rows: Record<string, number | string>[] }).rows[0]!;
  const sent = Number(row.sent);
  const bounced = Number(row.bounced);
  const complaints = Number(row.complaints);
  if (row.status !== 'active' || sent < CAMPAIGN_PROTECTION_MIN_SENDS) return null;
  const bounceLimit = Number(row.bouncePausePercent) / 100;
  const complaintLimit = Number(row.complaintPausePercent) / 100;
  if (bounced / sent > bounceLimit) {
    const remedy =
      kind === 'newsletter'
        ? 'Clean the list before resuming.'
        : 'Clean the list, or raise the limit in the campaign settings, before resuming.';
    return `Paused automatically: ${bounced} of its ${sent} emails bounced (${percent(bounced / sent)}; the limit is ${percent(bounceLimit)}). ${remedy}`;
  }
  if (complaints / sent > complaintLimit) {
    const noun = complaints === 1 ? 'spam complaint' : 'spam complaints';
    return `Paused automatically: ${complaints} ${noun} in its ${sent} emails (${percent(complaints / sent)}; the limit is ${percent(complaintLimit)}). Check who is on the list and what the message promises before resuming.`;
  }
  return null;
}

interface Shape {
  kind: 'campaign' | 'newsletter';
  status?: 'active' | 'paused' | 'completed';
  sent: number;
  bounced: number;
  complaints?: number;
  queued?: number;
  bouncePausePercent?: number;
  complaintPausePercent?: number;
}

/** A campaign (a newsletter's send, with its newsletter row, or a sequence) with outbox rows in each state. */
async function campaignWith(shape: Shape): Promise<string> {
  const db = app.services.db;
  const owner = await createUser(app);
  const userId = owner.user.id;
  const [campaign] = await db
    .insert(campaigns)
    .values({
      userId,
      name: `Health ${shape.kind}`,
      kind: shape.kind,
      status: 'active',
      ...(shape.bouncePausePercent ? { bouncePausePercent: shape.bouncePausePercent } : {}),
      ...(shape.complaintPausePercent ? { complaintPausePercent: shape.complaintPausePercent } : {}),
    })
    .returning({ id: campaigns.id });
  const campaignId = campaign!.id;
  if (shape.kind === 'newsletter') {
    await db.insert(newsletters).values({
      userId,
      name: 'Health',
      status: 'sending',
      webToken: `health-${campaignId}`,
      campaignId,
    });
  }
  const states = [
    ...Array<string>(shape.sent).fill('sent'),
    ...Array<string>(shape.bounced).fill('bounced'),
    ...Array<string>(shape.queued ?? 0).fill('queued'),
  ];
  const contacts = await db
    .insert(campaignContacts)
    .values(states.map((_, i) => ({ campaignId, userId, email: `r${i}@health.test` })))
    .returning({ id: campaignContacts.id, email: campaignContacts.email });
  await db.insert(outboxMessages).values(
    contacts.map((c, i) => ({
      token: `health-${campaignId}-${i}`,
      userId,
      campaignId,
      campaignContactId: c.id,
      toEmail: c.email,
      subject: 'Hello',
      state: states[i] as 'sent',
      sentAt: states[i] === 'queued' ? null : new Date(),
    })),
  );
  if (shape.complaints) {
    await db
      .insert(emailEvents)
      .values(
        Array.from({ length: shape.complaints }, () => ({ userId, campaignId, type: 'complained' as const })),
      );
  }
  if (shape.status && shape.status !== 'active') {
    await db.update(campaigns).set({ status: shape.status }).where(eq(campaigns.id, campaignId));
  }
  return campaignId;
}

async function check(campaignId: string) {
  return checkCampaignHealth({
    db: app.services.db,
    mailer: app.services.mailer,
    appUrl: app.services.env.APP_URL,
    campaignId,
  });
}

async function pausedReason(campaignId: string): Promise<string | null> {
  const [row] = await app.services.db
    .select({ status: campaigns.status, reason: campaigns.pausedReason })
    .from(campaigns)
    .where(eq(campaigns.id, campaignId));
  return row?.status === 'paused' ? (row.reason ?? null) : null;
}

const SHAPES: Omit<Shape, 'kind'>[] = [
  { sent: 18, bounced: 2 }, // 10%: paused
  { sent: 19, bounced: 1 }, // 5%, not past 5%
  { sent: 1, bounced: 2 }, // too few to judge
  { sent: 190, bounced: 10 }, // exactly 5%
  { sent: 189, bounced: 11 }, // past it
  { sent: 20, bounced: 0, complaints: 1 }, // 5% complaints
  { sent: 400, bounced: 0, complaints: 1 }, // 0.25%, under 0.3%
  { sent: 333, bounced: 0, complaints: 1 }, // 0.3003%: past it
  { sent: 199, bounced: 1, bouncePausePercent: 0.5 }, // exactly 0.5%
  { sent: 198, bounced: 1, bouncePausePercent: 0.5 }, // past it
  { sent: 300, bounced: 3, queued: 50, complaints: 2 }, // queued messages are not sends
  { sent: 30, bounced: 3, complaints: 1, bouncePausePercent: 12, complaintPausePercent: 2 }, // both past
];

describe('campaign health: what it counts', () => {
  for (const kind of ['campaign', 'newsletter'] as const) {
    it(`the decision and its text are the old rule's on the same data (${kind})`, async () => {
      for (const shape of SHAPES) {
        const id = await campaignWith({ kind, ...shape });
        const expected = await oldRule(app.services.db, id, kind);
        const result = await check(id);
        expect({ shape, reason: await pausedReason(id) }).toEqual({ shape, reason: expected });
        expect(result.paused).toBe(expected !== null);
      }
    });
  }

  it('a campaign that is not active is not counted', async () => {
    for (const status of ['paused', 'completed'] as const) {
      const id = await campaignWith({ kind: 'campaign', status, sent: 30, bounced: 10, complaints: 2 });
      expect(await check(id)).toEqual({ sent: 0, bounced: 0, complaints: 0, paused: false });
      expect(await pausedReason(id)).toBeNull();
    }
  });

  it("a newsletter's sends come from its send counters, not from its outbox", async () => {
    const id = await campaignWith({ kind: 'newsletter', sent: 25, bounced: 1 });
    expect(await check(id)).toMatchObject({ sent: 26, bounced: 1, paused: false });
    // A counter row the outbox does not have shows: the check read the counters.
    await app.services.db.execute(sql`
      INSERT INTO newsletter_report_counts (campaign_id, metric, key, slot, n)
      VALUES (${id}, 'outbox', 'sent', 424242, 1000)`);
    expect(await check(id)).toMatchObject({ sent: 1026, bounced: 1, paused: false });
  });

  it("a sequence campaign's sends are counted only as far as the decision needs", async () => {
    // One bounce against a 5% limit: 21 sends or more keep it under; the count stops there.
    const id = await campaignWith({ kind: 'campaign', sent: 600, bounced: 1 });
    const result = await check(id);
    expect(result).toMatchObject({ bounced: 1, paused: false });
    expect(result.sent).toBeGreaterThanOrEqual(21);
    expect(result.sent).toBeLessThan(30);
  });
});
