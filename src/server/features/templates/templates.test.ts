import { randomUUID } from 'node:crypto';
import { auditLog, emailTemplates } from '@server/db/schema/index';
import { LIBRARY_TEMPLATES, type SeedTemplate, seedLibraryTemplates } from '@server/seed/templates/index';
import { newsletterBlocksSchema } from '@shared/newsletters';
import { TEMPLATE_CATEGORIES, type Template } from '@shared/templates';
import { createUser, type TestUser } from '@tests/factories/users';
import { as, createTestApp } from '@tests/setup/test-app';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe('template library content', () => {
  it('ships 100+ distinct templates covering every category', () => {
    expect(LIBRARY_TEMPLATES.length).toBeGreaterThanOrEqual(100);
    const slugs = new Set(LIBRARY_TEMPLATES.map((t) => t.slug));
    expect(slugs.size).toBe(LIBRARY_TEMPLATES.length);
    const subjects = new Set(LIBRARY_TEMPLATES.map((t) => t.subject));
    expect(subjects.size).toBe(LIBRARY_TEMPLATES.length);
    for (const category of TEMPLATE_CATEGORIES) {
      expect(
        LIBRARY_TEMPLATES.filter((t) => t.category === category).length,
        category,
      ).toBeGreaterThanOrEqual(6);
    }
  });

  it('uses merge tags with fallbacks, no placeholder copy, and valid newsletter blocks', () => {
    for (const t of LIBRARY_TEMPLATES) {
      expect(t.bodyHtml, t.slug).not.toMatch(/lorem|ipsum|TODO/i);
      // A first-name tag always carries a fallback, so nobody is greeted "Hi ,".
      for (const match of `${t.subject} ${t.bodyHtml}`.matchAll(/\{\{\s*firstName([^}]*)\}\}/g)) {
        expect(match[1], t.slug).toMatch(/default:/);
      }
      expect(t.description.length, t.slug).toBeGreaterThan(10);
      if (t.kind === 'newsletter') {
        expect(newsletterBlocksSchema.safeParse(t.blocks).success, t.slug).toBe(true);
        expect(t.bodyHtml).toMatch(/<table/);
      } else {
        expect(t.blocks).toBeNull();
      }
    }
    expect(LIBRARY_TEMPLATES.some((t) => t.kind === 'newsletter')).toBe(true);
  });
});

