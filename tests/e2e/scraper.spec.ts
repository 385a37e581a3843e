import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Page, test } from '@playwright/test';
import { signInAsSuperAdmin, signInViaApi } from './support/accounts';
import { DEMO, E2E_DEMO_PASSWORD } from './support/env';
import { expectToast } from './support/ui';

/*
 * The scraper end to end: the operator starts a crawl of a small business site served here on loopback,
 * watches it finish, and accepts what it found into the directory; the officer sees the same queue.
 */

let site: Server;
let origin: string;
const requested: string[] = [];

test.beforeAll(async () => {
  site = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    requested.push(path);
    if (path === '/robots.txt') {
      response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private\n');
      return;
    }
    const pages: Record<string, string> = {
      '/': '<title>Home | Accra Fresh Foods</title><a href="/contact">Contact</a> <a href="/private/x">x</a>',
      '/contact':
        '<title>Contact | Accra Fresh Foods</title><meta name="description" content="Food processing and packaged foods">' +
        '<p>Sales: <a href="mailto:sales@accrafreshfoods.com.gh">sales@accrafreshfoods.com.gh</a>, +233 24 412 3456</p>',
    };
    const body = pages[path];
    if (!body) {
      response.writeHead(404).end();
      return;
    }
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(`<html><body>${body}</body></html>`);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});

test.afterAll(() => {
  site.close();
});

async function screenshots(page: Page, name: string) {
  const dir = process.env.MONITOR_SCREENSHOTS;
  if (!dir) return;
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.screenshot({ path: `${dir}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

test('scraper: a crawl runs to the end, obeys robots.txt, and what it found is accepted into the directory', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signInAsSuperAdmin(page.request);
  await page.goto('/scraper');
  await expect(page).toHaveURL(/\/admin\/scraper$/);
  await expect(page.getByRole('heading', { name: 'Scraper', level: 1 })).toBeVisible();

  await page.getByTestId('new-crawl').click();
  const name = `Accra foods ${Date.now()}`;
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Seed addresses').fill(`${origin}/`);
  await page.getByLabel('Seconds between requests').fill('1');
  await page.getByRole('button', { name: 'Start crawl' }).click();
  await expectToast(page, { title: 'Crawl started', description: /1 seed address/ });

  const job = page.getByTestId('scrape-job').filter({ hasText: name });
  await expect(job.getByTestId('scrape-job-status')).toHaveText('Completed', { timeout: 90_000 });
  expect(requested).not.toContain('/private/x');
  await job.getByRole('button', { name: /Pages/ }).click();
  await expect(job.getByTestId('skip-reasons')).toContainText('Disallowed by robots.txt: 1');

  const found = page.getByTestId('found-business').filter({ hasText: 'sales@accrafreshfoods.com.gh' });
  await expect(found).toContainText('Accra Fresh Foods');
  await expect(found).toContainText('+233244123456');
  await screenshots(page, 'scraper');
  await found.getByRole('button', { name: 'Edit' }).click();
  await page.getByLabel('Contact name').fill('Efua Mensah');
  await page.getByRole('button', { name: 'Accept', exact: true }).click();
  await expectToast(page, { title: 'Added to the directory', description: /waits for verification/ });
  await expect(found).toHaveCount(0);
});

test('scraper: the data entry officer reviews finds on /data-entry, and cannot open the console', async ({
  page,
}) => {
  await signInViaApi(page.request, DEMO.dataEntry, E2E_DEMO_PASSWORD);
  await page.goto('/data-entry');
  // The review card sits below the officer's queue (the page's own data loads first).
  await expect(page.getByTestId('found-businesses')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('tab', { name: 'Accepted' })).toBeVisible();
  await page.getByRole('tab', { name: 'Accepted' }).click();
  await expect(
    page.getByTestId('found-business').filter({ hasText: 'sales@accrafreshfoods.com.gh' }),
  ).toBeVisible();
  await page.goto('/admin/scraper');
  await expect(page).not.toHaveURL(/\/admin\/scraper$/);
});
