import type { InboxItem, InboxPage } from '@shared/inbox';
import { answerTo } from '@tests/factories/inbound';
import { createCampaignWithMessage } from '@tests/factories/sending';
import { createUser, type TestUser } from '@tests/factories/users';
import { type FakeAiProvider, startFakeAiProvider } from '@tests/fakes/ai-provider';
import { as, createTestApp } from '@tests/setup/test-app';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processInboundMessage } from '../inbound/inbound.service';
import { readCategory } from './inbox-suggest';

let app: FastifyInstance;
let ai: FakeAiProvider;

beforeAll(async () => {
  ai = await startFakeAiProvider();
  app = await createTestApp({ AI_BASE_URL: ai.baseUrl, AI_MODEL: 'fake-model' });
});
afterAll(async () => {
  await app.close();
  await ai.close();
});

async function answered(owner: TestUser): Promise<InboxItem> {
  const sent = await createCampaignWithMessage(app, { userId: owner.user.id });
  await processInboundMessage({
    db: app.services.db,
    log: app.log,
    raw: answerTo('human-reply.eml', { messageId: sent.message.messageId! }),
    senderAccountId: sent.account.id,
  });
  const page = (await as(app, owner.cookie)({ method: 'GET', url: '/api/inbox' })).json<InboxPage>();
  return page.items[0]!;
}

describe('an AI suggestion of the category', () => {
  it("asks the configured provider, answers its category without storing it, and 404s on another user's message", async () => {
    const owner = await createUser(app);
    const item = await answered(owner);
    ai.respondWith({ kind: 'text', text: 'not_now' });
    const call = as(app, owner.cookie);
    const response = await call({ method: 'POST', url: `/api/inbox/${item.id}/suggest-category` });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ category: 'not_now' });
    expect(ai.requests.at(-1)!.prompt).toContain('can we talk Tuesday?');
    const after = (await call({ method: 'GET', url: '/api/inbox' })).json<InboxPage>();
    expect(after.items[0]!.category).toBe(item.category);

    const other = await createUser(app);
    const stranger = await as(
      app,
      other.cookie,
    )({ method: 'POST', url: `/api/inbox/${item.id}/suggest-category` });
    expect(stranger.statusCode).toBe(404);
  });

  it('reads the category an answer names, ids or labels, and none from nonsense', () => {
    expect(readCategory('meeting_request')).toBe('meeting_request');
    expect(readCategory('Not interested.')).toBe('not_interested');
    expect(readCategory('Category: Out of office')).toBe('out_of_office');
    expect(readCategory('I cannot tell')).toBeNull();
  });
});
