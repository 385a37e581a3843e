import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { campaignContacts, campaigns, newsletters, outboxAll } from '@server/db/schema/index';
import type { Newsletter } from '@shared/newsletters';
import { TRACKING_PATHS } from '@shared/sending';
import { createSinkAccount } from '@tests/factories/dispatch';
import { createUser } from '@tests/factories/users';
import { as, createTestApp } from '@tests/setup/test-app';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderForQueue, toPersonalizeContact } from '../personalization/personalization.service';
import { prepareQueuedBody, resolveTrackingBaseUrl } from '../sending/sending.service';
import { queueAudience, sendableHtml, sendNewsletter } from './newsletter-send.service';

/*
 * Queueing prepares each distinct body once and gives every copy its own token by substitution. This
 * holds it to the per-message path it replaced: every queued message is rendered and prepared again on
 * its own, the old way, with the token the row carries, and must come out byte for byte the same — and
 * its tracked links must lead, for that recipient's token, to the right address.
 */

let app: FastifyInstance;
const dataDir = mkdtempSync(path.join(tmpdir(), 'tambari-newsletter-prepare-'));
const APP_URL = 'http://tambari.test';

beforeAll(async () => {
  app = await createTestApp({ DATA_DIR: dataDir, APP_URL });
});
afterAll(async () => {
  await app.close();
});

const blocks = [
  { id: 'h', type: 'heading', text: 'Hello {{ firstName | default: "friend" }} <b>&</b>', level: 1 },
  {
    id: 't',
    type: 'text',
    text:
      'From {{ city | default: "your city" }}: our **new** menu. See [the menu](https://kanofoods.test/menu), ' +
      '[the offer](https://kanofoods.test/offer?a=1&b=2) and [the menu again](https://kanofoods.test/menu).',
  },
  { id: 'b', type: 'button', label: 'Order now', href: 'https://kanofoods.test/order' },
];

describe('newsletter queueing: each distinct body prepared once', () => {
  it('queues exactly the messages the per-message path gives, each with its own tracking', async () => {
    const user = await createUser(app);
    const account = await createSinkAccount(app, user.user.id, { fromName: 'Kano Foods' });
    const req = as(app, user.cookie);
    const list = await req({ method: 'POST', url: '/api/lists', payload: { name: 'Readers' } });
    const listId = list.json<{ id: string }>().id;
    // Repeated names (the bodies the cache serves), unique ones, none, and one that needs escaping.
    const people = [
      { firstName: 'Ada', city: 'Lagos' },
      { firstName: 'Ada', city: 'Lagos' },
      { firstName: 'Ada', city: 'Kano' },
      { firstName: 'Chidi' },
      {},
      {},
      { firstName: 'Ngozi & <Co> "O\'Neil"', city: 'Abuja' },
      { firstName: 'Chidi' },
    ];
    for (const [i, person] of people.entries()) {
      const added = await req({
        method: 'POST',
        url: `/api/lists/${listId}/contacts`,
        payload: { email: `reader-${i}-${randomUUID().slice(0, 6)}@example.com`, ...person },
      });
      expect(added.statusCode).toBe(201);
    }
    const newsletter = (
      await req({
        method: 'POST',
        url: '/api/newsletters',
        payload: {
          kind: 'newsletter',
          name: 'March',
          subject: 'Hello {{ firstName | default: "friend" }}',
          blocks,
        },
      })
    ).json<Newsletter>();
    const ctx = { db: app.services.db, queue: null, appUrl: APP_URL };
    await sendNewsletter({
      ...ctx,
      userId: user.user.id,
      id: newsletter.id,
      input: { listIds: [listId], senderAccountIds: [account.id] },
    });
    const [row] = await app.services.db.select().from(newsletters).where(eq(newsletters.id, newsletter.id));
    const [campaign] = await app.services.db
      .select()
      .from(campaigns)
      .where(eq(campaigns.id, row!.campaignId!));
    expect(await queueAudience(ctx, campaign!.id)).toEqual({ queued: 0, done: true });

    const queued = await app.services.db
      .select()
      .from(outboxAll)
      .where(eq(outboxAll.campaignId, campaign!.id));
    expect(queued).toHaveLength(people.length);
    const contacts = await app.services.db
      .select()
      .from(campaignContacts)
      .where(eq(campaignContacts.campaignId, campaign!.id));
    const trackingBaseUrl = resolveTrackingBaseUrl({
      appUrl: APP_URL,
      trackingDomain: campaign!.trackingDomain,
    });
    const tokens = new Set<string>();
    for (const message of queued) {
      const contact = contacts.find((c) => c.id === message.campaignContactId)!;
      expect(message.toEmail).toBe(contact.email);
      // The old way: this contact rendered alone, then prepared alone with the row's own token.
      const rendered = renderForQueue({
        subject: row!.subject,
        html: sendableHtml(row!),
        contact: toPersonalizeContact(contact),
        fallbackSender: null,
        seed: contact.id,
      });
      const reference = prepareQueuedBody({
        html: rendered.html,
        text: null,
        token: message.token,
        trackingBaseUrl,
        trackOpens: campaign!.trackOpens,
        trackClicks: campaign!.trackClicks,
        bodyFormat: campaign!.bodyFormat,
        kind: campaign!.kind,
      });
      expect(message.subject).toBe(rendered.subject);
      expect(message.html).toBe(reference.html);
      expect(message.text).toBe(reference.text);
      expect(message.links).toEqual(reference.links);
      expect(message.toName).toBe(contact.firstName ?? null);
      expect(message.boundSenderAccountId).toBe(rendered.renderedFor);

      // Its pixel and links carry its token, and no other message's.
      expect(message.html).toContain(`${trackingBaseUrl}${TRACKING_PATHS.open(message.token)}`);
      expect(message.links).toEqual([
        'https://kanofoods.test/menu',
        'https://kanofoods.test/offer?a=1&b=2',
        'https://kanofoods.test/order',
      ]);
      for (const other of queued) {
        if (other !== message) expect(message.html).not.toContain(other.token);
      }
      tokens.add(message.token);
    }
    expect(tokens.size).toBe(queued.length);
    expect(queued.find((m) => m.toName === 'Ngozi & <Co> "O\'Neil"')!.html).toContain(
      'Hello Ngozi &amp; &lt;Co&gt; "O\'Neil"',
    );

    // A click on each message's second link leads to that link, counted for that message's recipient.
    for (const message of queued) {
      const path = TRACKING_PATHS.click(message.token, 1);
      expect(message.html).toContain(`${trackingBaseUrl}${path}`);
      const response = await app.inject({
        method: 'GET',
        url: path,
        headers: { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/126.0 Safari/537.36' },
      });
      expect(response.statusCode).toBe(302);
      expect(response.headers.location).toBe('https://kanofoods.test/offer?a=1&b=2');
    }
  });
});