describe('templates API', () => {
  let app: FastifyInstance;
  let admin: TestUser;
  beforeAll(async () => {
    app = await createTestApp();
    admin = await createUser(app, { role: 'super_admin' });
  });
  afterAll(() => app.close());

  const call = (user: TestUser) => as(app, user.cookie);
  const ownTemplate = {
    kind: 'email',
    category: 'follow-up',
    name: 'My follow-up',
    description: 'What I send after trade fairs',
    subject: 'Good to meet you, {{ firstName | default: "friend" }}',
    bodyHtml: '<p>Hello {{ firstName }}, from {{ company }}.</p><script>alert(1)</script>',
    tags: ['Fairs', 'fairs'],
  };

  async function saveOwn(user: TestUser, overrides: Record<string, unknown> = {}): Promise<Template> {
    const response = await call(user)({
      method: 'POST',
      url: '/api/templates',
      payload: { ...ownTemplate, ...overrides },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  }

  it('answers 401 without a session on the signed-in routes', async () => {
    for (const [method, url] of [
      ['GET', '/api/templates'],
      ['POST', '/api/templates'],
      ['GET', `/api/templates/${randomUUID()}`],
    ] as const) {
      expect(
        (await app.inject({ method, url, payload: method === 'POST' ? ownTemplate : undefined })).statusCode,
      ).toBe(401);
    }
  });

  it('lists the seeded library with derived merge tags, and filters by category, kind and search', async () => {
    const user = await createUser(app);
    const all: Template[] = (await call(user)({ method: 'GET', url: '/api/templates?scope=library' })).json();
    expect(all.length).toBeGreaterThanOrEqual(100);
    expect(all.every((t) => t.isLibrary && t.published)).toBe(true);
    const ghana = all.find((t) => t.slug === 'seasonal-ghana-independence')!;
    expect(ghana.mergeTags).toEqual(expect.arrayContaining(['firstName', 'company', 'senderName']));

    const seasonal: Template[] = (
      await call(user)({ method: 'GET', url: '/api/templates?category=seasonal' })
    ).json();
    expect(seasonal.length).toBeGreaterThan(5);
    expect(seasonal.every((t) => t.category === 'seasonal')).toBe(true);

    const layouts: Template[] = (
      await call(user)({ method: 'GET', url: '/api/templates?kind=newsletter' })
    ).json();
    expect(layouts.length).toBeGreaterThan(0);
    expect(layouts.every((t) => t.kind === 'newsletter' && Array.isArray(t.blocks))).toBe(true);

    // Search looks at names, descriptions, subjects and tags, case-insensitively.
    const byName: Template[] = (await call(user)({ method: 'GET', url: '/api/templates?q=JAMHURI' })).json();
    expect(byName.map((t) => t.slug)).toContain('seasonal-kenya-jamhuri-day');
    const byTag: Template[] = (await call(user)({ method: 'GET', url: '/api/templates?q=sallah' })).json();
    expect(byTag.map((t) => t.slug)).toEqual(
      expect.arrayContaining(['seasonal-eid-al-fitr', 'seasonal-eid-al-adha']),
    );
    // LIKE wildcards are searched for literally.
    const wildcard: Template[] = (
      await call(user)({ method: 'GET', url: '/api/templates?q=%25%25%25' })
    ).json();
    expect(wildcard).toEqual([]);

    const bad = await call(user)({ method: 'GET', url: '/api/templates?category=spam' });
    expect(bad.statusCode).toBe(400);
  });

  it('saves a template of my own, cleaned, visible only to me', async () => {
    const owner = await createUser(app);
    const other = await createUser(app);
    const mine = await saveOwn(owner);
    expect(mine).toMatchObject({ isLibrary: false, name: 'My follow-up', tags: ['fairs'], slug: null });
    expect(mine.bodyHtml).not.toContain('<script');
    expect(mine.mergeTags).toEqual(['firstName', 'company']);

    const ownList: Template[] = (
      await call(owner)({ method: 'GET', url: '/api/templates?scope=mine' })
    ).json();
    expect(ownList.map((t) => t.id)).toEqual([mine.id]);
    const allList: Template[] = (await call(owner)({ method: 'GET', url: '/api/templates' })).json();
    expect(allList[0]!.id).toBe(mine.id); // own templates first
    expect(allList.length).toBeGreaterThan(100);

    const otherList: Template[] = (
      await call(other)({ method: 'GET', url: '/api/templates?scope=all' })
    ).json();
    expect(otherList.some((t) => t.id === mine.id)).toBe(false);
    for (const [method, payload] of [['GET'], ['PATCH', { name: 'Stolen' }], ['DELETE']] as const) {
      const response = await call(other)({ method, url: `/api/templates/${mine.id}`, payload });
      expect(response.statusCode, method).toBe(404);
      expect(response.json()).toMatchObject({ message: 'Template not found' });
    }

    const renamed = await call(owner)({
      method: 'PATCH',
      url: `/api/templates/${mine.id}`,
      payload: { name: 'After the expo' },
    });
    expect(renamed.json()).toMatchObject({ name: 'After the expo', subject: ownTemplate.subject });
    expect((await call(owner)({ method: 'DELETE', url: `/api/templates/${mine.id}` })).statusCode).toBe(204);
    expect((await call(owner)({ method: 'GET', url: `/api/templates/${mine.id}` })).statusCode).toBe(404);
  });

  it('saves a copy of a newsletter layout, rendering its HTML from the blocks', async () => {
    const user = await createUser(app);
    const [layout] = (
      await call(user)({ method: 'GET', url: '/api/templates?kind=newsletter&q=customer%20spotlight' })
    ).json<Template[]>();
    expect(layout?.blocks?.length).toBeGreaterThan(0);
    const copy = await saveOwn(user, {
      kind: 'newsletter',
      category: 'newsletter-layout',
      name: 'My spotlight',
      subject: layout!.subject,
      bodyHtml: '<p>not what gets stored</p>',
      blocks: layout!.blocks,
    });
    expect(copy.blocks).toEqual(layout!.blocks);
    expect(copy.bodyHtml).toBe(layout!.bodyHtml);

    const broken = await call(user)({
      method: 'POST',
      url: '/api/templates',
      payload: {
        ...ownTemplate,
        kind: 'newsletter',
        blocks: [{ id: 'x', type: 'button', label: 'Go', href: 'javascript:alert(1)' }],
      },
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().message).toMatch(/^The layout is not valid/);
  });

  it('refuses invalid input with clear messages and never lets a user change the library', async () => {
    const user = await createUser(app);
    const noSubject = await call(user)({
      method: 'POST',
      url: '/api/templates',
      payload: { ...ownTemplate, subject: '  ' },
    });
    expect(noSubject.statusCode).toBe(400);
    expect(noSubject.body).toContain('Enter a subject');
    const onlyScript = await call(user)({
      method: 'POST',
      url: '/api/templates',
      payload: { ...ownTemplate, bodyHtml: '<script>alert(1)</script>' },
    });
    expect(onlyScript.statusCode).toBe(400);
    expect(onlyScript.json().message).toBe('The template needs a body');
    const badCategory = await call(user)({
      method: 'POST',
      url: '/api/templates',
      payload: { ...ownTemplate, category: 'whatever' },
    });
    expect(badCategory.statusCode).toBe(400);

    const [library] = await app.services.db
      .select({ id: emailTemplates.id })
      .from(emailTemplates)
      .where(eq(emailTemplates.slug, 'intro-short-and-direct'));
    const libraryId = library!.id;
    expect((await call(user)({ method: 'GET', url: `/api/templates/${libraryId}` })).statusCode).toBe(200);
    const patch = await call(user)({
      method: 'PATCH',
      url: `/api/templates/${libraryId}`,
      payload: { name: 'x' },
    });
    expect(patch.statusCode).toBe(404);
    expect((await call(user)({ method: 'DELETE', url: `/api/templates/${libraryId}` })).statusCode).toBe(404);
  });

  it('shows visitors only the published library', async () => {
    const user = await createUser(app);
    const mine = await saveOwn(user, { name: `Private ${randomUUID()}` });
    const hidden = await call(admin)({
      method: 'POST',
      url: '/api/admin/templates',
      payload: { ...ownTemplate, name: `Draft library ${randomUUID()}`, published: false },
    });
    expect(hidden.statusCode, hidden.body).toBe(201);
    const hiddenId = hidden.json<Template>().id;

    const list = await app.inject({ method: 'GET', url: '/api/public/templates' });
    expect(list.statusCode).toBe(200);
    const templates: Template[] = list.json();
    expect(templates.length).toBeGreaterThanOrEqual(100);
    expect(templates.every((t) => t.isLibrary && t.published)).toBe(true);
    expect(templates.some((t) => t.id === mine.id || t.id === hiddenId)).toBe(false);

    const filtered: Template[] = (
      await app.inject({ method: 'GET', url: '/api/public/templates?category=industry&q=solar' })
    ).json();
    expect(filtered.map((t) => t.slug)).toContain('industry-solar-energy');
    expect(filtered.every((t) => t.category === 'industry')).toBe(true);

    const one = await app.inject({ method: 'GET', url: `/api/public/templates/${templates[0]!.id}` });
    expect(one.statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: `/api/public/templates/${mine.id}` })).statusCode).toBe(
      404,
    );
    expect((await app.inject({ method: 'GET', url: `/api/public/templates/${hiddenId}` })).statusCode).toBe(
      404,
    );
    // An unpublished library template is hidden from signed-in users too.
    expect((await call(user)({ method: 'GET', url: `/api/templates/${hiddenId}` })).statusCode).toBe(404);
  });

  it('lets super admins manage the library with an audit trail, and nobody else', async () => {
    const user = await createUser(app);
    const payload = { ...ownTemplate, category: 'partnership', name: `Joint venture ${randomUUID()}` };
    expect((await call(user)({ method: 'POST', url: '/api/admin/templates', payload })).statusCode).toBe(403);
    expect((await call(user)({ method: 'GET', url: '/api/admin/templates' })).statusCode).toBe(403);

    const created = await call(admin)({ method: 'POST', url: '/api/admin/templates', payload });
    expect(created.statusCode).toBe(201);
    const template = created.json<Template>();
    expect(template).toMatchObject({ isLibrary: true, published: true, slug: null });
    // Everyone sees a new published library template.
    expect((await call(user)({ method: 'GET', url: `/api/templates/${template.id}` })).statusCode).toBe(200);

    expect(
      (
        await call(user)({
          method: 'PATCH',
          url: `/api/admin/templates/${template.id}`,
          payload: { published: false },
        })
      ).statusCode,
    ).toBe(403);
    const unpublished = await call(admin)({
      method: 'PATCH',
      url: `/api/admin/templates/${template.id}`,
      payload: { published: false, subject: 'A better subject' },
    });
    expect(unpublished.json()).toMatchObject({ published: false, subject: 'A better subject' });
    expect((await call(user)({ method: 'GET', url: `/api/templates/${template.id}` })).statusCode).toBe(404);
    const adminList: Template[] = (
      await call(admin)({ method: 'GET', url: `/api/admin/templates?q=${encodeURIComponent(payload.name)}` })
    ).json();
    expect(adminList.map((t) => t.id)).toEqual([template.id]);

    // A user's own template is not the library's: admins cannot edit it through these routes.
    const mine = await saveOwn(user);
    expect(
      (await call(admin)({ method: 'PATCH', url: `/api/admin/templates/${mine.id}`, payload: { name: 'x' } }))
        .statusCode,
    ).toBe(404);

    expect(
      (await call(user)({ method: 'DELETE', url: `/api/admin/templates/${template.id}` })).statusCode,
    ).toBe(403);
    expect(
      (await call(admin)({ method: 'DELETE', url: `/api/admin/templates/${template.id}` })).statusCode,
    ).toBe(204);
    const entries = await app.services.db
      .select({ action: auditLog.action, actorId: auditLog.actorId })
      .from(auditLog)
      .where(and(eq(auditLog.targetType, 'template'), eq(auditLog.targetId, template.id)));
    expect(entries.map((e) => e.action).sort()).toEqual([
      'template.created',
      'template.deleted',
      'template.updated',
    ]);
    expect(entries.every((e) => e.actorId === admin.user.id)).toBe(true);

    // Seeded templates are unpublished, not deleted (they would come back at the next start).
    const [seeded] = await app.services.db
      .select({ id: emailTemplates.id })
      .from(emailTemplates)
      .where(eq(emailTemplates.slug, 'follow-up-breakup'));
    const refused = await call(admin)({ method: 'DELETE', url: `/api/admin/templates/${seeded!.id}` });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/Unpublish it instead/);
  });
});

