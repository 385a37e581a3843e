import type { DirectoryContact } from '@shared/directory';
import { auditEntriesOf } from '@tests/factories/audit';
import { insertDirectoryContacts, uniqueTag } from '@tests/factories/directory';
import { createUser, type TestUser } from '@tests/factories/users';
import { as, createTestApp } from '@tests/setup/test-app';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildDirectoryFacets } from './directory-admin.service';

describe('admin directory API', () => {
  let app: FastifyInstance;
  let admin: TestUser;
  let viewer: TestUser;
  beforeAll(async () => {
    app = await createTestApp({ LEADS_RATE_LIMIT_MAX: '100000' });
    admin = await createUser(app, { role: 'super_admin' });
    viewer = await createUser(app, {
      plan: 'enterprise',
      status: 'active',
      periodEnd: new Date(Date.now() + 86_400_000),
    });
  });
  afterAll(() => app.close());

  const call = (user: TestUser) => as(app, user.cookie);
  const list = async (params: string) => {
    const response = await call(admin)({ method: 'GET', url: `/api/admin/directory?${params}` });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ items: DirectoryContact[]; nextCursor: string | null }>();
  };
  const leadCount = async (city: string) =>
    (await call(viewer)({ method: 'GET', url: `/api/leads/count?city=${encodeURIComponent(city)}` })).json()
      .count;

  it('is for super admins only', async () => {
    const officer = await createUser(app, { role: 'data_entry' });
    expect((await app.inject({ method: 'GET', url: '/api/admin/directory' })).statusCode).toBe(401);
    expect((await call(officer)({ method: 'GET', url: '/api/admin/directory' })).statusCode).toBe(403);
    expect((await call(viewer)({ method: 'GET', url: '/api/admin/directory' })).statusCode).toBe(403);
    const bulk = await call(officer)({
      method: 'POST',
      url: '/api/admin/directory/bulk-delete',
      payload: { ids: ['00000000-0000-4000-8000-000000000000'] },
    });
    expect(bulk.statusCode).toBe(403);
  });

  it('searches with the lead filters plus source, status and deleted rows', async () => {
    const tag = uniqueTag();
    const city = `${tag}ville`;
    await insertDirectoryContacts(app, tag, [
      { companyName: `${tag} A`, source: 'import', verificationStatus: 'verified' },
      { companyName: `${tag} B`, source: 'scraper', verificationStatus: 'invalid', invalidReason: 'bounce' },
      { companyName: `${tag} C`, source: 'import', deletedAt: new Date() },
    ]);
    const names = (body: { items: DirectoryContact[] }) => body.items.map((c) => c.companyName).sort();
    expect(names(await list(`city=${city}`))).toEqual([`${tag} A`, `${tag} B`]);
    expect(names(await list(`city=${city}&source=import`))).toEqual([`${tag} A`]);
    expect(names(await list(`city=${city}&status=invalid`))).toEqual([`${tag} B`]);
    expect(names(await list(`city=${city}&includeDeleted=true`))).toEqual([
      `${tag} A`,
      `${tag} B`,
      `${tag} C`,
    ]);
    expect(names(await list(`city=${city}&deletedOnly=true`))).toEqual([`${tag} C`]);
    expect(names(await list(`q=${tag}&source=import,scraper`))).toEqual([`${tag} A`, `${tag} B`]);
    const counted = await call(admin)({
      method: 'GET',
      url: `/api/admin/directory/count?city=${city}&includeDeleted=1`,
    });
    expect(counted.json()).toEqual({ count: 3, capped: false });
  });

  it('edits a contact and audits the change', async () => {
    const tag = uniqueTag();
    const [row] = await insertDirectoryContacts(app, tag, [{ companyName: `${tag} Old` }]);
    const response = await call(admin)({
      method: 'PATCH',
      url: `/api/admin/directory/${row!.id}`,
      payload: { companyName: `${tag} New`, category: 'banking' },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ companyName: `${tag} New`, category: 'banking' });
    const entries = await auditEntriesOf(app, admin.user.id);
    const entry = entries.find((e) => e.action === 'directory.update' && e.targetId === row!.id);
    expect(entry?.details).toMatchObject({
      changes: {
        companyName: { from: `${tag} Old`, to: `${tag} New` },
        category: { from: 'logistics', to: 'banking' },
      },
    });
  });

  it('bulk-verifies, recategorises, deletes and restores, keeping audience counts right and auditing each', async () => {
    const tag = uniqueTag();
    const city = `${tag}ville`;
    const rows = await insertDirectoryContacts(
      app,
      tag,
      Array.from({ length: 4 }, () => ({})),
    );
    const ids = rows.map((r) => r.id);
    const bulk = (action: string, payload: Record<string, unknown>) =>
      call(admin)({ method: 'POST', url: `/api/admin/directory/${action}`, payload });
    expect(await leadCount(city)).toBe(4);

    const verified = await bulk('bulk-verify', { ids: ids.slice(0, 2), status: 'verified' });
    expect(verified.json()).toEqual({ updated: 2, skipped: 0 });
    expect(
      (await call(viewer)({ method: 'GET', url: `/api/leads/count?city=${city}&verifiedOnly=true` })).json()
        .count,
    ).toBe(2);

    expect((await bulk('bulk-verify', { ids: [ids[3]], status: 'invalid' })).statusCode).toBe(400);
    const invalid = await bulk('bulk-verify', { ids: [ids[3]], status: 'invalid', reason: 'Domain expired' });
    expect(invalid.json()).toEqual({ updated: 1, skipped: 0 });
    expect(await leadCount(city)).toBe(3);

    const moved = await bulk('bulk-recategorize', { ids: ids.slice(0, 3), category: 'fintech' });
    expect(moved.json()).toEqual({ updated: 3, skipped: 0 });
    expect(
      (await call(viewer)({ method: 'GET', url: `/api/leads/count?city=${city}&category=fintech` })).json()
        .count,
    ).toBe(3);
    expect((await bulk('bulk-recategorize', { ids, category: 'astrology' })).statusCode).toBe(400);

    const deleted = await bulk('bulk-delete', {
      ids: [ids[0], ids[1], '00000000-0000-4000-8000-000000000000'],
    });
    expect(deleted.json()).toEqual({ updated: 2, skipped: 1 });
    expect(await leadCount(city)).toBe(1);
    expect((await list(`city=${city}&deletedOnly=true`)).items).toHaveLength(2);

    // A live contact now holds one deleted address: that one stays deleted.
    await insertDirectoryContacts(app, `${tag}b`, [
      { email: rows[0]!.email.toUpperCase(), city: `${tag}-elsewhere` },
    ]);
    const restored = await bulk('bulk-restore', { ids: [ids[0], ids[1]] });
    expect(restored.json()).toEqual({ updated: 1, skipped: 1 });
    expect(await leadCount(city)).toBe(2);

    const actions = (await auditEntriesOf(app, admin.user.id)).filter((e) =>
      (e.details as { ids?: string[] }).ids?.some((id) => ids.includes(id)),
    );
    expect(actions.map((e) => e.action)).toEqual([
      'directory.bulk_verify',
      'directory.bulk_verify',
      'directory.bulk_recategorize',
      'directory.bulk_delete',
      'directory.bulk_restore',
    ]);
    expect(actions[3]!.details).toMatchObject({ updated: 2, skipped: 1 });
  });

  it('rebuilds the audience roll-up to the same figures the triggers keep', async () => {
    const tag = uniqueTag();
    const city = `${tag}ville`;
    await insertDirectoryContacts(app, tag, [
      { verificationStatus: 'verified', phone: '1234567' },
      { website: 'https://x.example.com' },
      { verificationStatus: 'invalid' },
    ]);
    const before = await leadCount(city);
    const facets = async () =>
      (
        (await app.services.db.execute(
          sql`SELECT * FROM directory_facet_counts WHERE city IN (${city}) ORDER BY country_code, category`,
        )) as unknown as { rows: unknown[] }
      ).rows;
    const kept = await facets();
    await rebuildDirectoryFacets({ db: app.services.db });
    expect(await facets()).toEqual(kept);
    expect(await leadCount(city)).toBe(before);
    expect(before).toBe(2);

    const response = await call(admin)({ method: 'POST', url: '/api/admin/directory/rebuild-facets' });
    expect(response.statusCode).toBe(202);
    expect((await auditEntriesOf(app, admin.user.id)).map((e) => e.action)).toContain(
      'directory.rebuild_facets',
    );
  });
});
