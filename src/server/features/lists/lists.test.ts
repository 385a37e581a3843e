import { contactLists, listContacts, users } from '@server/db/schema/index';
import type { ContactList, ListContact } from '@shared/lists';
import { createUser, type TestUser } from '@tests/factories/users';
import { as, createTestApp } from '@tests/setup/test-app';
import { parse } from 'csv-parse/sync';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { escapeCsvCell } from './list-export';
import { getListRow } from './lists.service';
import { purgeDeletedLists } from './purge-deleted-lists.job';

const DAY = 86_400_000;

describe('lists API', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  const call = (user: TestUser) => as(app, user.cookie);
  const membersOf = (listId: string) =>
    app.services.db.select({ id: listContacts.id }).from(listContacts).where(eq(listContacts.listId, listId));
  async function newList(user: TestUser, payload: Record<string, unknown> = {}): Promise<ContactList> {
    const response = await call(user)({
      method: 'POST',
      url: '/api/lists',
      payload: { name: 'Prospects', ...payload },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  }
  async function addContact(user: TestUser, listId: string, payload: Record<string, unknown>) {
    return call(user)({ method: 'POST', url: `/api/lists/${listId}/contacts`, payload });
  }

  it('answers 401 without a session', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/lists' })).statusCode).toBe(401);
    expect((await app.inject({ method: 'POST', url: '/api/lists', payload: { name: 'x' } })).statusCode).toBe(
      401,
    );
  });

  describe('lists', () => {
    it('creates, lists with counts, renames and refuses a duplicate name', async () => {
      const user = await createUser(app);
      const list = await newList(user, {
        name: 'Lagos retailers',
        description: 'From the expo',
        customFields: ['deal_size'],
      });
      expect(list).toMatchObject({
        name: 'Lagos retailers',
        description: 'From the expo',
        customFields: ['deal_size'],
        contactCount: 0,
      });
      await addContact(user, list.id, { email: 'ada@example.com' });

      const all = await call(user)({ method: 'GET', url: '/api/lists' });
      expect(all.json().lists).toEqual([expect.objectContaining({ id: list.id, contactCount: 1 })]);

      const duplicate = await call(user)({
        method: 'POST',
        url: '/api/lists',
        payload: { name: 'LAGOS RETAILERS' },
      });
      expect(duplicate.statusCode).toBe(409);

      const renamed = await call(user)({
        method: 'PATCH',
        url: `/api/lists/${list.id}`,
        payload: { name: 'Lagos shops' },
      });
      expect(renamed.statusCode).toBe(200);
      expect(renamed.json()).toMatchObject({ name: 'Lagos shops', customFields: ['deal_size'] });

      const other = await newList(user, { name: 'Other' });
      const clash = await call(user)({
        method: 'PATCH',
        url: `/api/lists/${other.id}`,
        payload: { name: 'lagos shops' },
      });
      expect(clash.statusCode).toBe(409);
    });

    it('refuses bad custom field names', async () => {
      const user = await createUser(app);
      for (const customFields of [['Deal Size'], ['email'], ['a', 'a']]) {
        const response = await call(user)({
          method: 'POST',
          url: '/api/lists',
          payload: { name: 'x', customFields },
        });
        expect(response.statusCode).toBe(400);
      }
    });

    it('moves a deleted list to the recycle bin, restores it, and purges it after 30 days', async () => {
      const user = await createUser(app);
      const list = await newList(user, { name: 'Old leads' });
      await addContact(user, list.id, { email: 'kofi@example.com' });

      const deleted = await call(user)({ method: 'DELETE', url: `/api/lists/${list.id}` });
      expect(deleted.statusCode).toBe(200);
      expect((await call(user)({ method: 'GET', url: '/api/lists' })).json().lists).toEqual([]);
      expect((await call(user)({ method: 'GET', url: `/api/lists/${list.id}` })).statusCode).toBe(404);

      const bin = (await call(user)({ method: 'GET', url: '/api/lists/recycle-bin' })).json().lists;
      expect(bin).toHaveLength(1);
      expect(bin[0]).toMatchObject({ id: list.id, name: 'Old leads', contactCount: 1 });
      expect(Date.parse(bin[0].purgeAt) - Date.parse(bin[0].deletedAt)).toBe(30 * DAY);

      // A new list took the name meanwhile: the restored one is renamed, not refused.
      await newList(user, { name: 'Old leads' });
      const restored = await call(user)({ method: 'POST', url: `/api/lists/${list.id}/restore` });
      expect(restored.statusCode).toBe(200);
      expect(restored.json()).toMatchObject({ id: list.id, name: 'Old leads (restored)', contactCount: 1 });
      expect(
        (await call(user)({ method: 'GET', url: `/api/lists/${list.id}/contacts` })).json().items,
      ).toHaveLength(1);

      // Purge: not before 30 days, then for good.
      await call(user)({ method: 'DELETE', url: `/api/lists/${list.id}` });
      await purgeDeletedLists({ db: app.services.db });
      expect((await call(user)({ method: 'GET', url: '/api/lists/recycle-bin' })).json().lists).toHaveLength(
        1,
      );
      // Age this list's deletion instead of moving the clock, so other tests' recycle bins are left alone.
      await app.services.db
        .update(contactLists)
        .set({ deletedAt: new Date(Date.now() - 31 * DAY) })
        .where(eq(contactLists.id, list.id));
      await purgeDeletedLists({ db: app.services.db });
      expect((await call(user)({ method: 'GET', url: '/api/lists/recycle-bin' })).json().lists).toEqual([]);
      expect((await call(user)({ method: 'POST', url: `/api/lists/${list.id}/restore` })).statusCode).toBe(
        404,
      );
      // Its members went with it (list_contacts has no foreign key: a trigger on contact_lists does this).
      expect(await membersOf(list.id)).toEqual([]);
    });

    // PostgreSQL only: PGlite runs one transaction at a time, so the race cannot happen there.
    it.skipIf(!inject('databaseUrl'))(
      'a list deleted while members are being added keeps none of them (the writer holds the list row)',
      async () => {
        const user = await createUser(app);
        const list = await newList(user, { name: 'Racing' });
        let finishAdding!: () => void;
        const adding = new Promise<void>((resolve) => {
          finishAdding = resolve;
        });
        let holding!: () => void;
        const locked = new Promise<void>((resolve) => {
          holding = resolve;
        });
        const writer = app.services.db.transaction(async (trx) => {
          const tx = trx as unknown as typeof app.services.db;
          const row = await getListRow({ db: tx, userId: user.user.id, id: list.id, forNewMembers: true });
          // Found the list; the member is written after the delete has started.
          holding();
          await adding;
          await tx.insert(listContacts).values({
            userId: user.user.id,
            listId: row.id,
            email: 'efe@example.com',
            emailNormalized: 'efe@example.com',
            source: 'manual',
          });
        });
        // The delete starts once the writer has found the list and before it writes the member (a writer
        // that failed first ends the wait too, and `await writer` reports it).
        await Promise.race([locked, writer]);
        let deleted = false;
        let deleter: Promise<void> = Promise.resolve();
        try {
          deleter = app.services.db
            .delete(contactLists)
            .where(eq(contactLists.id, list.id))
            .then(() => {
              deleted = true;
            });
          // The delete waits for the writer's lock on the list row…
          await new Promise((resolve) => setTimeout(resolve, 300));
          expect(deleted).toBe(false);
        } finally {
          finishAdding();
        }
        await writer;
        await deleter;
        // …then its trigger removes what the writer committed: no member outlives its list.
        expect(await membersOf(list.id)).toEqual([]);
      },
    );

    it("deletes every list's members with the account, and never adds to a list that is gone", async () => {
      const user = await createUser(app);
      const kept = await newList(user, { name: 'Kano' });
      await addContact(user, kept.id, { email: 'amina@example.com' });
      await addContact(user, kept.id, { email: 'bello@example.com' });
      const other = await createUser(app);
      const othersList = await newList(other, { name: 'Abuja' });
      await addContact(other, othersList.id, { email: 'chidi@example.com' });
      expect(await membersOf(kept.id)).toHaveLength(2);

      await app.services.db.delete(users).where(eq(users.id, user.user.id));
      expect(await membersOf(kept.id)).toEqual([]);
      expect(await membersOf(othersList.id)).toHaveLength(1);

      // A list deleted for good cannot take members: its owner's API answers 404 and nothing is written.
      await app.services.db.delete(contactLists).where(eq(contactLists.id, othersList.id));
      const late = await addContact(other, othersList.id, { email: 'dayo@example.com' });
      expect(late.statusCode).toBe(404);
      expect(await membersOf(othersList.id)).toEqual([]);
    });

    it('deletes a list in the recycle bin for good on request, and only from the bin', async () => {
      const user = await createUser(app);
      const list = await newList(user);
      expect(
        (await call(user)({ method: 'DELETE', url: `/api/lists/${list.id}/permanent` })).statusCode,
      ).toBe(404);
      await call(user)({ method: 'DELETE', url: `/api/lists/${list.id}` });
      expect(
        (await call(user)({ method: 'DELETE', url: `/api/lists/${list.id}/permanent` })).statusCode,
      ).toBe(200);
      expect((await call(user)({ method: 'GET', url: '/api/lists/recycle-bin' })).json().lists).toEqual([]);
    });
  });

  describe('members', () => {
    it('adds one by hand, normalising the address and flagging role addresses', async () => {
      const user = await createUser(app);
      const list = await newList(user, { customFields: ['deal_size'] });
      const response = await addContact(user, list.id, {
        email: '  Info@Example.COM ',
        firstName: 'Amaka',
        company: 'Kola Foods',
        countryCode: 'ng',
        customFields: { deal_size: '₦2,000,000' },
      });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json()).toMatchObject({
        email: 'Info@example.com',
        firstName: 'Amaka',
        company: 'Kola Foods',
        countryCode: 'NG',
        roleAddress: true,
        source: 'manual',
        customFields: { deal_size: '₦2,000,000' },
      });

      const duplicate = await addContact(user, list.id, { email: 'info@example.com' });
      expect(duplicate.statusCode).toBe(409);
      expect(duplicate.json().message).toBe('This email address is already in the list.');

      const badField = await addContact(user, list.id, {
        email: 'b@example.com',
        customFields: { colour: 'red' },
      });
      expect(badField.statusCode).toBe(400);
      expect(badField.json().message).toContain('colour');

      expect((await addContact(user, list.id, { email: 'not-an-email' })).statusCode).toBe(400);
      expect((await call(user)({ method: 'GET', url: `/api/lists/${list.id}` })).json().contactCount).toBe(1);
    });

    it('edits one contact, keeping custom field values it was not sent', async () => {
      const user = await createUser(app);
      const list = await newList(user, { customFields: ['deal_size', 'stage'] });
      const contact = (
        await addContact(user, list.id, {
          email: 'tunde@example.com',
          customFields: { deal_size: '5', stage: 'new' },
        })
      ).json();
      await addContact(user, list.id, { email: 'bisi@example.com' });

      const edited = await call(user)({
        method: 'PATCH',
        url: `/api/lists/${list.id}/contacts/${contact.id}`,
        payload: { lastName: 'Bakare', customFields: { stage: 'won' } },
      });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json()).toMatchObject({
        email: 'tunde@example.com',
        lastName: 'Bakare',
        customFields: { deal_size: '5', stage: 'won' },
      });

      const clash = await call(user)({
        method: 'PATCH',
        url: `/api/lists/${list.id}/contacts/${contact.id}`,
        payload: { email: 'BISI@example.com' },
      });
      expect(clash.statusCode).toBe(409);
    });

    it('pages members by keyset without gaps, searches them, and removes several at once', async () => {
      const user = await createUser(app);
      const list = await newList(user);
      for (let i = 0; i < 12; i++) {
        await addContact(user, list.id, {
          email: `person${i}@example.com`,
          company: i % 3 === 0 ? 'Baobab Ltd' : 'Other',
        });
      }
      const seen: ListContact[] = [];
      let cursor: string | null = null;
      do {
        const response = await call(user)({
          method: 'GET',
          url: `/api/lists/${list.id}/contacts?limit=5${cursor ? `&cursor=${cursor}` : ''}`,
        });
        const body = response.json<{ items: ListContact[]; nextCursor: string | null }>();
        seen.push(...body.items);
        cursor = body.nextCursor;
      } while (cursor);
      expect(seen.map((c) => c.email)).toEqual(
        Array.from({ length: 12 }, (_, i) => `person${i}@example.com`),
      );

      const found = await call(user)({ method: 'GET', url: `/api/lists/${list.id}/contacts?q=baobab` });
      expect(found.json().items).toHaveLength(4);

      const removed = await call(user)({
        method: 'DELETE',
        url: `/api/lists/${list.id}/contacts`,
        payload: { ids: seen.slice(0, 3).map((c) => c.id) },
      });
      expect(removed.json()).toEqual({ removed: 3 });
      expect((await call(user)({ method: 'GET', url: `/api/lists/${list.id}` })).json().contactCount).toBe(9);
    });

    it('stops a Free plan user at 500 contacts across lists', async () => {
      const user = await createUser(app);
      const list = await newList(user);
      const values = Array.from({ length: 500 }, (_, i) => ({
        userId: user.user.id,
        listId: list.id,
        email: `bulk${i}@example.com`,
        emailNormalized: `bulk${i}@example.com`,
        source: 'import' as const,
      }));
      await app.services.db.insert(listContacts).values(values);
      const response = await addContact(user, list.id, { email: 'one-more@example.com' });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ reason: 'plan_limit', limit: 'recipients' });
      expect((await call(user)({ method: 'GET', url: `/api/lists/${list.id}` })).json().contactCount).toBe(
        500,
      );
    });
  });

  describe('export', () => {
    it('streams a CSV with custom fields and every dangerous cell defused', async () => {
      const user = await createUser(app);
      const list = await newList(user, { name: 'Export me!', customFields: ['note'] });
      await addContact(user, list.id, {
        email: 'eve@example.com',
        firstName: '=HYPERLINK("http://evil.example","click")',
        lastName: '+2348030000000',
        company: '@SUM(A1:A2)',
        jobTitle: '-1+1',
        city: 'Ọ̀yọ́',
        customFields: { note: '\t=cmd' },
      });
      await addContact(user, list.id, { email: 'ade@example.com', firstName: 'Ade' });

      const response = await call(user)({ method: 'GET', url: `/api/lists/${list.id}/export.csv` });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/csv');
      expect(response.headers['content-disposition']).toBe('attachment; filename="export-me.csv"');
      const body = response.body.replace(/^\uFEFF/, '');
      const rows = parse(body, { columns: true }) as Record<string, string>[];
      expect(Object.keys(rows[0]!)).toEqual([
        'email',
        'first_name',
        'last_name',
        'company',
        'job_title',
        'phone',
        'website',
        'city',
        'country_code',
        'note',
        'source',
        'added_at',
      ]);
      expect(rows[0]).toMatchObject({
        email: 'eve@example.com',
        first_name: `'=HYPERLINK("http://evil.example","click")`,
        last_name: "'+2348030000000",
        company: "'@SUM(A1:A2)",
        job_title: "'-1+1",
        city: 'Ọ̀yọ́',
        note: "'\t=cmd",
        source: 'manual',
      });
      expect(rows[1]).toMatchObject({ email: 'ade@example.com', first_name: 'Ade', note: '' });
    });

    it('escapes each formula trigger and leaves other text alone', () => {
      expect(escapeCsvCell('=1+1')).toBe("'=1+1");
      expect(escapeCsvCell('\r=1')).toBe("'\r=1");
      expect(escapeCsvCell('Kola = nut')).toBe('Kola = nut');
      expect(escapeCsvCell(null)).toBe('');
    });
  });

  it("answers 404 for another user's list on every route", async () => {
    const owner = await createUser(app);
    const intruder = await createUser(app);
    const list = await newList(owner, { customFields: ['x'] });
    const contact = (await addContact(owner, list.id, { email: 'private@example.com' })).json();
    const base = `/api/lists/${list.id}`;
    const attempts = [
      { method: 'GET', url: base },
      { method: 'PATCH', url: base, payload: { name: 'Mine now' } },
      { method: 'GET', url: `${base}/contacts` },
      { method: 'POST', url: `${base}/contacts`, payload: { email: 'x@example.com' } },
      { method: 'PATCH', url: `${base}/contacts/${contact.id}`, payload: { firstName: 'X' } },
      { method: 'DELETE', url: `${base}/contacts`, payload: { ids: [contact.id] } },
      { method: 'GET', url: `${base}/export.csv` },
      { method: 'DELETE', url: base },
      { method: 'POST', url: `${base}/restore` },
      { method: 'DELETE', url: `${base}/permanent` },
    ] as const;
    for (const attempt of attempts) {
      const response = await call(intruder)(attempt);
      expect(response.statusCode, `${attempt.method} ${attempt.url}`).toBe(404);
    }
    // The owner's list is untouched; the owner's deleted list is still invisible to the intruder.
    expect((await call(owner)({ method: 'GET', url: `${base}/contacts` })).json().items).toHaveLength(1);
    await call(owner)({ method: 'DELETE', url: base });
    expect((await call(intruder)({ method: 'POST', url: `${base}/restore` })).statusCode).toBe(404);
    expect((await call(intruder)({ method: 'GET', url: '/api/lists/recycle-bin' })).json().lists).toEqual([]);
    // A contact id from another list answers 404 even for the owner's own list.
    const second = await newList(owner, { name: 'Second' });
    expect(
      (
        await call(owner)({
          method: 'PATCH',
          url: `/api/lists/${second.id}/contacts/${contact.id}`,
          payload: { firstName: 'Y' },
        })
      ).statusCode,
    ).toBe(404);
  });
});
