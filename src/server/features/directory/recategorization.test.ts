import { directoryContacts } from '@server/db/schema/index';
import type { Recategorization, RecategorizationPreview } from '@shared/recategorization';
import { auditEntriesOf } from '@tests/factories/audit';
import { insertDirectoryContacts, uniqueTag } from '@tests/factories/directory';
import { createUser, type TestUser } from '@tests/factories/users';
import { as, createTestApp } from '@tests/setup/test-app';
import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe('recategorization', () => {
  let app: FastifyInstance;
  let admin: TestUser;
  beforeAll(async () => {
    app = await createTestApp();
    admin = await createUser(app, { role: 'super_admin' });
  });
  afterAll(() => app.close());

  const call = (user: TestUser) => as(app, user.cookie);

  it('previews, applies in batches, and undoes all but what was edited since', async () => {
    const tag = uniqueTag();
    // 2,100 haulage firms filed under retail in Nigeria (three batches), a few in Ghana, and others.
    const wrong = await insertDirectoryContacts(
      app,
      tag,
      Array.from({ length: 2100 }, (_, i) => ({
        companyName: `${tag} Haulage ${i}`,
        email: `${tag.toLowerCase()}-h${i}@example.test`,
        category: 'retail',
      })),
    );
    await insertDirectoryContacts(app, `${tag}g`, [
      { companyName: `${tag} Haulage Accra`, countryCode: 'GH', category: 'retail' },
    ]);
    await insertDirectoryContacts(app, `${tag}x`, [{ companyName: `${tag} Bakery`, category: 'retail' }]);
    const rule = {
      keyword: `${tag} Haul`,
      fromCategories: ['retail'],
      countries: ['NG'],
      toCategory: 'logistics',
    };

    const preview = await call(admin)({
      method: 'POST',
      url: '/api/admin/recategorizations/preview',
      payload: rule,
    });
    expect(preview.statusCode, preview.body).toBe(200);
    const body = preview.json<RecategorizationPreview>();
    expect(body.count).toBe(2100);
    expect(body.sample).toHaveLength(20);
    expect(body.sample.every((row) => row.countryCode === 'NG' && row.category === 'retail')).toBe(true);

    const applied = await call(admin)({ method: 'POST', url: '/api/admin/recategorizations', payload: rule });
    expect(applied.statusCode, applied.body).toBe(201);
    const move = applied.json<Recategorization>();
    expect(move).toMatchObject({ moved: 2100, state: 'applied' });
    const categories = async (ids: string[]) =>
      (
        await app.services.db
          .select({ id: directoryContacts.id, category: directoryContacts.category })
          .from(directoryContacts)
          .where(inArray(directoryContacts.id, ids))
      ).map((row) => row.category);
    expect(new Set(await categories(wrong.map((row) => row.id)))).toEqual(new Set(['logistics']));
    // The Ghanaian firm and the bakery were outside the rule.
    const [accra] = await app.services.db
      .select()
      .from(directoryContacts)
      .where(eq(directoryContacts.companyName, `${tag} Haulage Accra`));
    expect(accra?.category).toBe('retail');

    // An officer corrects one record meanwhile: the undo leaves it alone.
    await app.services.db
      .update(directoryContacts)
      .set({ category: 'warehousing' })
      .where(eq(directoryContacts.id, wrong[0]!.id));
    const undone = await call(admin)({ method: 'POST', url: `/api/admin/recategorizations/${move.id}/undo` });
    expect(undone.statusCode, undone.body).toBe(200);
    expect(undone.json<Recategorization>()).toMatchObject({ state: 'undone', restored: 2099 });
    expect(await categories([wrong[0]!.id])).toEqual(['warehousing']);
    expect(new Set(await categories(wrong.slice(1).map((row) => row.id)))).toEqual(new Set(['retail']));
    expect(
      (await call(admin)({ method: 'POST', url: `/api/admin/recategorizations/${move.id}/undo` })).statusCode,
    ).toBe(409);

    const history = await call(admin)({ method: 'GET', url: '/api/admin/recategorizations' });
    expect(history.json<{ moves: Recategorization[] }>().moves[0]?.id).toBe(move.id);
    const actions = (await auditEntriesOf(app, admin.user.id))
      .filter((entry) => entry.targetId === move.id)
      .map((entry) => entry.action);
    expect(actions).toEqual(['directory.recategorized', 'directory.recategorization_undone']);
  });

  it('refuses a rule that would match everything, one that matches nothing, and other roles', async () => {
    const tooBroad = await call(admin)({
      method: 'POST',
      url: '/api/admin/recategorizations/preview',
      payload: { keyword: 'a', toCategory: 'logistics' },
    });
    expect(tooBroad.statusCode).toBe(400);
    const nothing = await call(admin)({
      method: 'POST',
      url: '/api/admin/recategorizations',
      payload: { keyword: uniqueTag(), toCategory: 'logistics' },
    });
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json<{ message: string }>().message).toBe('No record matches this rule');
    const unknownCategory = await call(admin)({
      method: 'POST',
      url: '/api/admin/recategorizations/preview',
      payload: { keyword: 'haulage', toCategory: 'not-a-category' },
    });
    expect(unknownCategory.statusCode).toBe(400);
    const officer = await createUser(app, { role: 'data_entry' });
    for (const url of ['/api/admin/recategorizations/preview', '/api/admin/recategorizations']) {
      const response = await call(officer)({
        method: 'POST',
        url,
        payload: { keyword: 'haulage', toCategory: 'logistics' },
      });
      expect(response.statusCode).toBe(403);
    }
    const missing = await call(admin)({
      method: 'POST',
      url: '/api/admin/recategorizations/00000000-0000-4000-8000-000000000000/undo',
    });
    expect(missing.statusCode).toBe(404);
  });
});
