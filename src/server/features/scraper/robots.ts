import type { Database } from '@server/db/client';
import { scrapeHosts } from '@server/db/schema';
import { eq, sql } from 'drizzle-orm';
import robotsParser from 'robots-parser';
import type { PageFetcher } from './fetch-page';

/*
 * robots.txt per host, as RFC 9309 says a crawler reads it: a 4xx means no rules (everything allowed), a
 * 5xx or no answer means assume everything is disallowed until it can be read. Kept in scrape_hosts for a
 * day, so every job and worker shares one copy and a host is not asked again for each page.
 */

const ROBOTS_TTL_MS = 24 * 60 * 60 * 1000;
/** An unreachable robots.txt is asked again sooner: the site may simply have been down. */
const UNREACHABLE_TTL_MS = 60 * 60 * 1000;
const MAX_ROBOTS_REDIRECTS = 5;
const MAX_CRAWL_DELAY_SECONDS = 60;

export interface HostRules {
  isAllowed(url: string): boolean;
  /** Seconds robots.txt asks us to wait between requests, capped; 0 when it says nothing. */
  crawlDelaySeconds: number;
}

type RobotsState = 'ok' | 'none' | 'unreachable';

export const hostKey = (url: URL) => url.host.toLowerCase();

function rulesFrom(origin: string, state: RobotsState, body: string | null, agent: string): HostRules {
  if (state === 'unreachable') return { isAllowed: () => false, crawlDelaySeconds: 0 };
  if (state === 'none' || !body) return { isAllowed: () => true, crawlDelaySeconds: 0 };
  const robots = robotsParser(`${origin}/robots.txt`, body);
  return {
    isAllowed: (url) => robots.isAllowed(url, agent) !== false,
    crawlDelaySeconds: Math.min(MAX_CRAWL_DELAY_SECONDS, Math.max(0, robots.getCrawlDelay(agent) ?? 0)),
  };
}

async function fetchRobots(
  fetcher: PageFetcher,
  origin: string,
): Promise<{ state: RobotsState; body: string | null }> {
  let url = new URL('/robots.txt', origin);
  for (let hop = 0; hop <= MAX_ROBOTS_REDIRECTS; hop++) {
    const outcome = await fetcher.fetch(url, 'robots');
    if (outcome.kind === 'page') return { state: 'ok', body: outcome.body.slice(0, 500_000) };
    if (outcome.kind === 'redirect') {
      url = new URL(outcome.location);
      continue;
    }
    if (outcome.reason === 'httpError' && outcome.status !== undefined && outcome.status < 500) {
      return { state: 'none', body: null };
    }
    if (outcome.reason === 'contentType') return { state: 'none', body: null };
    return { state: 'unreachable', body: null };
  }
  return { state: 'none', body: null };
}

/** The rules for a URL's host, read from the shared cache or fetched (and cached) now. */
export async function hostRulesFor(options: {
  db: Database;
  fetcher: PageFetcher;
  url: URL;
  agent: string;
  memo: Map<string, HostRules>;
}): Promise<HostRules> {
  const host = hostKey(options.url);
  const cached = options.memo.get(host);
  if (cached) return cached;
  const origin = options.url.origin;
  const [row] = await options.db.select().from(scrapeHosts).where(eq(scrapeHosts.host, host));
  const age = row?.robotsFetchedAt ? Date.now() - row.robotsFetchedAt.getTime() : Number.POSITIVE_INFINITY;
  const ttl = row?.robotsState === 'unreachable' ? UNREACHABLE_TTL_MS : ROBOTS_TTL_MS;
  let rules: HostRules;
  if (row?.robotsState && age < ttl) {
    rules = rulesFrom(origin, row.robotsState, row.robotsTxt, options.agent);
  } else {
    const fetched = await fetchRobots(options.fetcher, origin);
    await options.db
      .insert(scrapeHosts)
      .values({ host, robotsTxt: fetched.body, robotsState: fetched.state, robotsFetchedAt: sql`now()` })
      .onConflictDoUpdate({
        target: scrapeHosts.host,
        set: { robotsTxt: fetched.body, robotsState: fetched.state, robotsFetchedAt: sql`now()` },
      });
    rules = rulesFrom(origin, fetched.state, fetched.body, options.agent);
  }
  options.memo.set(host, rules);
  return rules;
}

/**
 * Reserves this host's next request slot, `delaySeconds` after the previous one, and answers how long to
 * wait for it. The reservation is one row update, so two jobs or two workers crawling the same host
 * still keep the spacing between them.
 */
export async function reserveHostSlot(options: {
  db: Database;
  host: string;
  delaySeconds: number;
}): Promise<number> {
  await options.db.insert(scrapeHosts).values({ host: options.host }).onConflictDoNothing();
  // The row lock of the UPDATE orders concurrent reservations; RETURNING sees the new value, which is
  // the reserved slot plus the delay.
  const result = await options.db.execute(sql`
    UPDATE scrape_hosts
    SET next_fetch_at = greatest(next_fetch_at, clock_timestamp()) + make_interval(secs => ${options.delaySeconds})
    WHERE host = ${options.host}
    RETURNING extract(epoch FROM next_fetch_at - make_interval(secs => ${options.delaySeconds}) - clock_timestamp())
      * 1000 AS wait_ms`);
  const row = (result as unknown as { rows: { wait_ms: string | number }[] }).rows[0];
  return Math.max(0, Math.ceil(Number(row?.wait_ms ?? 0)));
}

/**
 * After a fetch: the next request to the host waits the delay from now, the end of this one, so a slow
 * server gets the whole pause (and the spacing never depends on how long the answer took).
 */
export async function releaseHostSlot(options: { db: Database; host: string; delaySeconds: number }) {
  await options.db.execute(sql`
    UPDATE scrape_hosts
    SET next_fetch_at = greatest(next_fetch_at, clock_timestamp() + make_interval(secs => ${options.delaySeconds}))
    WHERE host = ${options.host}`);
}
