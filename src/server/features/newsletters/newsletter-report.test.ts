import { randomUUID } from 'node:crypto';
import { emailEvents, outboxMessages } from '@server/db/schema/index';
import type {
  NewsletterProgress,
  NewsletterRecipientPage,
  NewsletterReport,
} from '@shared/newsletter-report';
import type { Newsletter } from '@shared/newsletters';
import { createSinkAccount, dispatchContext } from '@tests/factories/dispatch';
import { createUser, type TestUser } from '@tests/factories/users';
import { type SmtpSink, startSmtpSink } from '@tests/fakes/smtp-sink';
import { as, createTestApp } from '@tests/setup/test-app';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainOutbox } from '../sending/sending.service';
import { recipientStatus } from './newsletter-report.service';
import { finishNewsletterSends } from './newsletter-send.service';

let app: FastifyInstance;
let sink: SmtpSink;

beforeAll(async () => {
  app = await createTestApp();
  sink = await startSmtpSink();
});
afterAll(async () => {
  await sink.close();
  await app.close();
});

const blocks = [
  { id: 'h', type: 'heading', text: 'Hello {{ firstName | default: "friend" }}', level: 1 },
  { id: 'b', type: 'button', label: 'Order now', href: 'https://kanofoods.test/order' },
];

async function sentNewsletter(user: TestUser, emails: string[]) {
  const req = as(app, user.cookie);
  const account = await createSinkAccount(app, user.user.id, { fromName: 'Kano Foods' });
  const list = await req({
    method: 'POST',
    url: '/api/lists',
    payload: { name: `L ${randomUUID().slice(0, 6)}` },
  });
  const listId = list.json<{ id: string }>().id;
  for (const email of emails) {
    const added = await req({ method: 'POST', url: `/api/lists/${listId}/contacts`, payload: { email } });
    expect(added.statusCode).toBe(201);
  }
  const newsletter = (
    await req({
      method: 'POST',
      url: '/api/newsletters',
      payload: { kind: 'newsletter', name: 'March', subject: 'Hi', blocks },
    })
  ).json<Newsletter>();
  const sent = await req({
    method: 'POST',
    url: `/api/newsletters/${newsletter.id}/send`,
    payload: { listIds: [listId], senderAccountIds: [account.id] },
  });
  expect(sent.statusCode).toBe(200);
  return newsletter;
}

