import { randomUUID } from 'node:crypto';
import { campaignContacts, emailEvents, listContacts, newsletters, segments } from '@server/db/schema/index';
import type { Newsletter } from '@shared/newsletters';
import type { SegmentRule, SegmentWithCount } from '@shared/segments';
import { seedCampaign, seedContact } from '@tests/factories/campaign-stats';
import {
  addStepViaApi,
  createCampaignViaApi,
  createListWithContacts,
  testEmails,
} from '@tests/factories/campaigns';
import { createSinkAccount } from '@tests/factories/dispatch';
import { createUser, type TestUser } from '@tests/factories/users';
import { as, createTestApp } from '@tests/setup/test-app';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveAudience } from '../campaigns/audience.service';
import { addSuppression } from '../suppression/suppression.service';

const DAY = 86_400_000;

describe('segments API', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  const call = (user: TestUser) => as(app, user.cookie);

  /**
   * Six contacts in Lagos and Abuja with a custom `stage` (and a `renewal` date), one of them suppressed,
   * one that opened a campaign 3 days ago (by a person), one whose only open was a machine's.
   */
  async function seeded() {
    const user = await createUser(app);
    const [ada, bayo, chidi, dayo, emeka, femi] = testEmails(6, 'seg');
    const list = await createListWithContacts(
      app,
      user.user.id,
      [
        {
          email: ada!,
          firstName: 'Ada',
          city: 'Lagos',
          customFields: { stage: 'won', renewal: '2026-01-10' },
        },
        {
          email: bayo!,
          firstName: 'Bayo',
          city: 'lagos',
          customFields: { stage: 'lead', renewal: '2026-06-01' },
        },
        { email: chidi!, firstName: 'Chidi', city: 'Abuja', customFields: { stage: 'won' } },
        { email: dayo!, firstName: 'Dayo', city: null, customFields: {} },
        { email: emeka!, firstName: 'Emeka', city: 'Lagos', customFields: { stage: '50%_off' } },
        { email: femi!, firstName: 'Femi', city: 'Lagos', customFields: { stage: 'won' } },
      ],
      { name: `Customers ${randomUUID().slice(0, 6)}`, customFields: ['stage', 'renewal'] },
    );
    await addSuppression({ db: app.services.db, userId: user.user.id, email: femi!, reason: 'unsubscribed' });
    const { campaign } = await seedCampaign(app.services.db, user.user.id);
    const opener = await seedContact(app.services.db, campaign, { email: ada!.toUpperCase() });
    const machine = await seedContact(app.services.db, campaign, { email: bayo! });
    await app.services.db.insert(emailEvents).values([
      {
        userId: user.user.id,
        campaignId: campaign.id,
        campaignContactId: opener.id,
        type: 'opened',
        occurredAt: new Date(Date.now() - 3 * DAY),
      },
      {
        userId: user.user.id,
        campaignId: campaign.id,
        campaignContactId: machine.id,
        type: 'opened',
        machine: true,
      },
    ]);
    return { user, list, emails: { ada, bayo, chidi, dayo, emeka, femi } };
  }

  async function count(user: TestUser, listId: string, rules: unknown[], match = 'all') {
    const response = await call(user)({
      method: 'POST',
      url: '/api/segments/count',
      payload: { listId, match, rules },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ count: number }>().count;
  }

  const city = (operator: string, value?: unknown): SegmentRule =>
    ({ type: 'field', field: 'city', operator, value }) as SegmentRule;

  it('answers 401 without a session', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/segments' })).statusCode).toBe(401);
  });

  it('counts each operator over the list, leaving out suppressed addresses', async () => {
    const { user, list } = await seeded();
    // Femi (Lagos, suppressed) is never counted.
    expect(await count(user, list.id, [])).toBe(5);
    expect(await count(user, list.id, [city('equals', 'LAGOS')])).toBe(3);
    expect(await count(user, list.id, [city('not_equals', 'Lagos')])).toBe(2); // Abuja and no city
    expect(await count(user, list.id, [city('contains', 'buj')])).toBe(1);
    expect(await count(user, list.id, [city('not_contains', 'ago')])).toBe(2);
    expect(await count(user, list.id, [city('in', ['Abuja', 'lagos'])])).toBe(4);
    expect(await count(user, list.id, [city('is_empty')])).toBe(1);
    expect(await count(user, list.id, [city('is_not_empty')])).toBe(4);
    const stage = (operator: string, value?: unknown) => ({
      type: 'custom',
      field: 'stage',
      operator,
      value,
    });
    expect(await count(user, list.id, [stage('equals', 'won')])).toBe(2);
    // A % typed by the user is a character, not a wildcard.
    expect(await count(user, list.id, [stage('contains', '%')])).toBe(1);
    expect(await count(user, list.id, [stage('contains', '_')])).toBe(1);
    const renewal = (operator: string, value: string) => ({
      type: 'custom',
      field: 'renewal',
      operator,
      value,
    });
    expect(await count(user, list.id, [renewal('before', '2026-03-01')])).toBe(1);
    expect(await count(user, list.id, [renewal('after', '2026-03-01')])).toBe(1);
    const added = (operator: string, value: string) => ({ type: 'date', field: 'addedAt', operator, value });
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + DAY).toISOString().slice(0, 10);
    expect(await count(user, list.id, [added('before', tomorrow)])).toBe(5);
    expect(await count(user, list.id, [added('after', today)])).toBe(0);
    // all vs any
    expect(await count(user, list.id, [city('equals', 'Lagos'), stage('equals', 'won')])).toBe(1);
    expect(await count(user, list.id, [city('equals', 'Lagos'), stage('equals', 'won')], 'any')).toBe(4);
  });

  it('counts engagement by people only, matched by address across the user’s campaigns', async () => {
    const { user, list } = await seeded();
    const opened = (operator: string, days: number) => ({
      type: 'engagement',
      event: 'opened',
      operator,
      days,
    });
    expect(await count(user, list.id, [opened('in_last_days', 7)])).toBe(1); // Ada (Bayo's open was a machine)
    expect(await count(user, list.id, [opened('in_last_days', 2)])).toBe(0);
    expect(await count(user, list.id, [opened('not_in_last_days', 7)])).toBe(4);
    const clicked = { type: 'engagement', event: 'clicked', operator: 'in_last_days', days: 30 };
    expect(await count(user, list.id, [clicked])).toBe(0);
    // Another user's events about the same address do not count for this one.
    const other = await createUser(app);
    const { campaign } = await seedCampaign(app.services.db, other.user.id);
    const [row] = await app.services.db
      .select({ email: listContacts.email })
      .from(listContacts)
      .where(eq(listContacts.listId, list.id))
      .limit(1);
    const contact = await seedContact(app.services.db, campaign, { email: row!.email });
    await app.services.db.insert(emailEvents).values({
      userId: other.user.id,
      campaignId: campaign.id,
      campaignContactId: contact.id,
      type: 'clicked',
    });
    expect(await count(user, list.id, [clicked])).toBe(0);
  });

  it('refuses hostile rules with field errors and writes nothing', async () => {
    const { user, list } = await seeded();
    const bad: [unknown, string][] = [
      [{ type: 'field', field: 'password', operator: 'equals', value: 'x' }, 'rules.0.field'],
      [{ type: 'field', field: 'city', operator: 'drop table', value: 'x' }, 'rules.0.operator'],
      [{ type: 'field', field: 'city', operator: 'equals', value: 42 }, 'rules.0.value'],
      [{ type: 'field', field: 'city', operator: 'in', value: 'Lagos' }, 'rules.0.value'],
      [{ type: 'field', field: 'city', operator: 'is_empty', value: 'x' }, 'rules.0.value'],
      [{ type: 'date', field: 'addedAt', operator: 'before', value: "2026-01-01'; --" }, 'rules.0.value'],
      [{ type: 'date', field: 'addedAt', operator: 'contains', value: '2026' }, 'rules.0.operator'],
      [{ type: 'engagement', event: 'opened', operator: 'in_last_days', days: '7' }, 'rules.0.days'],
      [{ type: 'engagement', event: 'bounced', operator: 'in_last_days', days: 7 }, 'rules.0.event'],
      [{ type: 'sql', where: '1=1' }, 'rules.0.type'],
      [{ type: 'custom', field: 'stage', operator: 'equals', value: 'x', extra: true }, 'rules.0'],
    ];
    for (const [rule, path] of bad) {
      const response = await call(user)({
        method: 'POST',
        url: '/api/segments',
        payload: { listId: list.id, name: 'Bad', rules: [rule] },
      });
      expect(response.statusCode, JSON.stringify(rule)).toBe(400);
      const paths = (response.json().errors as { path: string }[]).map((e) => e.path);
      expect(
        paths.some((p) => p.startsWith(path)),
        `${JSON.stringify(rule)} → ${paths}`,
      ).toBe(true);
    }
    // A custom field the list does not have: known only to the server.
    const unknown = await call(user)({
      method: 'POST',
      url: '/api/segments',
      payload: {
        listId: list.id,
        name: 'Bad',
        rules: [{ type: 'custom', field: 'secret', operator: 'is_empty' }],
      },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors).toEqual([
      { path: 'rules.0.field', message: 'This list has no such custom field' },
    ]);
    const rows = await app.services.db.select().from(segments).where(eq(segments.userId, user.user.id));
    expect(rows).toEqual([]);
  });

  it('creates, reads with its count, renames, updates rules and deletes; another user’s segment answers 404', async () => {
    const { user, list } = await seeded();
    const created = await call(user)({
      method: 'POST',
      url: '/api/segments',
      payload: { listId: list.id, name: 'Lagos', rules: [city('equals', 'Lagos')] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const segment = created.json<SegmentWithCount>();
    expect(segment).toMatchObject({ name: 'Lagos', match: 'all', count: 3 });

    const duplicate = await call(user)({
      method: 'POST',
      url: '/api/segments',
      payload: { listId: list.id, name: 'LAGOS', rules: [city('is_empty')] },
    });
    expect(duplicate.statusCode).toBe(409);

    const listed = await call(user)({ method: 'GET', url: `/api/segments?listId=${list.id}` });
    expect(listed.json().segments).toEqual([expect.objectContaining({ id: segment.id })]);
    const updated = await call(user)({
      method: 'PATCH',
      url: `/api/segments/${segment.id}`,
      payload: { name: 'Lagos or Abuja', rules: [city('in', ['Lagos', 'Abuja'])] },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({ name: 'Lagos or Abuja', count: 4 });

    const stranger = await createUser(app);
    for (const [method, url, payload] of [
      ['GET', `/api/segments/${segment.id}`, undefined],
      ['PATCH', `/api/segments/${segment.id}`, { name: 'Mine' }],
      ['DELETE', `/api/segments/${segment.id}`, undefined],
      ['POST', '/api/segments/count', { listId: list.id, rules: [] }],
      ['POST', '/api/segments', { listId: list.id, name: 'Theirs', rules: [city('is_empty')] }],
    ] as const) {
      const response = await call(stranger)({ method, url, payload });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await call(stranger)({ method: 'GET', url: '/api/segments' })).json().segments).toEqual([]);
    const [still] = await app.services.db.select().from(segments).where(eq(segments.id, segment.id));
    expect(still!.name).toBe('Lagos or Abuja');

    const deleted = await call(user)({ method: 'DELETE', url: `/api/segments/${segment.id}` });
    expect(deleted.statusCode).toBe(200);
    expect((await call(user)({ method: 'GET', url: `/api/segments/${segment.id}` })).statusCode).toBe(404);
  });

  it("an address the first list's segment leaves out still goes, once, with the later list's data", async () => {
    const user = await createUser(app);
    const [lagos, abuja, both] = testEmails(3, 'segdup');
    const first = await createListWithContacts(app, user.user.id, [
      { email: lagos!, firstName: 'Ada', city: 'Lagos' },
      { email: abuja!, firstName: 'Bayo', city: 'Abuja' },
      { email: both!, firstName: 'Chidi', city: 'Lagos' },
    ]);
    const second = await createListWithContacts(app, user.user.id, [
      { email: abuja!.toUpperCase(), firstName: 'Bayo again' },
      { email: ` ${both!.toUpperCase()}`, firstName: 'Chidi again' },
      { email: lagos!, firstName: 'Ada again' },
    ]);
    const segment = (
      await call(user)({
        method: 'POST',
        url: '/api/segments',
        payload: { listId: first.id, name: 'Lagos', rules: [city('equals', 'Lagos')] },
      })
    ).json<SegmentWithCount>();
    const names = async (listIds: string[], segmentIds: string[]) => {
      const out: string[] = [];
      for await (const c of resolveAudience({
        db: app.services.db,
        userId: user.user.id,
        audience: { listIds, segmentIds, leadFilters: [] },
      }))
        out.push(c.firstName!);
      return out.sort();
    };
    // Abuja is outside the first list's segment: the second list's copy of the address is the one sent.
    expect(await names([first.id, second.id], [segment.id])).toEqual(['Ada', 'Bayo again', 'Chidi'].sort());
    // The list named first wins, whichever was made first.
    expect(await names([second.id, first.id], [])).toEqual(['Ada again', 'Bayo again', 'Chidi again'].sort());
    // A segment on the later list narrows only that list.
    const secondSegment = (
      await call(user)({
        method: 'POST',
        url: '/api/segments',
        payload: { listId: second.id, name: 'Nowhere', rules: [city('is_empty')] },
      })
    ).json<SegmentWithCount>();
    expect(await names([first.id, second.id], [secondSegment.id])).toEqual(['Ada', 'Bayo', 'Chidi'].sort());
  });

  it('a newsletter sent to a list narrowed by a segment reaches exactly the counted contacts', async () => {
    const { user, list, emails } = await seeded();
    const rules = [
      city('equals', 'Lagos'),
      { type: 'engagement', event: 'opened', operator: 'not_in_last_days', days: 30 },
    ];
    const segment = (
      await call(user)({
        method: 'POST',
        url: '/api/segments',
        payload: { listId: list.id, name: 'Quiet Lagos', rules },
      })
    ).json<SegmentWithCount>();
    // Lagos: Ada (opened), Bayo (machine open only), Emeka; Femi is suppressed.
    expect(segment.count).toBe(2);
    const audience: string[] = [];
    for await (const c of resolveAudience({
      db: app.services.db,
      userId: user.user.id,
      audience: { listIds: [list.id], segmentIds: [segment.id], leadFilters: [] },
    }))
      audience.push(c.email);
    expect(audience.sort()).toEqual([emails.bayo, emails.emeka].sort());

    const account = await createSinkAccount(app, user.user.id);
    const newsletter = (
      await call(user)({
        method: 'POST',
        url: '/api/newsletters',
        payload: { kind: 'bulk', name: 'Promo', subject: 'Hello', html: '<p>Our new prices</p>' },
      })
    ).json<Newsletter>();
    // A segment of a list that is not chosen is refused, as is another user's segment.
    const wrongList = await call(user)({
      method: 'POST',
      url: `/api/newsletters/${newsletter.id}/send`,
      payload: {
        listIds: [(await createListWithContacts(app, user.user.id, [{ email: emails.ada! }])).id],
        segmentIds: [segment.id],
        senderAccountIds: [account.id],
      },
    });
    expect(wrongList.statusCode).toBe(400);
    const stranger = await createUser(app);
    const strangerList = await createListWithContacts(app, stranger.user.id, [{ email: 'x@kanofoods.test' }]);
    const theirs = (
      await call(stranger)({
        method: 'POST',
        url: '/api/segments',
        payload: { listId: strangerList.id, name: 'S', rules: [city('is_empty')] },
      })
    ).json<SegmentWithCount>();
    const foreign = await call(user)({
      method: 'POST',
      url: `/api/newsletters/${newsletter.id}/send`,
      payload: { listIds: [list.id], segmentIds: [theirs.id], senderAccountIds: [account.id] },
    });
    expect(foreign.statusCode).toBe(404);

    // Chosen on the draft, the segment cannot be deleted until the send no longer needs it.
    const saved = await call(user)({
      method: 'PATCH',
      url: `/api/newsletters/${newsletter.id}`,
      payload: { listIds: [list.id], segmentIds: [segment.id] },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<Newsletter>().segmentIds).toEqual([segment.id]);
    const refused = await call(user)({ method: 'DELETE', url: `/api/segments/${segment.id}` });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('the bulk email “Promo”');

    const sent = await call(user)({
      method: 'POST',
      url: `/api/newsletters/${newsletter.id}/send`,
      payload: { listIds: [list.id], segmentIds: [segment.id], senderAccountIds: [account.id] },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const recipients = await app.services.db
      .select({ email: campaignContacts.email })
      .from(campaignContacts)
      .where(eq(campaignContacts.campaignId, (await sentCampaignId(newsletter.id))!));
    expect(recipients.map((r) => r.email).sort()).toEqual(audience.sort());
    expect(recipients).toHaveLength(segment.count);
  });

  it('a campaign launched on a list narrowed by a segment enrolls exactly the counted contacts', async () => {
    const { user, list, emails } = await seeded();
    const segment = (
      await call(user)({
        method: 'POST',
        url: '/api/segments',
        payload: {
          listId: list.id,
          name: 'Won',
          match: 'any',
          rules: [
            { type: 'custom', field: 'stage', operator: 'equals', value: 'won' },
            { type: 'engagement', event: 'opened', operator: 'in_last_days', days: 7 },
          ],
        },
      })
    ).json<SegmentWithCount>();
    expect(segment.count).toBe(2); // Ada and Chidi; Femi is suppressed
    const account = await createSinkAccount(app, user.user.id);
    const campaign = await createCampaignViaApi(app, user.cookie, {
      audience: { listIds: [list.id], segmentIds: [segment.id], leadFilters: [] },
      senderAccountIds: [account.id],
    });
    expect(campaign.audience.segmentIds).toEqual([segment.id]);
    await addStepViaApi(app, user.cookie, campaign.id);
    // The draft campaign needs the segment: deleting it is refused and names the campaign.
    const refused = await call(user)({ method: 'DELETE', url: `/api/segments/${segment.id}` });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain(`the campaign “${campaign.name}”`);

    const launched = await call(user)({ method: 'POST', url: `/api/campaigns/${campaign.id}/launch` });
    expect(launched.statusCode, launched.body).toBe(200);
    const enrolled = await app.services.db
      .select({ email: campaignContacts.email })
      .from(campaignContacts)
      .where(eq(campaignContacts.campaignId, campaign.id));
    expect(enrolled.map((r) => r.email).sort()).toEqual([emails.ada, emails.chidi].sort());
    expect(enrolled).toHaveLength(segment.count);
    // Launched, the audience is copied: the segment may go.
    expect((await call(user)({ method: 'DELETE', url: `/api/segments/${segment.id}` })).statusCode).toBe(200);
  });

  async function sentCampaignId(newsletterId: string): Promise<string | null> {
    const [row] = await app.services.db
      .select({ campaignId: newsletters.campaignId })
      .from(newsletters)
      .where(eq(newsletters.id, newsletterId));
    return row?.campaignId ?? null;
  }
});
