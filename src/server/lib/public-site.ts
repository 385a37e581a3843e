import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pricingPlansFingerprint } from '@shared/default-pricing-plans';
import type { PricingPlan } from '@shared/payments';
import {
  livePlansFileName,
  NOT_INDEXED_PATH_PREFIXES,
  PRERENDER_DIR,
  PRERENDER_MANIFEST,
  PRERENDERED_QUERIES_ID,
  PRICING_PLANS_API_PATH,
  PUBLIC_PAGE_PATHS,
} from '@shared/public-site';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE_NAMES } from './auth';

/*
 * Issue #19 §3: the public site as crawlers see it. robots.txt and sitemap.xml are answered here (their
 * addresses need APP_URL, known only at run time), and each public page prerendered at build time is sent
 * as its own HTML to visitors without a session: crawlers and visitors without JavaScript read the page,
 * the others see it at once while the app starts. A signed-in visitor gets the app's index.html as before,
 * so the signed-in frame never flashes the public one.
 */

interface SendFileReply extends FastifyReply {
  sendFile(filename: string): FastifyReply;
}

function hasSessionCookie(request: FastifyRequest): boolean {
  const cookies = (request as FastifyRequest & { cookies?: Record<string, string | undefined> }).cookies;
  return SESSION_COOKIE_NAMES.some((name) => Boolean(cookies?.[name]));
}

function escapeXml(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

export function robotsTxt(appUrl: string): string {
  const origin = new URL(appUrl).origin;
  const lines = ['User-agent: *', 'Allow: /'];
  for (const prefix of NOT_INDEXED_PATH_PREFIXES) lines.push(`Disallow: ${prefix}`);
  lines.push('', `Sitemap: ${origin}/sitemap.xml`, '');
  return lines.join('\n');
}

export function sitemapXml(appUrl: string): string {
  const origin = new URL(appUrl).origin;
  const urls = PUBLIC_PAGE_PATHS.map((pagePath) => {
    const priority =
      pagePath === '/' ? '1.0' : pagePath === '/pricing' || pagePath === '/features' ? '0.9' : '0.7';
    return `  <url><loc>${escapeXml(`${origin}${pagePath}`)}</loc><changefreq>weekly</changefreq><priority>${priority}</priority></url>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

/** The prerendered pages the build wrote (path → file name inside PRERENDER_DIR), none when not built. */
export function readPrerenderManifest(webDist: string): Record<string, string> {
  const file = path.join(webDist, PRERENDER_DIR, PRERENDER_MANIFEST);
  if (!existsSync(file)) return {};
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
}

/**
 * The fingerprint of the plans a prerendered page shows (from its JSON block of query data), none when
 * it shows no plans.
 */
export function prerenderedPlansFingerprint(html: string): string | undefined {
  const block = new RegExp(
    `<script type="application/json" id="${PRERENDERED_QUERIES_ID}">([\\s\\S]*?)</script>`,
  ).exec(html)?.[1];
  if (!block) return undefined;
  const entries = JSON.parse(block) as Array<[unknown[], unknown]>;
  const plans = entries.find(([key]) => key[0] === PRICING_PLANS_API_PATH)?.[1];
  return plans ? pricingPlansFingerprint(plans as PricingPlan[]) : undefined;
}

export interface PublicSiteOptions {
  appUrl: string;
  webDist: string;
  /** The plans GET /api/pricing-plans answers now: a page prerendered with other plans is not sent. */
  livePricingPlans?: () => Promise<PricingPlan[]>;
}

export function registerPublicSite(app: FastifyInstance, options: PublicSiteOptions): void {
  const robots = robotsTxt(options.appUrl);
  const sitemap = sitemapXml(options.appUrl);
  app.get('/robots.txt', { schema: { hide: true } }, (_request, reply) =>
    reply.header('cache-control', 'public, max-age=3600').type('text/plain; charset=utf-8').send(robots),
  );
  app.get('/sitemap.xml', { schema: { hide: true } }, (_request, reply) =>
    reply
      .header('cache-control', 'public, max-age=3600')
      .type('application/xml; charset=utf-8')
      .send(sitemap),
  );

  /*
   * A page prerendered with the default plans is sent only while the live plans are those: otherwise
   * its version without plans goes, which loads the app at once and fetches them. The plans are read on
   * each request (four rows), not cached: an admin's edit shows on the next visit, on every instance.
   * When they cannot be read, the version without plans goes, the safe one.
   */
  const livePlansFingerprint = async (request: FastifyRequest): Promise<string | undefined> => {
    if (!options.livePricingPlans) return undefined;
    try {
      return pricingPlansFingerprint(await options.livePricingPlans());
    } catch (error) {
      request.log.warn({ err: error }, 'pricing plans unreadable: sending the page that fetches them');
      return undefined;
    }
  };

  const manifest = readPrerenderManifest(options.webDist);
  for (const [pagePath, file] of Object.entries(manifest)) {
    const prerendered = `${PRERENDER_DIR}/${file}`;
    const shownPlans = prerenderedPlansFingerprint(
      readFileSync(path.join(options.webDist, prerendered), 'utf8'),
    );
    const withoutPlans = `${PRERENDER_DIR}/${livePlansFileName(file)}`;
    if (shownPlans !== undefined && !existsSync(path.join(options.webDist, withoutPlans))) {
      throw new Error(`${prerendered} shows plans but the build wrote no ${withoutPlans}`);
    }
    app.get(pagePath, { schema: { hide: true } }, async (request, reply) => {
      let file = prerendered;
      if (hasSessionCookie(request)) file = 'index.html';
      else if (shownPlans !== undefined && (await livePlansFingerprint(request)) !== shownPlans) {
        file = withoutPlans;
      }
      return (reply as SendFileReply).header('cache-control', 'no-cache').sendFile(file);
    });
  }
}
