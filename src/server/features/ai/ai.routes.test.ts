import { aiGenerations } from '@server/db/schema/index';
import { parseEnv } from '@server/env';
import { advanceClock, now, resetClock } from '@server/lib/clock';
import { AI_MESSAGES, type AiStatus, parseAiDraft } from '@shared/ai';
import { createUser, type TestUser } from '@tests/factories/users';
import { DEFAULT_FAKE_DRAFT, type FakeAiProvider, startFakeAiProvider } from '@tests/fakes/ai-provider';
import { as, createTestApp } from '@tests/setup/test-app';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const brief = {
  kind: 'email',
  goal: 'Book a demo of our invoicing app with Lagos pharmacies',
  audience: 'Owners of independent pharmacies in Lagos',
  tone: 'persuasive',
  length: 'short',
  language: 'pcm',
} as const;

describe('AI configuration', () => {
  it('stops at boot when a provider URL comes without a model', () => {
    expect(() => parseEnv({ AI_BASE_URL: 'http://127.0.0.1:11434/v1' })).toThrow(
      /AI_MODEL: is required when AI_BASE_URL is set/,
    );
    expect(() => parseEnv({ AI_BASE_URL: 'not a url', AI_MODEL: 'm' })).toThrow(/AI_BASE_URL: must be a URL/);
    expect(
      parseEnv({ AI_BASE_URL: 'http://127.0.0.1:11434/v1', AI_MODEL: 'llama3.1' }).AI_TIMEOUT_SECONDS,
    ).toBe(60);
  });
});

describe('AI writing without a provider', () => {
  let app: FastifyInstance;
  let owner: TestUser;

  beforeAll(async () => {
    app = await createTestApp({ AI_RATE_LIMIT_MAX: '3' });
    owner = await createUser(app);
  });
  afterAll(async () => {
    await app.close();
  });

  it('tells a customer AI is not available here, never about server settings; the write endpoints answer 503', async () => {
    const status = await as(app, owner.cookie)({ method: 'GET', url: '/api/ai/status' });
    expect(status.statusCode).toBe(200);
    const body = status.json<AiStatus>();
    expect(body).toMatchObject({ configured: false, model: null, usedToday: 0, dailyLimit: 5 });
    expect(body.help).toBe(AI_MESSAGES.notConfigured);
    expect(body.help).toContain('not available on this installation');
    expect(JSON.stringify(body)).not.toContain('AI_BASE_URL');
    expect(body.adminHelp).toBeUndefined();

    const write = await as(app, owner.cookie)({ method: 'POST', url: '/api/ai/write', payload: brief });
    expect(write.statusCode).toBe(503);
    expect(write.json()).toMatchObject({ message: AI_MESSAGES.notConfigured, code: 'unavailable' });

    const rewrite = await as(
      app,
      owner.cookie,
    )({
      method: 'POST',
      url: '/api/ai/rewrite',
      payload: { action: 'improve', text: 'Hello there' },
    });
    expect(rewrite.statusCode).toBe(503);
    const rows = await app.services.db
      .select()
      .from(aiGenerations)
      .where(eq(aiGenerations.userId, owner.user.id));
    expect(rows).toHaveLength(0);
  });

  it('shows only a super admin how to connect a provider (OpenAI-compatible or a local Ollama)', async () => {
    const admin = await createUser(app, { role: 'super_admin' });
    const body = (await as(app, admin.cookie)({ method: 'GET', url: '/api/ai/status' })).json<AiStatus>();
    expect(body.adminHelp).toContain('AI_BASE_URL');
    expect(body.adminHelp).toContain('Ollama');
    expect(body.help).toBe(AI_MESSAGES.notConfigured);
  });

  it('tells visitors (pricing, payment) that AI writing is not offered here', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/public/capabilities' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ aiWriting: false });
  });

  it('requires a signed-in user', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/ai/status' })).statusCode).toBe(401);
    const write = await app.inject({ method: 'POST', url: '/api/ai/write', payload: brief });
    expect(write.statusCode).toBe(401);
  });

  it('limits bursts per user per minute', async () => {
    const user = await createUser(app);
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await as(app, user.cookie)({ method: 'POST', url: '/api/ai/write', payload: brief });
      codes.push(res.statusCode);
    }
    expect(codes).toEqual([503, 503, 503, 429]);
  });
});

