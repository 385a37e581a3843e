import { listContacts, signupConsents } from '@server/db/schema';
import type { SignupForm } from '@shared/signup-forms';
import { makeList } from '@tests/factories/imports';
import { createUser } from '@tests/factories/users';
import { mailTo, waitForMail } from '@tests/setup/dev-mail';
import { as, createTestApp } from '@tests/setup/test-app';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let app: FastifyInstance;
let ipCounter = 0;

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

/** A fresh visitor address each call: the per-IP limit is what one test checks on purpose. */
function nextIp(): string {
  ipCounter += 1;
  return `203.0.113.${ipCounter % 250}`;
}

async function ownerWithForm(input: Record<string, unknown> = {}) {
  const owner = await createUser(app);
  const list = await makeList(app, owner.user.id, `Newsletter ${Math.random().toString(36).slice(2, 8)}`);
  const saved = await as(
    app,
    owner.cookie,
  )({
    method: 'PUT',
    url: `/api/lists/${list.id}/signup-form`,
    payload: { title: 'Kano Foods news', consentText: 'I agree to receive the monthly news.', ...input },
  });
  expect(saved.statusCode).toBe(200);
  return { owner, list, form: saved.json<SignupForm>() };
}

function submit(formId: string, fields: Record<string, string>, remoteAddress = nextIp()) {
  return app.inject({
    method: 'POST',
    url: `/subscribe/${formId}`,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      // An embedded form posts from the user's own site.
      origin: 'https://kanofoods.example.org',
    },
    payload: new URLSearchParams(fields).toString(),
    remoteAddress,
  });
}

function confirmPathIn(text: string | null): string {
  const match = /\/subscribe\/confirm\/[0-9a-f-]{36}\/[0-9a-f]{32}/.exec(text ?? '');
  if (!match) throw new Error(`no confirmation link in: ${text}`);
  return match[0];
}

async function members(listId: string) {
  return app.services.db.select().from(listContacts).where(eq(listContacts.listId, listId));
}

