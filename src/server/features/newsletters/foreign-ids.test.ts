import { createUser, type TestUser } from '@tests/factories/users';
import { as, createTestApp } from '@tests/setup/test-app';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * Ids in a body that belong to another account answer 404, as a foreign id in a path does, and nothing
 * is written — not only when the newsletter or campaign is finally sent.
 */
describe('another account’s list or sender account in a body', () => {
  let app: FastifyInstance;
  let owner: TestUser;
  let stranger: TestUser;
  let own: { listId: string; senderId: string };
  let theirs: { listId: string; senderId: string };

  async function resources(user: TestUser) {
    const call = as(app, user.cookie);
    const list = await call({ method: 'POST', url: '/api/lists', payload: { name: `List ${user.email}` } });
    const sender = await call({ method: 'POST', url: '/api/sender-accounts/dev-mailbox' });
    return { listId: list.json().id as string, senderId: sender.json().id as string };
  }

  beforeAll(async () => {
    app = await createTestApp();
    owner = await createUser(app);
    stranger = await createUser(app);
    own = await resources(owner);
    theirs = await resources(stranger);
  });
  afterAll(() => app.close());

  const call = (options: InjectOptions) => as(app, owner.cookie)(options);

  it('PATCH of a draft newsletter refuses another account’s lists and sender accounts, writing nothing', async () => {
    const created = await call({
      method: 'POST',
      url: '/api/newsletters',
      payload: { kind: 'newsletter', name: 'Draft', subject: 'Hello' },
    });
    const id = created.json().id as string;
    const url = `/api/newsletters/${id}`;
    for (const payload of [
      { name: 'Renamed', listIds: [own.listId, theirs.listId] },
      { name: 'Renamed', senderAccountIds: [theirs.senderId] },
    ]) {
      const response = await call({ method: 'PATCH', url, payload });
      expect(response.statusCode, response.body).toBe(404);
      expect(response.json().code).toBe('not_found');
    }
    const stored = (await call({ method: 'GET', url })).json();
    expect(stored).toMatchObject({ name: 'Draft', listIds: [], senderAccountIds: [] });

    const own_ = await call({
      method: 'PATCH',
      url,
      payload: { listIds: [own.listId], senderAccountIds: [own.senderId] },
    });
    expect(own_.statusCode, own_.body).toBe(200);
    expect(own_.json()).toMatchObject({ listIds: [own.listId], senderAccountIds: [own.senderId] });
  });

  it('POST and PATCH of a campaign answer 404 for another account’s lists and sender accounts, writing nothing', async () => {
    const before = (await call({ method: 'GET', url: '/api/campaigns' })).json().length as number;
    const byList = await call({
      method: 'POST',
      url: '/api/campaigns',
      payload: { name: 'Foreign list', audience: { listIds: [theirs.listId] } },
    });
    expect(byList.statusCode, byList.body).toBe(404);
    const bySender = await call({
      method: 'POST',
      url: '/api/campaigns',
      payload: { name: 'Foreign sender', senderAccountIds: [theirs.senderId] },
    });
    expect(bySender.statusCode, bySender.body).toBe(404);
    expect((await call({ method: 'GET', url: '/api/campaigns' })).json()).toHaveLength(before);

    const campaign = await call({
      method: 'POST',
      url: '/api/campaigns',
      payload: { name: 'Mine', audience: { listIds: [own.listId] }, senderAccountIds: [own.senderId] },
    });
    const url = `/api/campaigns/${campaign.json().id}`;
    for (const payload of [
      { name: 'Renamed', audience: { listIds: [theirs.listId] } },
      { name: 'Renamed', senderAccountIds: [own.senderId, theirs.senderId] },
    ]) {
      const response = await call({ method: 'PATCH', url, payload });
      expect(response.statusCode, response.body).toBe(404);
      expect(response.json().code).toBe('not_found');
    }
    expect((await call({ method: 'GET', url })).json()).toMatchObject({
      name: 'Mine',
      audience: { listIds: [own.listId] },
      senderAccountIds: [own.senderId],
    });
  });
});