describe('AI writing with a provider', () => {
  let app: FastifyInstance;
  let fake: FakeAiProvider;
  let baseUrl: string;
  let owner: TestUser;

  beforeAll(async () => {
    fake = await startFakeAiProvider({ apiKey: 'sk-test-key' });
    app = await createTestApp({
      AI_BASE_URL: fake.baseUrl,
      AI_API_KEY: 'sk-test-key',
      AI_MODEL: 'fake-writer-1',
      AI_RATE_LIMIT_MAX: '1000',
      AI_TIMEOUT_SECONDS: '1',
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    baseUrl = `http://127.0.0.1:${address.port}`;
    owner = await createUser(app, {
      plan: 'enterprise',
      status: 'active',
      periodEnd: new Date(Date.now() + 30 * 86_400_000),
    });
  });
  afterEach(() => {
    fake.respondWith({ kind: 'text', text: DEFAULT_FAKE_DRAFT });
    resetClock();
  });
  afterAll(async () => {
    await app.close();
    await fake.close();
  });

  const post = (user: TestUser, url: string, payload: unknown, signal?: AbortSignal) =>
    fetch(`${baseUrl}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: user.cookie },
      body: JSON.stringify(payload),
      signal,
    });

  const status = async (user: TestUser) =>
    (await as(app, user.cookie)({ method: 'GET', url: '/api/ai/status' })).json<AiStatus>();

  it('lets pricing and payment list AI writing once a provider is connected', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/public/capabilities' });
    expect(res.json()).toEqual({ aiWriting: true });
  });

  it('streams a draft as plain text and counts it against the day', async () => {
    const user = await createUser(app, {
      plan: 'starter',
      status: 'active',
      periodEnd: new Date(Date.now() + 30 * 86_400_000),
    });
    expect(await status(user)).toMatchObject({
      configured: true,
      model: 'fake-writer-1',
      usedToday: 0,
      dailyLimit: 50,
    });
    const before = fake.requests.length;

    const res = await post(user, '/api/ai/write', brief);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    const text = await res.text();
    expect(text).toBe(DEFAULT_FAKE_DRAFT);
    const draft = parseAiDraft(text);
    expect(draft.subject).toBe('A quick idea for {{ company | default: "your team" }}');
    expect(draft.html).toContain('{{ firstName | default: "there" }}');

    expect(fake.requests.length).toBe(before + 1);
    const sent = fake.requests.at(-1)!;
    expect(sent.headers.authorization).toBe('Bearer sk-test-key');
    expect(sent.body).toMatchObject({ model: 'fake-writer-1', stream: true });
    expect(sent.user).toContain(brief.goal);
    expect(sent.user).toContain(brief.audience);
    expect(sent.system).toContain('Nigerian Pidgin');
    expect(sent.system).toContain('Persuasive');
    expect(sent.system).toContain('50 to 80 words');
    expect(sent.system).toContain('{{ firstName | default: "boss" }}');
    expect(sent.system).toContain('Subject:');

    expect((await status(user)).usedToday).toBe(1);
    const rows = await app.services.db
      .select()
      .from(aiGenerations)
      .where(eq(aiGenerations.userId, user.user.id));
    expect(rows.map((r) => r.action)).toEqual(['write:email']);
  });

  it('writes newsletters in French with their own structure', async () => {
    const res = await post(owner, '/api/ai/write', {
      kind: 'newsletter',
      goal: 'Announce our new Abidjan office and the March training sessions',
      language: 'fr',
      tone: 'friendly',
      length: 'long',
    });
    expect(res.status).toBe(200);
    await res.text();
    const sent = fake.requests.at(-1)!;
    expect(sent.system).toContain('French');
    expect(sent.system).toContain('vouvoiement');
    expect(sent.system).toContain('<h2>');
    expect(sent.system).toContain('400 to 600 words');
    expect(sent.system).toContain('Friendly');
    expect(sent.user).toContain('Announce our new Abidjan office');
  });

  it('rewrites a selection with each action, keeping merge tags in the instructions', async () => {
    const text = '<p>Hi {{ firstName | default: "there" }}, we makes invoices fast.</p>';
    const expectations = {
      improve: 'Improve the text',
      shorten: 'Shorten the text',
      rewrite: 'Rewrite the text with fresh wording',
      translate: 'Translate the text',
    } as const;
    for (const [action, phrase] of Object.entries(expectations)) {
      fake.respondWith({ kind: 'text', text: `<p>${action} result</p>` });
      const res = await post(owner, '/api/ai/rewrite', {
        action,
        text,
        tone: 'professional',
        ...(action === 'translate' ? { language: 'sw' } : {}),
      });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(`<p>${action} result</p>`);
      const sent = fake.requests.at(-1)!;
      expect(sent.system).toContain(phrase);
      expect(sent.system).toContain('The text is HTML');
      expect(sent.system).toContain('merge tag');
      expect(sent.user).toContain(text);
      if (action === 'translate') expect(sent.system).toContain('Swahili');
    }
    const rows = await app.services.db
      .select({ action: aiGenerations.action })
      .from(aiGenerations)
      .where(eq(aiGenerations.userId, owner.user.id));
    expect(rows.map((r) => r.action)).toEqual(
      expect.arrayContaining(['rewrite:improve', 'rewrite:shorten', 'rewrite:rewrite', 'rewrite:translate']),
    );
  });

  it('refuses past the daily limit of the plan, and allows again the next day', async () => {
    const user = await createUser(app);
    for (let i = 0; i < 5; i++) {
      const res = await post(user, '/api/ai/rewrite', {
        action: 'shorten',
        text: 'A long sentence to shorten.',
      });
      expect(res.status).toBe(200);
      await res.text();
    }
    const before = fake.requests.length;
    const refused = await post(user, '/api/ai/rewrite', { action: 'shorten', text: 'One more.' });
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as { message: string; code: string };
    expect(body.code).toBe('rate_limited');
    expect(body.message).toBe(
      'You have used all 5 AI generations your Free plan includes today. They renew at midnight UTC. Upgrade to Starter for 50 a day.',
    );
    expect(fake.requests.length).toBe(before);
    expect((await status(user)).usedToday).toBe(5);

    advanceClock(24 * 3_600_000);
    const tomorrow = await post(user, '/api/ai/rewrite', { action: 'shorten', text: 'Tomorrow again.' });
    expect(tomorrow.status).toBe(200);
    await tomorrow.text();
  });

  it('applies the higher limits of paid plans', async () => {
    const periodEnd = new Date(Date.now() + 30 * 86_400_000);
    const cases = [
      { plan: 'starter', limit: 50, next: ' Upgrade to Growth for 200 a day.' },
      { plan: 'professional', limit: 200, next: ' Upgrade to Pro for 1000 a day.' },
      { plan: 'enterprise', limit: 1000, next: '' },
    ] as const;
    for (const { plan, limit, next } of cases) {
      const user = await createUser(app, { plan, status: 'active', periodEnd });
      expect((await status(user)).dailyLimit).toBe(limit);
      // Today's earlier generations, written as the service writes them.
      await app.services.db.insert(aiGenerations).values(
        Array.from({ length: limit - 1 }, () => ({
          userId: user.user.id,
          action: 'write:email',
          createdAt: now(),
        })),
      );
      const last = await post(user, '/api/ai/write', brief);
      expect(last.status).toBe(200);
      await last.text();
      const refused = await post(user, '/api/ai/write', brief);
      expect(refused.status).toBe(429);
      const body = (await refused.json()) as { message: string };
      expect(body.message.endsWith(`They renew at midnight UTC.${next}`)).toBe(true);
    }
  });

  it('a paid plan without a valid subscription gets the free limit', async () => {
    const user = await createUser(app, {
      plan: 'professional',
      status: 'past_due',
      periodEnd: new Date(Date.now() - 86_400_000),
    });
    expect((await status(user)).dailyLimit).toBe(5);
  });

  it('answers 503 and does not count the generation when the provider fails', async () => {
    const user = await createUser(app);
    fake.respondWith({ kind: 'error', status: 500, message: 'model overloaded' });
    const res = await post(user, '/api/ai/write', brief);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ message: AI_MESSAGES.providerFailed, code: 'unavailable' });
    expect((await status(user)).usedToday).toBe(0);
  });

  it('refuses a wrong API key as a provider failure', async () => {
    fake.requireApiKey('a-different-key');
    try {
      const user = await createUser(app);
      const res = await post(user, '/api/ai/write', brief);
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ message: AI_MESSAGES.providerFailed });
      expect((await status(user)).usedToday).toBe(0);
    } finally {
      fake.requireApiKey('sk-test-key');
    }
  });

  it('times out a provider that never answers', async () => {
    const user = await createUser(app);
    fake.respondWith({ kind: 'stall' });
    const res = await post(user, '/api/ai/write', brief);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ message: AI_MESSAGES.timedOut });
    expect((await status(user)).usedToday).toBe(0);
  });

  it('cuts the response short when the provider breaks off mid-answer', async () => {
    fake.respondWith({ kind: 'break-after', text: DEFAULT_FAKE_DRAFT });
    const res = await post(owner, '/api/ai/write', brief);
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
  });

  it('validates the brief with clear messages', async () => {
    const cases: Array<[unknown, string]> = [
      [{ ...brief, goal: 'short' }, 'Describe the goal in at least 10 characters'],
      [{ ...brief, goal: 'x'.repeat(1001) }, 'The goal must be at most 1000 characters'],
      [{ ...brief, language: 'de' }, 'Choose a supported language'],
      [{ ...brief, tone: 'angry' }, 'Choose a tone'],
      [{ ...brief, kind: 'sms' }, 'Choose an email or a newsletter'],
      [{ ...brief, audience: 'a'.repeat(501) }, 'The audience must be at most 500 characters'],
      [{ ...brief, extra: 1 }, 'Unknown field: extra'],
    ];
    for (const [payload, message] of cases) {
      const res = await as(
        app,
        owner.cookie,
      )({ method: 'POST', url: '/api/ai/write', payload: payload as object });
      expect(res.statusCode, message).toBe(400);
      expect(res.json().message).toBe(message);
    }
    const rewrites: Array<[unknown, string]> = [
      [{ action: 'translate', text: 'Bonjour' }, 'Choose the language to translate into'],
      [{ action: 'improve', text: '   ' }, 'Select the text to rewrite'],
      [{ action: 'summarise', text: 'Hello' }, 'Choose improve, shorten, rewrite or translate'],
      [{ action: 'improve', text: 'x'.repeat(20_001) }, 'Select at most 20,000 characters'],
    ];
    for (const [payload, message] of rewrites) {
      const res = await as(
        app,
        owner.cookie,
      )({ method: 'POST', url: '/api/ai/rewrite', payload: payload as object });
      expect(res.statusCode, message).toBe(400);
      expect(res.json().message).toBe(message);
    }
  });

  it("counts only the caller's own generations", async () => {
    const a = await createUser(app);
    const b = await createUser(app);
    const res = await post(a, '/api/ai/write', brief);
    await res.text();
    expect((await status(a)).usedToday).toBe(1);
    expect((await status(b)).usedToday).toBe(0);
    const rows = await app.services.db
      .select()
      .from(aiGenerations)
      .where(and(eq(aiGenerations.userId, b.user.id)));
    expect(rows).toHaveLength(0);
  });
});

describe('AI writing when the browser goes away', () => {
  // Its own app with the default 60 s time limit, so only the disconnect can end the provider call.
  let app: FastifyInstance;
  let fake: FakeAiProvider;

  beforeAll(async () => {
    fake = await startFakeAiProvider();
    app = await createTestApp({ AI_BASE_URL: fake.baseUrl, AI_MODEL: 'fake-writer-1' });
    await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app.close();
    await fake.close();
  });

  it('stops the provider call', async () => {
    const user = await createUser(app);
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    fake.respondWith({ kind: 'stall', text: 'Subject: Hello\n\n<p>First words' });
    const controller = new AbortController();
    const res = await fetch(`http://127.0.0.1:${address.port}/api/ai/write`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: user.cookie },
      body: JSON.stringify(brief),
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('Subject: Hello');
    const upstreamClosed = fake.closedEarly();
    controller.abort();
    // Without the abort the fake would hold the connection open until the test times out.
    await upstreamClosed;
    expect(
      (await as(app, user.cookie)({ method: 'GET', url: '/api/ai/status' })).json<AiStatus>().usedToday,
    ).toBe(1);
  });
});