describe('seedLibraryTemplates', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  const seedTemplate = (slug: string, subject: string): SeedTemplate => ({
    slug,
    kind: 'email',
    category: 'follow-up',
    name: `Seed test ${slug}`,
    description: 'A template for the seed test',
    subject,
    bodyHtml: '<p>Hello</p>',
    blocks: null,
    tags: ['test'],
  });
  const rowsFor = (slug: string) =>
    app.services.db.select().from(emailTemplates).where(eq(emailTemplates.slug, slug));

  it('inserts once, follows text changes in code, and keeps an admin’s edits', async () => {
    const db = app.services.db;
    const fresh = `test-seed-${randomUUID()}`;
    const edited = `test-seed-${randomUUID()}`;
    await seedLibraryTemplates({ db, templates: [seedTemplate(fresh, 'One'), seedTemplate(edited, 'One')] });
    await seedLibraryTemplates({ db, templates: [seedTemplate(fresh, 'One'), seedTemplate(edited, 'One')] });
    expect(await rowsFor(fresh)).toHaveLength(1);

    const [before] = await rowsFor(edited);
    await db
      .update(emailTemplates)
      .set({ subject: 'Admin wording', updatedAt: new Date(before!.createdAt.getTime() + 1000) })
      .where(eq(emailTemplates.id, before!.id));

    await seedLibraryTemplates({ db, templates: [seedTemplate(fresh, 'Two'), seedTemplate(edited, 'Two')] });
    const [updated] = await rowsFor(fresh);
    expect(updated!.subject).toBe('Two');
    expect(updated!.updatedAt.getTime()).toBe(updated!.createdAt.getTime());
    const [kept] = await rowsFor(edited);
    expect(kept!.subject).toBe('Admin wording');

    await db.delete(emailTemplates).where(eq(emailTemplates.slug, fresh));
    await db.delete(emailTemplates).where(eq(emailTemplates.slug, edited));
  });

  it('unpublishes a retired library template (the invoice reminder read as invoice fraud)', async () => {
    const db = app.services.db;
    const slug = 'follow-up-invoice-reminder';
    await db
      .insert(emailTemplates)
      .values({ ...seedTemplate(slug, 'Friendly reminder: invoice'), userId: null, published: true })
      .onConflictDoNothing();
    await db.update(emailTemplates).set({ published: true }).where(eq(emailTemplates.slug, slug));
    await seedLibraryTemplates({ db, templates: [] });
    const [row] = await rowsFor(slug);
    expect(row!.published).toBe(false);
    expect(LIBRARY_TEMPLATES.some((t) => t.slug === slug)).toBe(false);
  });

  it('has every shipped template in the database after start-up', async () => {
    const rows = await app.services.db
      .select({ slug: emailTemplates.slug })
      .from(emailTemplates)
      .where(eq(emailTemplates.published, true));
    const slugs = new Set(rows.map((r) => r.slug));
    expect(LIBRARY_TEMPLATES.filter((t) => !slugs.has(t.slug))).toEqual([]);
  });
});
