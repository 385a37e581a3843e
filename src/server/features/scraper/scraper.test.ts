import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { directoryContacts, scrapePages, scrapeResults } from '@server/db/schema';
import type { ScrapeJob, ScrapeJobDetail, ScrapeResult } from '@shared/scraper';
import { auditEntriesOf } from '@tests/factories/audit';
import { createUser, type TestUser } from '@tests/factories/users';
import { as, createTestApp } from '@tests/setup/test-app';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScrapeSlice } from './run-scrape-job.job';

/*
 * Crawls of a small business site served on loopback: robots.txt obeyed (its Disallow and Crawl-delay),
 * the host's spacing held, the scope, depth, page, type and size limits applied and reported, the
 * business found and put up for review, and the review's outcome in the directory.
 */

interface Hit {
  path: string;
  at: number;
  userAgent: string;
}

const JSON_LD = JSON.stringify({
  '@context': 'https://schema.org',
  '@type': 'LocalBusiness',
  name: 'Kilimo Fresh Poultry',
  telephone: '0712 345678',
  address: { streetAddress: '12 Moi Avenue', addressLocality: 'Nairobi', addressCountry: 'KE' },
});

function fixtureSite(hits: Hit[]) {
  const html = (body: string, head = '') =>
    `<!doctype html><html><head><title>Kilimo Fresh</title>${head}</head><body>${body}</body></html>`;
  const pages: Record<string, () => { status?: number; type?: string; body?: string; location?: string }> = {
    '/robots.txt': () => ({
      type: 'text/plain',
      body: 'User-agent: *\nDisallow: /private\n\nUser-agent: TambariBot\nDisallow: /private\nDisallow: /members\nCrawl-delay: 1\n',
    }),
    '/': () => ({
      body: html(
        '<h1>Kilimo Fresh</h1><a href="/contact">Contact</a> <a href="/about">About</a>' +
          '<a href="/private/ledger">Ledger</a> <a href="/members">Members</a>' +
          '<a href="/brochure">Brochure</a> <a href="/big">Big</a> <a href="/moved">Moved</a>' +
          '<a href="https://elsewhere.example/">Partner</a> <a href="/missing">Missing</a>',
      ),
    }),
    '/contact': () => ({
      body: html(
        '<p>Orders: <a href="mailto:orders@kilimofresh.co.ke">orders@kilimofresh.co.ke</a></p>' +
          '<p>Farm manager: amina [at] kilimofresh [dot] co [dot] ke</p><a href="/about/team">Team</a>',
        `<script type="application/ld+json">${JSON_LD}</script>`,
      ),
    }),
    '/about': () => ({ body: html('<p>Poultry farm since 1998. Eggs, broilers and cattle.</p>') }),
    '/about/team': () => ({ body: html('<p>Known to the directory: known@kilimofresh.co.ke</p>') }),
    '/moved': () => ({ status: 301, location: '/new-home' }),
    '/new-home': () => ({ body: html('<p>Write to hello@kilimofresh.co.ke or call 0712 345679</p>') }),
    '/brochure': () => ({ type: 'application/pdf', body: '%PDF-1.4' }),
    '/big': () => ({ body: html(`<p>${'x'.repeat(3 * 1024 * 1024)}</p>`) }),
    '/private/ledger': () => ({ body: html('<p>secret@kilimofresh.co.ke</p>') }),
    '/members': () => ({ body: html('<p>members@kilimofresh.co.ke</p>') }),
  };
  return createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    hits.push({ path, at: Date.now(), userAgent: String(request.headers['user-agent']) });
    const page = pages[path]?.();
    if (!page) {
      response.writeHead(404, { 'content-type': 'text/html' }).end('<p>Not found</p>');
      return;
    }
    if (page.location) {
      response.writeHead(page.status ?? 301, { location: page.location }).end();
      return;
    }
    response.writeHead(page.status ?? 200, { 'content-type': page.type ?? 'text/html; charset=utf-8' });
    response.end(page.body);
  });
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function crawlToTheEnd(app: FastifyInstance, jobId: string) {
  const { db, queue, env } = app.services;
  for (let slice = 0; slice < 20; slice++) {
    const outcome = await runScrapeSlice({ db, queue, env, jobId, budgetMs: 60_000 });
    if (outcome !== 'more') return outcome;
  }
  throw new Error('the crawl did not finish');
}

