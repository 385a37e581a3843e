import { randomUUID } from 'node:crypto';
import { devMailMessages, newsletters, outboxAll } from '@server/db/schema/index';
import type { Newsletter } from '@shared/newsletters';
import type { PersonalizePreview, PrelaunchReport } from '@shared/personalize';
import { addStepViaApi, createCampaignViaApi, createListWithContacts } from '@tests/factories/campaigns';
import { createSinkAccount, dispatchContext } from '@tests/factories/dispatch';
import { createUser } from '@tests/factories/users';
import { type SmtpSink, startSmtpSink } from '@tests/fakes/smtp-sink';
import { as, createTestApp } from '@tests/setup/test-app';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { drainOutbox } from '../sending/sending.service';

/*
 * Issue #13 item 5: only web, mail and phone links reach a recipient, whatever wrote them — the author's
 * HTML (encoded schemes, protocol-relative links) or a contact's data placed in an href — through every
 * path: the campaign send, its test send and preview, and newsletters and bulk emails.
 */

let app: FastifyInstance;
let sink: SmtpSink;
const DAY = 86_400_000;

beforeAll(async () => {
  app = await createTestApp();
  sink = await startSmtpSink({ keepRaw: true });
});
afterAll(async () => {
  await sink.close();
  await app.close();
});