describe('subscribe forms with double opt-in', () => {
  it('hosted page → confirmation mail → confirm button: the address joins the list with its consent', async () => {
    const { list, form } = await ownerWithForm();
    expect(form.hostedUrl).toMatch(new RegExp(`/subscribe/${form.id}$`));
    expect(form.embedHtml).toContain(`action="${form.hostedUrl}"`);
    expect(form.embedHtml).toContain('name="website"');

    const page = await app.inject({ method: 'GET', url: `/subscribe/${form.id}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Kano Foods news');
    expect(page.body).toContain('I agree to receive the monthly news.');

    const email = `amaka-${Date.now()}@reader.test`;
    const sent = await submit(form.id, { email, firstName: 'Amaka', consent: 'yes', website: '' });
    expect(sent.statusCode).toBe(200);
    expect(sent.body).toContain('Check your inbox');
    const mail = await waitForMail(app, email, { subject: 'Confirm your subscription: Kano Foods news' });
    const path = confirmPathIn(mail.text);

    // Opening the link (what a mail scanner does) changes nothing.
    const opened = await app.inject({ method: 'GET', url: path });
    expect(opened.statusCode).toBe(200);
    expect(opened.body).toContain('Yes, subscribe me');
    expect(await members(list.id)).toHaveLength(0);

    // The page sends no referrer, so the browser posts with Origin "null".
    const confirmed = await app.inject({ method: 'POST', url: path, headers: { origin: 'null' } });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.body).toContain('You are subscribed');
    const [member] = await members(list.id);
    expect(member).toMatchObject({ email, firstName: 'Amaka', source: 'signup_form' });
    const [consent] = await app.services.db
      .select()
      .from(signupConsents)
      .where(eq(signupConsents.formId, form.id));
    expect(consent).toMatchObject({ consentText: 'I agree to receive the monthly news.' });
    expect(consent!.confirmedAt).not.toBeNull();
    expect(consent!.ipHash).toMatch(/^[0-9a-f]{64}$/);
    // Confirming twice is harmless.
    expect((await app.inject({ method: 'POST', url: path })).statusCode).toBe(200);
    expect(await members(list.id)).toHaveLength(1);
  });

  it('refuses a missing consent or a bad address with the reason on the form, and a forged link', async () => {
    const { form } = await ownerWithForm();
    const noConsent = await submit(form.id, { email: 'tunde@reader.test' });
    expect(noConsent.statusCode).toBe(400);
    expect(noConsent.body).toContain('Tick the box to agree before subscribing');
    expect(noConsent.body).toContain('value="tunde@reader.test"');
    const badEmail = await submit(form.id, { email: 'not-an-address', consent: 'yes' });
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.body).toContain('Enter a valid email address');

    const email = `forged-${Date.now()}@reader.test`;
    await submit(form.id, { email, consent: 'yes' });
    const path = confirmPathIn((await waitForMail(app, email)).text);
    const forged = `${path.slice(0, -32)}${'0'.repeat(32)}`;
    expect((await app.inject({ method: 'POST', url: forged })).statusCode).toBe(404);
  });

  it('is no open relay: a filled honeypot sends nothing, an address is mailed at most 3 times a day, an IP signs up 10 times an hour', async () => {
    const { form } = await ownerWithForm();
    const bot = `bot-${Date.now()}@reader.test`;
    const trap = await submit(form.id, { email: bot, consent: 'yes', website: 'http://spam.example' });
    expect(trap.body).toContain('Check your inbox');
    expect(await mailTo(app, bot)).toHaveLength(0);

    const victim = `victim-${Date.now()}@reader.test`;
    for (let i = 0; i < 5; i++) {
      const answer = await submit(form.id, { email: victim, consent: 'yes' });
      expect(answer.body).toContain('Check your inbox');
    }
    await waitForMail(app, victim);
    expect(await mailTo(app, victim)).toHaveLength(3);

    const ip = '198.51.100.77';
    const answers = [];
    for (let i = 0; i < 11; i++) {
      answers.push(
        (await submit(form.id, { email: `r${i}-${Date.now()}@reader.test`, consent: 'yes' }, ip)).statusCode,
      );
    }
    expect(answers.slice(0, 10).every((code) => code === 200)).toBe(true);
    expect(answers[10]).toBe(429);
  });

  it('a disabled form, or one of a deleted list, takes nobody; another user sees 404', async () => {
    const { owner, list, form } = await ownerWithForm();
    await submit(form.id, { email: `kept-${Date.now()}@reader.test`, consent: 'yes' });
    await as(
      app,
      owner.cookie,
    )({
      method: 'PUT',
      url: `/api/lists/${list.id}/signup-form`,
      payload: { title: 'Kano Foods news', consentText: 'I agree.', enabled: false },
    });
    expect((await app.inject({ method: 'GET', url: `/subscribe/${form.id}` })).statusCode).toBe(404);
    expect((await submit(form.id, { email: 'x@reader.test', consent: 'yes' })).statusCode).toBe(404);

    const stranger = await createUser(app);
    const call = as(app, stranger.cookie);
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const answer = await call({
        method,
        url: `/api/lists/${list.id}/signup-form`,
        ...(method === 'PUT' ? { payload: { title: 'Mine now', consentText: 'Yes' } } : {}),
      });
      expect(answer.statusCode).toBe(404);
    }
    expect(
      (await call({ method: 'GET', url: `/api/lists/${list.id}/signup-form/consents` })).statusCode,
    ).toBe(404);

    const mine = as(app, owner.cookie);
    const bad = await mine({
      method: 'PUT',
      url: `/api/lists/${list.id}/signup-form`,
      payload: { title: '' },
    });
    expect(bad.statusCode).toBe(400);
    expect((await mine({ method: 'DELETE', url: `/api/lists/${list.id}/signup-form` })).statusCode).toBe(204);
    expect((await mine({ method: 'GET', url: `/api/lists/${list.id}/signup-form` })).json()).toEqual({
      form: null,
    });
    // Removing the form keeps the proof of consent of those who signed up through it.
    const kept = await app.services.db
      .select()
      .from(signupConsents)
      .where(eq(signupConsents.listId, list.id));
    expect(kept).toHaveLength(1);
    expect(kept.every((row) => row.formId === null)).toBe(true);
  });
});
