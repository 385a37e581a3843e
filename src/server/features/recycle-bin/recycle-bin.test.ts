import { contactLists, directoryContacts, listContacts } from '@server/db/schema/index';
import { recycleBinListSchema } from '@shared/recycle-bin';
import { auditEntriesOf } from '@tests/factories/audit';
import { createListWithContacts, testEmails } from '@tests/factories/campaigns';
import { insertDirectoryContacts, uniqueTag } from '@tests/factories/directory';
import { createUser, type TestUser } from '@tests/factories/users';
import { as, createTestApp } from '@tests/setup/test-app';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeDeletedDirectoryContacts } from './purge-deleted-directory-contacts.job';

const DAY_MS = 86_400_000;

describe('admin recycle bin', () => {
  let app: FastifyInstance;
  let admin: TestUser;
  let owner: TestUser;

  beforeAll(async () => {
    app = await createTestApp();
    admin = await createUser(app, { role: 'super_admin' });
    owner = await createUser(app);
  });
  afterAll(() => app.close());

  const asAdmin = () => as(app, admin.cookie);
  const binOf = async (type: 'list' | 'directory_contact', query = '') => {
    const response = await asAdmin()({
      method: 'GET',
      url: `/api/admin/recycle-bin?type=${type}&limit=100${query}`,
    });
    expect(response.statusCode).toBe(200);
    return recycleBinListSchema.parse(response.json());
  };
  /** A user's list deleted through the API, as the owner would. */
  const deletedList = async (name: string) => {
    const list = await createListWithContacts(
      app,
      owner.user.id,
      testEmails(3).map((email) => ({ email })),
      { name },
    );
    const response = await as(app, owner.cookie)({ method: 'DELETE', url: `/api/lists/${list.id}` });
    expect(response.statusCode).toBeLessThan(300);
    return list.id;
  };
  const deletedRecord = async (tag: string, deletedAt = new Date()) => {
    const [row] = await insertDirectoryContacts(app, tag, [{ deletedAt }]);
    return row!;
  };

  it('answers 401 signed out and 403 to a user and a data entry officer, changing nothing', async () => {
    const listId = await deletedList(`Guarded ${uniqueTag()}`);
    const dataEntry = await createUser(app, { role: 'data_entry' });
    const requests = [
      { method: 'GET', url: '/api/admin/recycle-bin' },
      { method: 'POST', url: `/api/admin/recycle-bin/list/${listId}/restore` },
      { method: 'DELETE', url: `/api/admin/recycle-bin/list/${listId}` },
    ] as const;
    for (const request of requests) {
      expect((await app.inject(request)).statusCode).toBe(401);
      for (const who of [owner, dataEntry]) expect((await as(app, who.cookie)(request)).statusCode).toBe(403);
    }
    const [row] = await app.services.db.select().from(contactLists).where(eq(contactLists.id, listId));
    expect(row?.deletedAt).not.toBeNull();
  });

  it("lists users' deleted lists with their owner and size, and when they will be purged", async () => {
    const name = `Lagos buyers ${uniqueTag()}`;
    const listId = await deletedList(name);
    const bin = await binOf('list');
    const item = bin.items.find((i) => i.id === listId);
    expect(item).toMatchObject({ type: 'list', name, ownerEmail: owner.email, size: 3 });
    expect(new Date(item!.purgeAt).getTime() - new Date(item!.deletedAt).getTime()).toBe(30 * DAY_MS);
    expect(bin.counts.list).toBeGreaterThanOrEqual(1);
    expect(bin.retentionDays).toBe(30);
  });

  it('restores a list to its owner, audited', async () => {
    const name = `Restore me ${uniqueTag()}`;
    const listId = await deletedList(name);
    const response = await asAdmin()({
      method: 'POST',
      url: `/api/admin/recycle-bin/list/${listId}/restore`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toContain(name);
    const lists = await as(app, owner.cookie)({ method: 'GET', url: '/api/lists' });
    expect(JSON.stringify(lists.json())).toContain(listId);
    const entries = await auditEntriesOf(app, admin.user.id);
    expect(entries.find((e) => e.action === 'recycle_bin.restore' && e.targetId === listId)).toMatchObject({
      targetType: 'list',
      details: { ownerId: owner.user.id, name },
    });
    const again = await asAdmin()({ method: 'POST', url: `/api/admin/recycle-bin/list/${listId}/restore` });
    expect(again.statusCode).toBe(404);
  });

  it('purges a list for good with its contacts, audited; a live list cannot be purged', async () => {
    const listId = await deletedList(`Purge me ${uniqueTag()}`);
    const response = await asAdmin()({ method: 'DELETE', url: `/api/admin/recycle-bin/list/${listId}` });
    expect(response.statusCode).toBe(200);
    expect(await app.services.db.select().from(contactLists).where(eq(contactLists.id, listId))).toHaveLength(
      0,
    );
    expect(
      await app.services.db.select().from(listContacts).where(eq(listContacts.listId, listId)),
    ).toHaveLength(0);
    const entries = await auditEntriesOf(app, admin.user.id);
    expect(entries.some((e) => e.action === 'recycle_bin.purge' && e.targetId === listId)).toBe(true);

    const live = await createListWithContacts(app, owner.user.id, [], { name: `Live ${uniqueTag()}` });
    const refused = await asAdmin()({ method: 'DELETE', url: `/api/admin/recycle-bin/list/${live.id}` });
    expect(refused.statusCode).toBe(404);
    expect(
      await app.services.db.select().from(contactLists).where(eq(contactLists.id, live.id)),
    ).toHaveLength(1);
  });

  it('restores and purges deleted directory records; a record whose address is taken again stays', async () => {
    const tag = uniqueTag();
    const record = await deletedRecord(tag);
    const bin = await binOf('directory_contact');
    expect(bin.items.find((i) => i.id === record.id)).toMatchObject({
      type: 'directory_contact',
      name: record.companyName,
      ownerEmail: null,
    });

    // A live record took the address meanwhile: restoring would hold it twice.
    await insertDirectoryContacts(app, tag, [{ companyName: `${tag} New owner` }]);
    const clash = await asAdmin()({
      method: 'POST',
      url: `/api/admin/recycle-bin/directory_contact/${record.id}/restore`,
    });
    expect(clash.statusCode).toBe(409);

    const other = await deletedRecord(uniqueTag());
    const restored = await asAdmin()({
      method: 'POST',
      url: `/api/admin/recycle-bin/directory_contact/${other.id}/restore`,
    });
    expect(restored.statusCode).toBe(200);
    const [back] = await app.services.db
      .select()
      .from(directoryContacts)
      .where(eq(directoryContacts.id, other.id));
    expect(back?.deletedAt).toBeNull();

    const purged = await asAdmin()({
      method: 'DELETE',
      url: `/api/admin/recycle-bin/directory_contact/${record.id}`,
    });
    expect(purged.statusCode).toBe(200);
    expect(
      await app.services.db.select().from(directoryContacts).where(eq(directoryContacts.id, record.id)),
    ).toHaveLength(0);
    const actions = (await auditEntriesOf(app, admin.user.id)).map((e) => `${e.action}:${e.targetId}`);
    expect(actions).toContain(`recycle_bin.restore:${other.id}`);
    expect(actions).toContain(`recycle_bin.purge:${record.id}`);
  });

  it('pages with a cursor, most recently deleted first', async () => {
    const tag = uniqueTag();
    for (let i = 0; i < 3; i++) await deletedRecord(`${tag}${i}`, new Date(Date.now() - i * 60_000));
    const first = await asAdmin()({
      method: 'GET',
      url: '/api/admin/recycle-bin?type=directory_contact&limit=2',
    });
    const page1 = recycleBinListSchema.parse(first.json());
    expect(page1.items).toHaveLength(2);
    expect(page1.nextCursor).not.toBeNull();
    const second = await asAdmin()({
      method: 'GET',
      url: `/api/admin/recycle-bin?type=directory_contact&limit=2&cursor=${page1.nextCursor}`,
    });
    const page2 = recycleBinListSchema.parse(second.json());
    expect(page2.items[0]!.deletedAt <= page1.items[1]!.deletedAt).toBe(true);
    expect(page2.items.map((i) => i.id)).not.toContain(page1.items[1]!.id);
    const bad = await asAdmin()({ method: 'GET', url: '/api/admin/recycle-bin?type=list&cursor=nonsense' });
    expect(bad.statusCode).toBe(400);
  });

  it('the purge job deletes directory records deleted over 30 days ago and keeps younger ones', async () => {
    const old = await deletedRecord(uniqueTag(), new Date(Date.now() - 31 * DAY_MS));
    const young = await deletedRecord(uniqueTag(), new Date(Date.now() - 29 * DAY_MS));
    const live = (await insertDirectoryContacts(app, uniqueTag(), [{}]))[0]!;
    const result = await purgeDeletedDirectoryContacts({ db: app.services.db });
    expect(result.directoryContacts).toBeGreaterThanOrEqual(1);
    const ids = (await app.services.db.select({ id: directoryContacts.id }).from(directoryContacts)).map(
      (r) => r.id,
    );
    expect(ids).not.toContain(old.id);
    expect(ids).toContain(young.id);
    expect(ids).toContain(live.id);
  });
});
