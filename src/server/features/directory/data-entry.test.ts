import type { DirectoryContact } from '@shared/directory';
import { insertDirectoryContacts, uniqueTag } from '@tests/factories/directory';
import { createUser, type TestUser } from '@tests/factories/users';
import { as, createTestApp } from '@tests/setup/test-app';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe('data entry API', () => {
  let app: FastifyInstance;
  let officer: TestUser;
  beforeAll(async () => {
    app = await createTestApp();
    officer = await createUser(app, { role: 'data_entry' });
  });
  afterAll(() => app.close());

  const call = (user: TestUser) => as(app, user.cookie);
  const create = (user: TestUser, payload: Record<string, unknown>) =>
    call(user)({ method: 'POST', url: '/api/data-entry/contacts', payload });
  const valid = (tag: string) => ({
    companyName: `${tag}  Kano   Grains Ltd `,
    contactName: 'Musa Abdullahi',
    jobTitle: 'Managing Director',
    email: ` Musa@${tag.toLowerCase()}.Example.COM `,
    phone: ' +234 803  123 4567 ',
    website: `${tag.toLowerCase()}.example.com`,
    address: '12 Murtala Mohammed Way',
    city: 'kano',
    countryCode: 'ng',
    category: 'agro-processing',
  });

  it('lets only data entry officers and super admins in', async () => {
    const user = await createUser(app);
    for (const [method, url] of [
      ['GET', '/api/data-entry/queue'],
      ['GET', '/api/data-entry/stats'],
      ['POST', '/api/data-entry/contacts'],
    ] as const) {
      expect(
        (await app.inject({ method, url, payload: method === 'POST' ? valid(uniqueTag()) : undefined }))
          .statusCode,
      ).toBe(401);
      expect(
        (await call(user)({ method, url, payload: method === 'POST' ? valid(uniqueTag()) : undefined }))
          .statusCode,
      ).toBe(403);
    }
    const admin = await createUser(app, { role: 'super_admin' });
    expect((await create(admin, valid(uniqueTag()))).statusCode).toBe(201);
  });

  it('adds a contact, normalised', async () => {
    const tag = uniqueTag();
    const response = await create(officer, valid(tag));
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({
      companyName: `${tag} Kano Grains Ltd`,
      email: `Musa@${tag.toLowerCase()}.example.com`,
      phone: '+234 803 123 4567',
      website: `https://${tag.toLowerCase()}.example.com`,
      city: 'Kano',
      countryCode: 'NG',
      category: 'agro-processing',
      source: 'data_entry',
      verificationStatus: 'unverified',
      createdBy: officer.user.id,
      deletedAt: null,
    });
  });

  it.each([
    ['email', { email: 'musa@' }, 'Please enter a valid email address'],
    ['email', { email: 'musa@localhost' }, 'Please enter a valid email address'],
    ['companyName', { companyName: '  ' }, 'Company name is required'],
    ['category', { category: 'astrology' }, 'Unknown category'],
    ['countryCode', { countryCode: 'XX' }, 'Unknown country'],
    ['website', { website: 'not a site' }, 'Enter a valid website address, such as example.com'],
    ['phone', { phone: 'call me' }, 'Enter a valid phone number, such as +234 803 123 4567'],
  ])('refuses a bad %s (%j)', async (_field, change, message) => {
    const response = await create(officer, { ...valid(uniqueTag()), ...change });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
  });

  it('answers a duplicate address with the existing contact, without creating another', async () => {
    const tag = uniqueTag();
    const first = (await create(officer, valid(tag))).json<DirectoryContact>();
    const again = await create(officer, {
      ...valid(tag),
      companyName: 'Other',
      email: first.email.toUpperCase(),
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: 'duplicate',
      message: 'A contact with this email address already exists in the directory.',
      existing: { id: first.id, companyName: first.companyName },
    });
    const forced = await call(officer)({
      method: 'POST',
      url: '/api/data-entry/contacts?force=true',
      payload: { ...valid(tag) },
    });
    expect(forced.statusCode).toBe(409);
    const opened = await call(officer)({ method: 'GET', url: `/api/data-entry/contacts/${first.id}` });
    expect(opened.json().id).toBe(first.id);
  });

  it('edits a contact, refusing an email that belongs to another', async () => {
    const a = (await create(officer, valid(uniqueTag()))).json<DirectoryContact>();
    const b = (await create(officer, valid(uniqueTag()))).json<DirectoryContact>();
    const edited = await call(officer)({
      method: 'PATCH',
      url: `/api/data-entry/contacts/${a.id}`,
      payload: { jobTitle: 'CEO', city: 'LAGOS', website: null },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({
      jobTitle: 'CEO',
      city: 'Lagos',
      website: null,
      companyName: a.companyName,
    });
    const clash = await call(officer)({
      method: 'PATCH',
      url: `/api/data-entry/contacts/${a.id}`,
      payload: { email: b.email },
    });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().existing.id).toBe(b.id);
    expect(
      (await call(officer)({ method: 'PATCH', url: `/api/data-entry/contacts/${a.id}`, payload: {} }))
        .statusCode,
    ).toBe(400);
  });

  it('serves the verification queue oldest first by keyset, and verifies or invalidates with a reason', async () => {
    const tag = uniqueTag();
    // A country nobody else queues, so the queue's content is this test's.
    const base = Date.now() - 3_600_000;
    const rows = await insertDirectoryContacts(
      app,
      tag,
      Array.from({ length: 7 }, (_, i) => ({ countryCode: 'PN', createdAt: new Date(base + i * 1000) })),
    );
    const seen: DirectoryContact[] = [];
    let cursor: string | null = null;
    do {
      const response = await call(officer)({
        method: 'GET',
        url: `/api/data-entry/queue?country=PN&limit=3${cursor ? `&cursor=${cursor}` : ''}`,
      });
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json<{ items: DirectoryContact[]; nextCursor: string | null }>();
      seen.push(...body.items);
      cursor = body.nextCursor;
    } while (cursor);
    const mine = seen.filter((c) => c.companyName.startsWith(tag));
    expect(mine.map((c) => c.id)).toEqual(rows.map((r) => r.id));

    const verify = (id: string, payload: Record<string, unknown>) =>
      call(officer)({ method: 'POST', url: `/api/data-entry/contacts/${id}/verify`, payload });
    const verified = await verify(rows[0]!.id, { status: 'verified' });
    expect(verified.json()).toMatchObject({
      verificationStatus: 'verified',
      verifiedBy: officer.user.id,
      invalidReason: null,
    });
    expect(verified.json().verifiedAt).toBeTruthy();

    const noReason = await verify(rows[1]!.id, { status: 'invalid' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().message).toBe('Give a reason when marking a contact invalid.');
    const invalid = await verify(rows[1]!.id, { status: 'invalid', reason: 'Mailbox does not exist' });
    expect(invalid.json()).toMatchObject({
      verificationStatus: 'invalid',
      invalidReason: 'Mailbox does not exist',
    });

    const after = await call(officer)({ method: 'GET', url: '/api/data-entry/queue?country=PN&limit=100' });
    const left = after.json().items.filter((c: DirectoryContact) => c.companyName.startsWith(tag));
    expect(left).toHaveLength(5);
    expect((await verify('00000000-0000-4000-8000-000000000000', { status: 'verified' })).statusCode).toBe(
      404,
    );
  });

  it("counts the officer's own work today and over 7 days", async () => {
    const me = await createUser(app, { role: 'data_entry' });
    const colleague = await createUser(app, { role: 'data_entry' });
    const added = [];
    for (let i = 0; i < 3; i++) added.push((await create(me, valid(uniqueTag()))).json<DirectoryContact>());
    await create(colleague, valid(uniqueTag()));
    await call(me)({
      method: 'POST',
      url: `/api/data-entry/contacts/${added[0]!.id}/verify`,
      payload: { status: 'verified' },
    });
    await call(me)({
      method: 'POST',
      url: `/api/data-entry/contacts/${added[1]!.id}/verify`,
      payload: { status: 'invalid', reason: 'Closed down' },
    });

    const response = await call(me)({ method: 'GET', url: '/api/data-entry/stats?tz=Africa/Lagos' });
    expect(response.statusCode, response.body).toBe(200);
    const stats = response.json();
    expect(stats.timeZone).toBe('Africa/Lagos');
    expect(stats.today).toEqual({ added: 3, verified: 1, invalidated: 1 });
    expect(stats.last7Days).toEqual({ added: 3, verified: 1, invalidated: 1 });
    expect(stats.daily).toHaveLength(7);
    expect(stats.daily.at(-1)).toMatchObject({ added: 3, verified: 1, invalidated: 1 });
    expect(stats.queueSize).toBeGreaterThanOrEqual(2);

    expect((await call(me)({ method: 'GET', url: '/api/data-entry/stats?tz=Mars/Olympus' })).statusCode).toBe(
      400,
    );
  });
});
