import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import { DEFAULT_PRICING_PLANS } from '@shared/default-pricing-plans';
import type { PricingPlan } from '@shared/payments';
import {
  livePlansFileName,
  PAGES_SHOWING_PLANS,
  PRERENDERED_QUERIES_ID,
  PUBLIC_PAGE_PATHS,
  prerenderFileName,
} from '@shared/public-site';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE_NAMES } from './auth';
import { registerPublicSite, robotsTxt, sitemapXml } from './public-site';

describe('robots.txt and sitemap.xml', () => {
  it('lets crawlers in, keeps them out of the app and points at the sitemap', () => {
    const robots = robotsTxt('https://app.example.ng/some/path');
    expect(robots).toContain('User-agent: *\nAllow: /\n');
    for (const path of ['/dashboard', '/lead-discovery', '/contacts', '/admin', '/api/']) {
      expect(robots).toContain(`Disallow: ${path}\n`);
    }
    expect(robots).toContain('Sitemap: https://app.example.ng/sitemap.xml');
  });

  it('lists every public page by its absolute address, and no app page', () => {
    const xml = sitemapXml('https://app.example.ng');
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    expect(locs).toEqual(PUBLIC_PAGE_PATHS.map((page) => `https://app.example.ng${page}`));
    expect(locs).toContain('https://app.example.ng/pricing');
    expect(xml).not.toContain('/dashboard');
  });
});

describe('serving the prerendered pages', () => {
  let dir: string;
  let app: FastifyInstance;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'tambari-public-site-'));
    writeFileSync(path.join(dir, 'index.html'), '<div id="root"></div>');
    mkdirSync(path.join(dir, 'prerendered'));
    writeFileSync(
      path.join(dir, 'prerendered', 'pricing.html'),
      '<title>Pricing | Tambari</title><h1>Plans</h1>',
    );
    writeFileSync(path.join(dir, 'prerendered', 'index.html'), '<h1>Landing</h1>');
    writeFileSync(
      path.join(dir, 'prerendered', 'manifest.json'),
      JSON.stringify({ '/pricing': 'pricing.html', '/': 'index.html' }),
    );
    app = Fastify();
    await app.register(fastifyCookie);
    await app.register(fastifyStatic, { root: dir, wildcard: false, index: false });
    registerPublicSite(app, { appUrl: 'http://localhost:3000', webDist: dir });
    await app.ready();
  });

  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends a visitor without a session the page as prerendered', async () => {
    const pricing = await app.inject({ url: '/pricing?interval=annual', headers: { accept: 'text/html' } });
    expect(pricing.statusCode).toBe(200);
    expect(pricing.headers['content-type']).toContain('text/html');
    expect(pricing.body).toContain('<h1>Plans</h1>');
    const landing = await app.inject({ url: '/' });
    expect(landing.body).toBe('<h1>Landing</h1>');
  });

  it('sends a signed-in visitor the app itself', async () => {
    for (const name of SESSION_COOKIE_NAMES) {
      const response = await app.inject({ url: '/pricing', cookies: { [name]: 'token' } });
      expect(response.body).toBe('<div id="root"></div>');
    }
  });

  it('answers robots.txt and sitemap.xml with the installation’s address', async () => {
    const robots = await app.inject({ url: '/robots.txt' });
    expect(robots.headers['content-type']).toContain('text/plain');
    expect(robots.body).toContain('Sitemap: http://localhost:3000/sitemap.xml');
    const sitemap = await app.inject({ url: '/sitemap.xml' });
    expect(sitemap.headers['content-type']).toContain('application/xml');
    expect(sitemap.body).toContain('<loc>http://localhost:3000/features</loc>');
  });
});

/** The landing page's pricing teaser and /pricing: each is sent as built only while its plans are live. */
describe.each(PAGES_SHOWING_PLANS)('%s prerendered with the default plans', (pagePath) => {
  const file = prerenderFileName(pagePath);
  let dir: string;
  let app: FastifyInstance;
  let livePlans: () => Promise<PricingPlan[]>;
  const withDefaults = (plans: readonly PricingPlan[]) =>
    `<h1>Plans</h1><script type="application/json" id="${PRERENDERED_QUERIES_ID}">${JSON.stringify([
      [['/api/pricing-plans'], plans],
    ]).replaceAll('<', '\\u003c')}</script><script src="/boot.js"></script>`;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'tambari-public-site-plans-'));
    writeFileSync(path.join(dir, 'index.html'), '<div id="root"></div>');
    mkdirSync(path.join(dir, 'prerendered'));
    writeFileSync(path.join(dir, 'prerendered', file), withDefaults(DEFAULT_PRICING_PLANS));
    writeFileSync(
      path.join(dir, 'prerendered', livePlansFileName(file)),
      '<h1>Plans</h1><script src="/app.js">',
    );
    writeFileSync(path.join(dir, 'prerendered', 'manifest.json'), JSON.stringify({ [pagePath]: file }));
    app = Fastify();
    await app.register(fastifyCookie);
    await app.register(fastifyStatic, { root: dir, wildcard: false, index: false });
    registerPublicSite(app, {
      appUrl: 'http://localhost:3000',
      webDist: dir,
      livePricingPlans: () => livePlans(),
    });
    await app.ready();
  });

  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is sent, loading only the boot module, while the live plans are the defaults', async () => {
    // The same plans, their fields read from the database in another order.
    livePlans = async () =>
      DEFAULT_PRICING_PLANS.map((plan) => Object.fromEntries(Object.entries(plan).reverse()) as PricingPlan);
    const response = await app.inject({ url: pagePath });
    expect(response.body).toContain('/boot.js');
  });

  it('is never sent once a plan differs in any way: the page that fetches the live plans goes instead', async () => {
    const edits: Array<Partial<PricingPlan>> = [
      { priceMonthly: 16_000_00 },
      { priceAnnual: 160_000_00 },
      { recipientLimit: 12_000 },
      { name: 'Starter plus' },
      { description: 'New words' },
    ];
    for (const edit of edits) {
      livePlans = async () =>
        DEFAULT_PRICING_PLANS.map((plan) => (plan.id === 'starter' ? { ...plan, ...edit } : plan));
      const response = await app.inject({ url: pagePath });
      expect(response.body, JSON.stringify(edit)).toContain('/app.js');
    }
    // A plan turned off (the list shows only active plans) and the defaults again.
    livePlans = async () => DEFAULT_PRICING_PLANS.filter((plan) => plan.id !== 'enterprise');
    expect((await app.inject({ url: pagePath })).body).toContain('/app.js');
    livePlans = async () => [...DEFAULT_PRICING_PLANS];
    expect((await app.inject({ url: pagePath })).body).toContain('/boot.js');
  });

  it('is not sent when the plans cannot be read', async () => {
    livePlans = async () => {
      throw new Error('database down');
    };
    expect((await app.inject({ url: pagePath })).body).toContain('/app.js');
  });

  it('is not sent to a signed-in visitor, who gets the app', async () => {
    livePlans = async () => [...DEFAULT_PRICING_PLANS];
    const response = await app.inject({ url: pagePath, cookies: { [SESSION_COOKIE_NAMES[0]!]: 'token' } });
    expect(response.body).toBe('<div id="root"></div>');
  });
});
