import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '@server/db/client';
import { siteTrafficSalts } from '@server/db/schema/index';
import { lt, sql } from 'drizzle-orm';

/**
 * Crawlers, previews and scripted clients by user agent. No-JS crawlers never run the beacon at all;
 * this catches those that do (headless browsers, link unfurlers) and anything that calls it by hand.
 */
const BOT_USER_AGENT =
  /bot\b|bot\/|crawl|spider|slurp|scrape|headless|phantomjs|puppeteer|playwright|selenium|lighthouse|pagespeed|pingdom|uptime|monitor|preview|facebookexternalhit|embedly|quora link|whatsapp|telegram|discord|skype|curl\/|wget\/|python-|python\/|httpclient|okhttp|go-http|java\/|libwww|axios\/|node-fetch|undici|postman|insomnia/i;

export function isBotUserAgent(userAgent: string | undefined): boolean {
  if (!userAgent || userAgent.trim().length < 8) return true;
  return BOT_USER_AGENT.test(userAgent);
}

/** Do Not Track (`DNT: 1`) or Global Privacy Control (`Sec-GPC: 1`): the visit is not recorded. */
export function optedOut(headers: Record<string, string | string[] | undefined>): boolean {
  return headers.dnt === '1' || headers['sec-gpc'] === '1';
}

/** The UTC day of a moment, as PostgreSQL's date text. */
export const utcDay = (at: Date) => at.toISOString().slice(0, 10);

const cache = new Map<string, string>();

/**
 * The salt of `day`, made on first use by whichever process gets there first. Making a new day's salt
 * deletes every earlier one: from then on, no hash of an earlier day can be recomputed.
 */
export async function dailySalt(db: Database, day: string): Promise<string> {
  const cached = cache.get(day);
  if (cached) return cached;
  await db
    .insert(siteTrafficSalts)
    .values({ day, salt: randomBytes(32).toString('hex') })
    .onConflictDoNothing();
  const rows = await db.select().from(siteTrafficSalts).where(sql`${siteTrafficSalts.day} = ${day}`);
  const salt = rows[0]!.salt;
  await db.delete(siteTrafficSalts).where(lt(siteTrafficSalts.day, day));
  cache.clear();
  cache.set(day, salt);
  return salt;
}

/** The visitor of a day: neither the address nor the user agent can be read back from it. */
export function visitorHash(salt: string, ip: string, userAgent: string): string {
  return createHash('sha256').update(`${salt}\n${ip}\n${userAgent}`).digest('hex').slice(0, 32);
}

/**
 * The path of a page alone (no query, no fragment): a query can carry an address, and the sign-up link
 * pre-fills one. Trailing slashes are dropped so "/pricing/" and "/pricing" are one page.
 */
export function normalizePath(path: string): string {
  const bare = path.split(/[?#]/)[0] ?? '/';
  const trimmed = bare.length > 1 ? bare.replace(/\/+$/, '') : bare;
  return trimmed.slice(0, 300) || '/';
}

/** The host of an outside referrer; null for a direct visit, a move within the site, or junk. */
export function referrerHost(referrer: string | undefined, ownHosts: string[]): string | null {
  if (!referrer) return null;
  try {
    const url = new URL(referrer);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    const host = url.hostname.toLowerCase().replace(/^www\./, '');
    const own = ownHosts.map((h) => h.toLowerCase().replace(/^www\./, ''));
    if (!host || own.includes(host)) return null;
    return host.slice(0, 253);
  } catch {
    return null;
  }
}