describe('scraper', () => {
  let app: FastifyInstance;
  let admin: TestUser;
  let officer: TestUser;
  let customer: TestUser;
  let site: Server;
  let origin: string;
  const hits: Hit[] = [];

  beforeAll(async () => {
    app = await createTestApp();
    admin = await createUser(app, { role: 'super_admin' });
    officer = await createUser(app, { role: 'data_entry' });
    customer = await createUser(app);
    site = fixtureSite(hits);
    origin = await listen(site);
  });

  afterAll(async () => {
    site.close();
    await app.close();
  });

  const createJob = async (payload: Record<string, unknown>, cookie = admin.cookie) =>
    as(app, cookie)({ method: 'POST', url: '/api/admin/scraper/jobs', payload });

  it('crawls a site as robots.txt and the limits say, and puts what it found up for review', async () => {
    await app.services.db.insert(directoryContacts).values({
      companyName: 'Kilimo Fresh',
      email: 'known@kilimofresh.co.ke',
      countryCode: 'KE',
      category: 'livestock-poultry',
      source: 'data_entry',
    });
    const created = await createJob({
      name: 'Kilimo',
      seeds: [`${origin}/`],
      maxDepth: 2,
      delaySeconds: 1,
      defaultCountryCode: 'ke',
    });
    expect(created.statusCode, created.body).toBe(201);
    const job = created.json<ScrapeJob>();
    expect(job).toMatchObject({ status: 'queued', pagesPending: 1, maxDepth: 2, maxPages: 200 });

    expect(await crawlToTheEnd(app, job.id)).toBe('done');

    // robots.txt read first; its disallowed paths never requested; our name in every request.
    const paths = hits.map((hit) => hit.path);
    expect(paths[0]).toBe('/robots.txt');
    expect(paths).not.toContain('/private/ledger');
    expect(paths).not.toContain('/members');
    expect(hits.every((hit) => hit.userAgent.includes('TambariBot/1.0'))).toBe(true);
    // The host's spacing held (Crawl-delay 1): no two page requests closer than a second.
    const pageHits = hits.filter((hit) => hit.path !== '/robots.txt');
    for (let i = 1; i < pageHits.length; i++) {
      expect(pageHits[i]!.at - pageHits[i - 1]!.at).toBeGreaterThanOrEqual(990);
    }

    const detail = (
      await as(app, admin.cookie)({ method: 'GET', url: `/api/admin/scraper/jobs/${job.id}` })
    ).json<ScrapeJobDetail>();
    expect(detail.job.status).toBe('completed');
    const skipped = Object.fromEntries(detail.skipped.map((entry) => [entry.reason, entry.count]));
    expect(skipped).toEqual({ robots: 2, offHost: 1, contentType: 1, tooLarge: 1, httpError: 1 });
    // "/", contact, about, about/team, moved (301) and new-home.
    expect(detail.job.pagesFetched).toBe(6);
    expect(detail.job.pagesPending).toBe(0);

    const results = await app.services.db.select().from(scrapeResults).where(eq(scrapeResults.jobId, job.id));
    const byEmail = Object.fromEntries(results.map((row) => [row.email, row]));
    expect(Object.keys(byEmail).sort()).toEqual([
      'amina@kilimofresh.co.ke',
      'hello@kilimofresh.co.ke',
      'known@kilimofresh.co.ke',
      'orders@kilimofresh.co.ke',
    ]);
    expect(byEmail['orders@kilimofresh.co.ke']).toMatchObject({
      companyName: 'Kilimo Fresh Poultry',
      phone: '+254712345678',
      address: '12 Moi Avenue',
      city: 'Nairobi',
      countryCode: 'KE',
      category: 'livestock-poultry',
      sourceUrl: `${origin}/contact`,
      status: 'pending',
    });
    expect(byEmail['hello@kilimofresh.co.ke']).toMatchObject({
      phone: '+254712345679',
      countryCode: 'KE',
      sourceUrl: `${origin}/new-home`,
    });
    expect(byEmail['known@kilimofresh.co.ke']?.status).toBe('duplicate');
    expect(detail.job.recordsPending).toBe(3);
  });

  it('stops at the depth and page limits and says so', async () => {
    const shallow = (
      await createJob({ name: 'Shallow', seeds: [`${origin}/`], maxDepth: 0 })
    ).json<ScrapeJob>();
    await crawlToTheEnd(app, shallow.id);
    const pages = await app.services.db.select().from(scrapePages).where(eq(scrapePages.jobId, shallow.id));
    expect(
      pages.filter((page) => page.status === 'fetched').map((page) => new URL(page.url).pathname),
    ).toEqual(['/']);
    expect(pages.filter((page) => page.reason === 'depth').length).toBeGreaterThanOrEqual(5);

    const capped = (
      await createJob({ name: 'Capped', seeds: [`${origin}/`], maxPages: 2 })
    ).json<ScrapeJob>();
    await crawlToTheEnd(app, capped.id);
    const detail = (
      await as(app, admin.cookie)({ method: 'GET', url: `/api/admin/scraper/jobs/${capped.id}` })
    ).json<ScrapeJobDetail>();
    expect(detail.job.pagesFetched).toBe(2);
    expect(detail.skipped.find((entry) => entry.reason === 'pageCap')?.count).toBeGreaterThan(0);
  });

  it('pauses, resumes and cancels, each audited; a paused crawl fetches nothing', async () => {
    const job = (await createJob({ name: 'Paused', seeds: [`${origin}/about`] })).json<ScrapeJob>();
    const post = (path: string) =>
      as(app, admin.cookie)({ method: 'POST', url: `/api/admin/scraper/jobs/${job.id}/${path}` });
    expect((await post('pause')).json<ScrapeJob>().status).toBe('paused');
    const before = hits.length;
    const { db, queue, env } = app.services;
    expect(await runScrapeSlice({ db, queue, env, jobId: job.id })).toBe('stopped');
    expect(hits.length).toBe(before);
    expect((await post('pause')).statusCode).toBe(409);
    expect((await post('resume')).json<ScrapeJob>().status).toBe('queued');
    expect((await post('cancel')).json<ScrapeJob>().status).toBe('cancelled');
    expect((await post('resume')).statusCode).toBe(409);
    const actions = (await auditEntriesOf(app, admin.user.id))
      .filter((entry) => entry.targetId === job.id)
      .map((entry) => entry.action);
    expect(actions).toEqual([
      'scraper.job_created',
      'scraper.job_paused',
      'scraper.job_resumed',
      'scraper.job_cancelled',
    ]);
  });

  it('lets officers accept (with corrections) and reject what was found', async () => {
    const list = await as(app, officer.cookie)({ method: 'GET', url: '/api/scraper/results?status=pending' });
    expect(list.statusCode).toBe(200);
    const pending = list.json<{ results: ScrapeResult[]; total: number }>();
    expect(pending.total).toBe(3);
    const orders = pending.results.find((r) => r.email === 'orders@kilimofresh.co.ke')!;
    const amina = pending.results.find((r) => r.email === 'amina@kilimofresh.co.ke')!;

    const accepted = await as(
      app,
      officer.cookie,
    )({
      method: 'POST',
      url: `/api/scraper/results/${orders.id}/accept`,
      payload: { contactName: 'Wanjiru Kamau', jobTitle: 'Sales Manager' },
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const result = accepted.json<ScrapeResult>();
    expect(result.status).toBe('accepted');
    const [record] = await app.services.db
      .select()
      .from(directoryContacts)
      .where(eq(directoryContacts.id, result.directoryContactId!));
    expect(record).toMatchObject({
      companyName: 'Kilimo Fresh Poultry',
      contactName: 'Wanjiru Kamau',
      email: 'orders@kilimofresh.co.ke',
      source: 'scraper',
      sourceUrl: `${origin}/contact`,
      verificationStatus: 'unverified',
      createdBy: officer.user.id,
    });
    expect(record?.sourceCrawledAt?.toISOString()).toBe(orders.crawledAt);

    const again = await as(
      app,
      officer.cookie,
    )({ method: 'POST', url: `/api/scraper/results/${orders.id}/accept`, payload: {} });
    expect(again.statusCode).toBe(409);

    const rejected = await as(
      app,
      officer.cookie,
    )({ method: 'POST', url: `/api/scraper/results/${amina.id}/reject` });
    expect(rejected.json<ScrapeResult>().status).toBe('rejected');
    const [row] = await app.services.db
      .select()
      .from(scrapeResults)
      .where(and(eq(scrapeResults.id, amina.id), eq(scrapeResults.reviewedBy, officer.user.id)));
    expect(row?.status).toBe('rejected');
  });

  it('answers 403 to customers, and keeps the console to super admins', async () => {
    expect((await as(app, customer.cookie)({ method: 'GET', url: '/api/scraper/results' })).statusCode).toBe(
      403,
    );
    expect(
      (await as(app, officer.cookie)({ method: 'GET', url: '/api/admin/scraper/jobs' })).statusCode,
    ).toBe(403);
    expect((await createJob({ name: 'x', seeds: [`${origin}/`] }, officer.cookie)).statusCode).toBe(403);
    expect((await createJob({ name: 'x', seeds: [`${origin}/`] }, customer.cookie)).statusCode).toBe(403);
    expect((await as(app, undefined)({ method: 'GET', url: '/api/admin/scraper/jobs' })).statusCode).toBe(
      401,
    );
    const missing = await as(
      app,
      admin.cookie,
    )({
      method: 'GET',
      url: '/api/admin/scraper/jobs/00000000-0000-4000-8000-000000000000',
    });
    expect(missing.statusCode).toBe(404);
  });

  it('refuses seeds that are not web addresses', async () => {
    const bad = await createJob({ name: 'Bad', seeds: ['ftp://files.example.org/'] });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('http:// or https://');
  });
});

describe('scraper on the public network setting', () => {
  it('refuses a seed on a loopback or private address', async () => {
    const app = await createTestApp({ SCRAPER_NETWORK: 'public' });
    try {
      const admin = await createUser(app, { role: 'super_admin' });
      for (const seed of [
        'http://127.0.0.1:8080/',
        'http://10.0.0.5/',
        'http://[::1]/',
        'http://169.254.169.254/',
      ]) {
        const response = await as(
          app,
          admin.cookie,
        )({
          method: 'POST',
          url: '/api/admin/scraper/jobs',
          payload: { name: 'Inside', seeds: [seed] },
        });
        expect(response.statusCode, seed).toBe(400);
        expect(response.json<{ message: string }>().message).toContain('not on a public address');
      }
    } finally {
      await app.close();
    }
  });
});
