import { randomUUID } from 'node:crypto';
import { newsletters } from '@server/db/schema/index';
import { ARCHIVE_PAGE_LIMIT, type Newsletter, type NewsletterArchive } from '@shared/newsletters';
import { createUser, type TestUser } from '@tests/factories/users';
import { as, createTestApp } from '@tests/setup/test-app';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let app: FastifyInstance;

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

async function professional(): Promise<TestUser> {
  return createUser(app, {
    plan: 'professional',
    status: 'active',
    periodEnd: new Date(Date.now() + 864e5 * 30),
  });
}

async function newsletter(user: TestUser, subject: string, kind: 'newsletter' | 'bulk' = 'newsletter') {
  const created = await as(
    app,
    user.cookie,
  )({
    method: 'POST',
    url: '/api/newsletters',
    payload:
      kind === 'bulk'
        ? { kind, name: subject, subject, html: '<p>Hi</p>' }
        : { kind, name: subject, subject },
  });
  expect(created.statusCode).toBe(201);
  return created.json<Newsletter>();
}

/** What the send leaves behind, without running the engine: the archive only reads status and date. */
async function markSent(id: string, sentAt: Date) {
  await app.services.db.update(newsletters).set({ status: 'sent', sentAt }).where(eq(newsletters.id, id));
}

function setInArchive(user: TestUser, id: string, inArchive: boolean) {
  return as(app, user.cookie)({ method: 'PATCH', url: `/api/newsletters/${id}`, payload: { inArchive } });
}

function pathOf(url: string): string {
  return new URL(url).pathname;
}