describe('newsletter progress and report', () => {
  it('counts queued, then sent, and reports opens, clicks, links, recipients and a CSV', async () => {
    const user = await createUser(app);
    const tag = randomUUID().slice(0, 6);
    const emails = [`ada-${tag}@example.com`, `bayo-${tag}@example.com`, `chidi-${tag}@example.com`];
    const newsletter = await sentNewsletter(user, emails);
    const req = as(app, user.cookie);

    const before = await req({ method: 'GET', url: `/api/newsletters/${newsletter.id}/progress` });
    expect(before.statusCode).toBe(200);
    expect(before.json<NewsletterProgress>()).toMatchObject({
      status: 'sending',
      preparing: false,
      recipients: 3,
      queued: 3,
      sent: 0,
      failed: 0,
    });

    await drainOutbox(dispatchContext(app, sink.port, user.user.id));
    await finishNewsletterSends({ db: app.services.db });
    const after = (
      await req({ method: 'GET', url: `/api/newsletters/${newsletter.id}/progress` })
    ).json<NewsletterProgress>();
    expect(after).toMatchObject({ status: 'sent', recipients: 3, queued: 0, sent: 3, failed: 0 });

    // Engagement as the tracking endpoints record it: Ada opens twice and clicks, a privacy proxy opens
    // Bayo's copy, Chidi unsubscribes.
    const messages = await app.services.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.campaignId, (await messageCampaign(newsletter.id))!));
    const of = (prefix: string) => messages.find((m) => m.toEmail.startsWith(prefix))!;
    const event = (
      m: (typeof messages)[number],
      type: 'opened' | 'clicked' | 'unsubscribed',
      extra = {},
    ) => ({
      userId: user.user.id,
      campaignId: m.campaignId,
      campaignContactId: m.campaignContactId,
      outboxMessageId: m.id,
      type,
      occurredAt: new Date(m.sentAt!.getTime() + 3600_000 * 2 + 60_000),
      ...extra,
    });
    const url = 'https://kanofoods.test/order';
    await app.services.db
      .insert(emailEvents)
      .values([
        event(of('ada'), 'opened'),
        event(of('ada'), 'opened'),
        event(of('ada'), 'clicked', { detail: url }),
        event(of('bayo'), 'opened', { machine: true, machineReason: 'apple_mpp' }),
        event(of('chidi'), 'unsubscribed'),
      ]);

    const report = await req({ method: 'GET', url: `/api/newsletters/${newsletter.id}/report` });
    expect(report.statusCode).toBe(200);
    const body = report.json<NewsletterReport>();
    expect(body.summary).toEqual({
      recipients: 3,
      delivered: 3,
      failed: 0,
      uniqueOpens: 1,
      opens: 2,
      machineOpens: 1,
      clicks: 1,
      uniqueClickers: 1,
      machineClicks: 0,
      bounces: 0,
      unsubscribes: 1,
      complaints: 0,
    });
    expect(body.links).toEqual([{ url, clicks: 1, unique: 1 }]);
    expect(body.hours).toHaveLength(48);
    expect(body.hours.reduce((n, h) => n + h.opens, 0)).toBe(2);
    expect(body.hours.reduce((n, h) => n + h.clicks, 0)).toBe(1);

    const page = (
      await req({ method: 'GET', url: `/api/newsletters/${newsletter.id}/report/recipients?pageSize=2` })
    ).json<NewsletterRecipientPage>();
    expect(page.total).toBe(3);
    expect(page.items.map((r) => [r.email, r.status])).toEqual([
      [emails[0], 'clicked'],
      [emails[1], 'sent'],
    ]);
    const second = (
      await req({
        method: 'GET',
        url: `/api/newsletters/${newsletter.id}/report/recipients?pageSize=2&page=2`,
      })
    ).json<NewsletterRecipientPage>();
    expect(second.items.map((r) => [r.email, r.status])).toEqual([[emails[2], 'unsubscribed']]);
    const search = (
      await req({ method: 'GET', url: `/api/newsletters/${newsletter.id}/report/recipients?q=bayo` })
    ).json<NewsletterRecipientPage>();
    expect(search.items.map((r) => r.email)).toEqual([emails[1]]);

    const csv = await req({ method: 'GET', url: `/api/newsletters/${newsletter.id}/report.csv` });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(lines[0]).toBe('email,name,status,sent_at,opens,clicks');
    expect(lines).toHaveLength(4);
    expect(lines.find((l) => l.startsWith(emails[0]!))).toMatch(/,clicked,.*,2,1$/);
  });

  it("answers 404 for another user's progress, report, recipients and export", async () => {
    const owner = await createUser(app);
    const other = await createUser(app);
    const newsletter = await sentNewsletter(owner, [`x-${randomUUID().slice(0, 6)}@example.com`]);
    for (const url of [
      `/api/newsletters/${newsletter.id}/progress`,
      `/api/newsletters/${newsletter.id}/report`,
      `/api/newsletters/${newsletter.id}/report/recipients`,
      `/api/newsletters/${newsletter.id}/report.csv`,
    ]) {
      const res = await as(app, other.cookie)({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect((await as(app, owner.cookie)({ method: 'GET', url })).statusCode, url).toBe(200);
    }
  });

  it('ranks a recipient by the furthest their message got', () => {
    const base = {
      outboxState: 'sent',
      opens: 0,
      clicks: 0,
      bounced: false,
      unsubscribed: false,
      complained: false,
    };
    expect(recipientStatus(base)).toBe('sent');
    expect(recipientStatus({ ...base, opens: 1 })).toBe('opened');
    expect(recipientStatus({ ...base, opens: 1, clicks: 1 })).toBe('clicked');
    expect(recipientStatus({ ...base, clicks: 1, unsubscribed: true })).toBe('unsubscribed');
    expect(recipientStatus({ ...base, complained: true, unsubscribed: true })).toBe('complained');
    expect(recipientStatus({ ...base, bounced: true })).toBe('bounced');
    expect(recipientStatus({ ...base, outboxState: 'queued' })).toBe('queued');
    expect(recipientStatus({ ...base, outboxState: 'suppressed' })).toBe('failed');
  });
});

async function messageCampaign(newsletterId: string): Promise<string | null> {
  const { newsletters } = await import('@server/db/schema/index');
  const [row] = await app.services.db
    .select({ campaignId: newsletters.campaignId })
    .from(newsletters)
    .where(eq(newsletters.id, newsletterId));
  return row?.campaignId ?? null;
}