/** The decoded text of a raw message (quoted-printable soft breaks and =XX escapes undone). */
function decoded(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** Every URL-ish attribute that must not be in a recipient's copy. */
function expectNoUnsafeUrl(html: string) {
  expect(html).not.toMatch(/javascript/i);
  expect(html).not.toMatch(/vbscript/i);
  expect(html).not.toMatch(/&#x6A;|&#58;|&colon;/i);
  expect(html).not.toMatch(/(href|src)\s*=\s*["']?\/\//i);
  expect(html).not.toMatch(/(href|src)\s*=\s*["']?data:/i);
}

const HOSTILE_BODY =
  '<p>Hi {{ firstName }}, see <a href="{{ company }}">your company page</a>.</p>' +
  '<p><a href="JaVaScRiPt&#58;alert(2)">Encoded</a> <a href="&#x6A;avascript:alert(3)">Hex</a> ' +
  '<a href="java&#09;script:alert(4)">Tabbed</a> <a href="//evil.example/login">Relative</a> ' +
  '<a href="https://kanofoods.test/offer">Our offer</a> <a href="MAILTO:sales@kanofoods.test">Mail us</a></p>' +
  '<img src="data:image/svg+xml;base64,PHN2Zz4=" alt="logo">' +
  // A fallback in double quotes inside a double-quoted href: fine when sent, and no false warning.
  '<p><a href="{{ lastName | default: "https://kanofoods.test" }}">Site</a></p>';

async function hostileCampaign() {
  const owner = await createUser(app, {
    plan: 'starter',
    status: 'active',
    periodEnd: new Date(Date.now() + 400 * DAY),
  });
  const account = await createSinkAccount(app, owner.user.id, { imapEnabled: false });
  const email = `mallory-${randomUUID().slice(0, 8)}@example.com`;
  const list = await createListWithContacts(app, owner.user.id, [
    { email, firstName: 'Mallory', company: 'javascript:alert(1)', countryCode: 'NG', city: 'Lagos' },
    {
      email: `ada-${randomUUID().slice(0, 8)}@example.com`,
      firstName: 'Ada',
      company: 'https://ada.example.com',
      countryCode: 'NG',
      city: 'Lagos',
    },
  ]);
  const campaign = await createCampaignViaApi(app, owner.cookie, {
    audience: { listIds: [list.id] },
    senderAccountIds: [account.id],
  });
  const step = await addStepViaApi(app, owner.cookie, campaign.id, {
    variants: [
      { key: 'A', subject: 'A note for {{ firstName }}', bodyHtml: HOSTILE_BODY, splitPercent: 100 },
    ],
  });
  return { owner, account, email, campaign, step };
}

describe('links in campaign mail', () => {
  it('delivers no script, data or protocol-relative link, the merge value included, and keeps the link text', async () => {
    const { owner, email, campaign } = await hostileCampaign();
    const launch = await as(
      app,
      owner.cookie,
    )({ method: 'POST', url: `/api/campaigns/${campaign.id}/launch` });
    expect(launch.statusCode, launch.body).toBe(200);
    await drainOutbox(dispatchContext(app, sink.port, owner.user.id));
    const mail = sink.messages.find((m) => m.to.some((to) => to.toLowerCase() === email));
    expect(mail).toBeDefined();
    const body = decoded(mail!.raw);
    expectNoUnsafeUrl(body);
    for (const text of [
      'your company page',
      'Encoded',
      'Hex',
      'Tabbed',
      'Relative',
      'Our offer',
      'Mail us',
    ]) {
      expect(body).toContain(text);
    }
    // Kept links still work: the web link through click tracking, the mail link as written.
    expect(body).toMatch(/href="[^"]*\/t\/c\//);
    expect(body).toContain('MAILTO:sales@kanofoods.test');
    // The text part names no removed URL either.
    const [row] = await app.services.db.select().from(outboxAll).where(eq(outboxAll.toEmail, email));
    expect(row!.text).not.toMatch(/javascript|evil\.example/i);
    expect(row!.links.join(' ')).not.toMatch(/javascript|evil\.example/i);
    // The fallback written in quotes inside the quoted href survives as the link it is.
    expect(row!.links).toContain('https://kanofoods.test');
  });

  it('lists the links that will be removed in the pre-launch check', async () => {
    const { owner, campaign, step } = await hostileCampaign();
    const res = await as(
      app,
      owner.cookie,
    )({ method: 'GET', url: `/api/campaigns/${campaign.id}/prelaunch` });
    expect(res.statusCode).toBe(200);
    const report = res.json<PrelaunchReport>();
    const unsafe = report.warnings.find((w) => w.code === 'unsafe_link');
    expect(unsafe, JSON.stringify(report.warnings)).toMatchObject({ stepId: step.id, variantKey: 'A' });
    expect(unsafe!.message).toMatch(/5 links will be removed/);
    expect(unsafe!.detail).toContain('JaVaScRiPt:alert(2)');
    expect(unsafe!.detail).toContain('//evil.example/login');
    expect(unsafe!.detail).toContain('data:image/svg+xml');
    expect(report.warnings.filter((w) => w.code === 'unsafe_merge_link')).toHaveLength(1);
    const perContact = report.warnings.find((w) => w.code === 'unsafe_merge_link');
    expect(perContact, JSON.stringify(report.warnings)).toMatchObject({ stepId: step.id });
    expect(perContact!.message).toMatch(/1 of 2 contacts/);
    expect(perContact!.message).toContain('{{ company }}');
    expect(perContact!.detail).toMatch(/mallory-[^:]+: javascript:alert\(1\)/);
    // A warning, not a blocker: the rest of the email goes.
    expect(report.blockers.map((b) => b.code)).not.toContain('unsafe_link');
  });

  it('removes them from the preview and the test send too', async () => {
    const { owner, account, email, campaign, step } = await hostileCampaign();
    const preview = await as(
      app,
      owner.cookie,
    )({
      method: 'POST',
      url: `/api/campaigns/${campaign.id}/preview`,
      payload: { stepId: step.id, variantKey: 'A', email },
    });
    expect(preview.statusCode, preview.body).toBe(200);
    const shown = preview.json<PersonalizePreview>();
    expect(shown.contact.email).toBe(email);
    expectNoUnsafeUrl(shown.html);
    expect(shown.text).not.toMatch(/javascript|evil\.example/i);
    // The preview names what this contact's copy lost, their own company value included.
    expect(shown.removedLinks).toContain(
      'javascript:alert(1) — javascript: links are not allowed in email (only https://, mailto: and tel:)',
    );
    expect(shown.removedLinks).toHaveLength(6);

    const test = await as(
      app,
      owner.cookie,
    )({
      method: 'POST',
      url: `/api/campaigns/${campaign.id}/test-send`,
      payload: { stepId: step.id, variantKey: 'A', senderAccountId: account.id, email },
    });
    expect(test.statusCode, test.body).toBe(200);
    const caught = await vi.waitFor(async () => {
      const [row] = await app.services.db
        .select()
        .from(devMailMessages)
        .where(eq(devMailMessages.toAddress, owner.email));
      if (!row) throw new Error('not caught yet');
      return row;
    });
    expectNoUnsafeUrl(caught.html ?? '');
    expect(caught.html).toContain('your company page');
  });
});

describe('links in newsletters and bulk emails', () => {
  it('removes a merge value that is a script URL from a bulk email and a newsletter button', async () => {
    const owner = await createUser(app, {
      plan: 'professional',
      status: 'active',
      periodEnd: new Date(Date.now() + 30 * DAY),
    });
    const account = await createSinkAccount(app, owner.user.id);
    const email = `mallory-${randomUUID().slice(0, 8)}@example.com`;
    const list = await createListWithContacts(app, owner.user.id, [
      { email, firstName: 'Mallory', company: 'javascript:alert(1)' },
    ]);
    const req = as(app, owner.cookie);
    const bulk = await req({
      method: 'POST',
      url: '/api/newsletters',
      payload: {
        kind: 'bulk',
        name: 'Bulk',
        subject: 'Hello',
        html: '<p>Visit <a href="{{ company }}">your page</a></p>',
      },
    });
    expect(bulk.statusCode, bulk.body).toBe(201);
    const letter = await req({
      method: 'POST',
      url: '/api/newsletters',
      payload: {
        kind: 'newsletter',
        name: 'Letter',
        subject: 'Hello',
        blocks: [{ id: 'b', type: 'button', label: 'Your page', href: '{{ company }}' }],
      },
    });
    expect(letter.statusCode, letter.body).toBe(201);
    for (const created of [bulk, letter]) {
      const id = created.json<Newsletter>().id;
      const sent = await req({
        method: 'POST',
        url: `/api/newsletters/${id}/send`,
        payload: { listIds: [list.id], senderAccountIds: [account.id] },
      });
      expect(sent.statusCode, sent.body).toBe(200);
      const [row] = await app.services.db.select().from(newsletters).where(eq(newsletters.id, id));
      const queued = await app.services.db
        .select()
        .from(outboxAll)
        .where(eq(outboxAll.campaignId, row!.campaignId!));
      expect(queued).toHaveLength(1);
      expectNoUnsafeUrl(queued[0]!.html);
      expect(queued[0]!.html).toMatch(/your page/i);
    }
  });

  it('shows the public web version without links that have no target', async () => {
    const owner = await createUser(app);
    const created = await as(
      app,
      owner.cookie,
    )({
      method: 'POST',
      url: '/api/newsletters',
      payload: {
        kind: 'bulk',
        name: 'Web',
        subject: 'Hello',
        html: '<p><a href="{{ company }}">Your page</a> and <a href="/pricing">our prices</a></p>',
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const webUrl = new URL(created.json<Newsletter>().webUrl!);
    const page = await app.inject({ method: 'GET', url: webUrl.pathname });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Your page');
    expect(page.body).toContain('our prices');
    expect(page.body).not.toMatch(/href="(\/pricing)?"/);
  });
});