describe('public newsletter archive', () => {
  it('lists only sent newsletters that opted in, newest first, with rendered subjects and web version links', async () => {
    const user = await professional();
    const req = as(app, user.cookie);

    const off = await req({ method: 'GET', url: '/api/newsletter-archive' });
    expect(off.statusCode).toBe(200);
    expect(off.json<NewsletterArchive>()).toEqual({ enabled: false, url: null });

    const march = await newsletter(user, 'March at {{ senderName | default: "Kano Foods" }}');
    const april = await newsletter(user, 'April prices', 'bulk');
    const hidden = await newsletter(user, 'Not for the archive');
    const draft = await newsletter(user, 'Draft in progress');
    await markSent(march.id, new Date('2026-03-01T09:00:00Z'));
    await markSent(april.id, new Date('2026-04-01T09:00:00Z'));
    await markSent(hidden.id, new Date('2026-05-01T09:00:00Z'));

    // Sent issues can still be opted in: the switch is the one change allowed after the send.
    for (const id of [march.id, april.id, draft.id]) {
      const patched = await setInArchive(user, id, true);
      expect(patched.statusCode).toBe(200);
      expect(patched.json<Newsletter>().inArchive).toBe(true);
    }
    // Anything else on a sent newsletter is still refused.
    const edit = await req({
      method: 'PATCH',
      url: `/api/newsletters/${march.id}`,
      payload: { inArchive: false, subject: 'Changed' },
    });
    expect(edit.statusCode).toBe(409);

    const on = await req({ method: 'PUT', url: '/api/newsletter-archive', payload: { enabled: true } });
    expect(on.statusCode).toBe(200);
    const archive = on.json<NewsletterArchive>();
    expect(archive.enabled).toBe(true);
    expect(archive.url).toMatch(/^http:\/\/localhost:3000\/archive\/[A-Za-z0-9_-]{24}$/);

    const page = await app.inject({ method: 'GET', url: pathOf(archive.url!) });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('<h1>Newsletters from Chidi Eze</h1>');
    expect(page.body).toContain('April prices');
    expect(page.body).toContain('March at Kano Foods');
    expect(page.body).not.toContain('{{');
    expect(page.body.indexOf('April prices')).toBeLessThan(page.body.indexOf('March at Kano Foods'));
    expect(page.body).toContain(`href="/n/${pathOf(march.webUrl).split('/').pop()}"`);
    expect(page.body).toContain('1 March 2026');
    expect(page.body).not.toContain('Not for the archive');
    expect(page.body).not.toContain('Draft in progress');
    expect(page.body).not.toContain('<script');
    expect(page.body).not.toContain('noindex');
  });

  it('another user cannot toggle a newsletter (404), and an archive that is off or was re-addressed answers 404', async () => {
    const owner = await professional();
    const stranger = await professional();
    const issue = await newsletter(owner, 'Owner news');
    await markSent(issue.id, new Date('2026-06-01T09:00:00Z'));

    const foreign = await setInArchive(stranger, issue.id, true);
    expect(foreign.statusCode).toBe(404);
    const [row] = await app.services.db.select().from(newsletters).where(eq(newsletters.id, issue.id));
    expect(row!.inArchive).toBe(false);
    expect((await setInArchive(owner, issue.id, true)).statusCode).toBe(200);

    const req = as(app, owner.cookie);
    const first = (
      await req({ method: 'PUT', url: '/api/newsletter-archive', payload: { enabled: true } })
    ).json<NewsletterArchive>();
    expect((await app.inject({ method: 'GET', url: pathOf(first.url!) })).body).toContain('Owner news');
    // The stranger's own archive shows nothing of the owner's.
    const theirs = (
      await as(
        app,
        stranger.cookie,
      )({ method: 'PUT', url: '/api/newsletter-archive', payload: { enabled: true } })
    ).json<NewsletterArchive>();
    expect(theirs.url).not.toBe(first.url);
    expect((await app.inject({ method: 'GET', url: pathOf(theirs.url!) })).body).not.toContain('Owner news');

    const regenerated = await req({ method: 'POST', url: '/api/newsletter-archive/regenerate' });
    expect(regenerated.statusCode).toBe(200);
    const second = regenerated.json<NewsletterArchive>();
    expect(second.url).not.toBe(first.url);
    const old = await app.inject({ method: 'GET', url: pathOf(first.url!) });
    expect(old.statusCode).toBe(404);
    expect(old.body).toContain('This archive is not available');
    expect((await app.inject({ method: 'GET', url: pathOf(second.url!) })).statusCode).toBe(200);

    const disabled = await req({
      method: 'PUT',
      url: '/api/newsletter-archive',
      payload: { enabled: false },
    });
    expect(disabled.json<NewsletterArchive>()).toEqual({ enabled: false, url: null });
    expect((await app.inject({ method: 'GET', url: pathOf(second.url!) })).statusCode).toBe(404);
    // Turning it back on brings back the same address.
    const again = (
      await req({ method: 'PUT', url: '/api/newsletter-archive', payload: { enabled: true } })
    ).json<NewsletterArchive>();
    expect(again.url).toBe(second.url);

    expect((await app.inject({ method: 'GET', url: '/archive/not-a-real-archive-slug' })).statusCode).toBe(
      404,
    );
    expect((await app.inject({ method: 'GET', url: '/api/newsletter-archive' })).statusCode).toBe(401);
  });

  it('pages through more than a page of issues with Newer/Older links: each once, newest first, stable while one is published', async () => {
    const user = await professional();
    const req = as(app, user.cookie);
    const archive = (
      await req({ method: 'PUT', url: '/api/newsletter-archive', payload: { enabled: true } })
    ).json<NewsletterArchive>();
    const base = pathOf(archive.url!);

    // Two full pages and a part, written straight to the table (sending 237 issues is not the point).
    // Every 10th issue shares its sent time with the one before it, so the order relies on the id too.
    const total = ARCHIVE_PAGE_LIMIT * 2 + 37;
    const at = (minute: number, micros = '') =>
      sql`${`2025-01-01T00:00:00${micros}Z`}::timestamptz + ${minute} * interval '1 minute'`;
    const rows = Array.from({ length: total }, (_, i) => ({
      id: randomUUID(),
      userId: user.user.id,
      name: `Issue ${i}`,
      subject: `Issue number ${i}`,
      status: 'sent' as const,
      inArchive: true,
      webToken: randomUUID(),
      sentAt: at(i % 10 === 1 ? i - 1 : i),
    }));
    // The last issue of the first page and the first of the second go out in the same millisecond, 800
    // microseconds apart: a page key rounded to milliseconds would skip the second one.
    const lastOfFirstPage = total - ARCHIVE_PAGE_LIMIT;
    rows[lastOfFirstPage]!.sentAt = at(lastOfFirstPage - 1, '.000900');
    rows[lastOfFirstPage - 1]!.sentAt = at(lastOfFirstPage - 1, '.000100');
    await app.services.db.insert(newsletters).values(rows);
    // Not shown: a draft and an issue left out of the archive.
    await app.services.db.insert(newsletters).values([
      { userId: user.user.id, name: 'x', subject: 'Hidden draft', webToken: randomUUID(), inArchive: true },
      {
        userId: user.user.id,
        name: 'y',
        subject: 'Hidden sent',
        status: 'sent',
        sentAt: new Date('2025-06-01T00:00:00Z'),
        webToken: randomUUID(),
      },
    ]);
    const expected = (
      (await app.services.db.execute(sql`
        SELECT subject FROM newsletters WHERE user_id = ${user.user.id} AND in_archive AND status = 'sent'
        ORDER BY sent_at DESC, id DESC`)) as unknown as { rows: { subject: string }[] }
    ).rows.map((row) => row.subject);
    expect(expected).toHaveLength(total);

    type Page = { subjects: string[]; newer: string | null; older: string | null; body: string };
    const open = async (query: string): Promise<Page> => {
      const response = await app.inject({ method: 'GET', url: `${base}${query}` });
      expect(response.statusCode, response.body).toBe(200);
      const body = response.body;
      return {
        body,
        subjects: [...body.matchAll(/<li><a href="[^"]+">([^<]+)<\/a>/g)].map((m) => m[1]!),
        newer: /href="(\?newer=[^"]+)" rel="prev"/.exec(body)?.[1] ?? null,
        older: /href="(\?older=[^"]+)" rel="next"/.exec(body)?.[1] ?? null,
      };
    };

    const pages: Page[] = [await open('')];
    expect(pages[0]!.newer).toBeNull();
    while (pages[pages.length - 1]!.older) pages.push(await open(pages[pages.length - 1]!.older!));
    expect(pages.map((p) => p.subjects.length)).toEqual([ARCHIVE_PAGE_LIMIT, ARCHIVE_PAGE_LIMIT, 37]);
    expect(pages.flatMap((p) => p.subjects)).toEqual(expected);
    expect(pages[0]!.subjects.at(-1)).toBe(`Issue number ${lastOfFirstPage}`);
    expect(pages[1]!.subjects[0]).toBe(`Issue number ${lastOfFirstPage - 1}`);
    expect(pages[0]!.body).not.toContain('Hidden');
    expect(pages[2]!.older).toBeNull();

    // Back up with Newer: the same pages, the first one without a Newer link.
    const back = await open(pages[2]!.newer!);
    expect(back.subjects).toEqual(pages[1]!.subjects);
    const top = await open(back.newer!);
    expect(top.subjects).toEqual(pages[0]!.subjects);
    expect(top.newer).toBeNull();

    // An issue published while someone reads page 2 does not shift what its Older link leads to.
    const fresh = await newsletter(user, 'Fresh issue');
    await markSent(fresh.id, new Date());
    expect((await setInArchive(user, fresh.id, true)).statusCode).toBe(200);
    expect((await open(pages[1]!.older!)).subjects).toEqual(pages[2]!.subjects);
    const reopened = await open('');
    expect(reopened.subjects[0]).toBe('Fresh issue');
    expect(reopened.older).not.toBeNull();
    // Page 2's Newer link now leads to a page that itself has a Newer link (to the fresh issue).
    const newerThanPage2 = await open(pages[1]!.newer!);
    expect(newerThanPage2.subjects).toEqual(pages[0]!.subjects);
    expect(newerThanPage2.newer).not.toBeNull();
    expect((await open(newerThanPage2.newer!)).subjects).toEqual(['Fresh issue']);

    // A mangled page key answers a page that says so, not a server error.
    const mangled = await app.inject({ method: 'GET', url: `${base}?older=not-a-key` });
    expect(mangled.statusCode).toBe(400);
    expect(mangled.headers['content-type']).toContain('text/html');
    expect(mangled.body).toContain('This page of the archive is not available');
    const forged = Buffer.from(JSON.stringify(['yesterday', 'x'])).toString('base64url');
    expect((await app.inject({ method: 'GET', url: `${base}?newer=${forged}` })).statusCode).toBe(400);
  });
});
