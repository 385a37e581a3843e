/**
 * Issue #19 §3: the public site's pages, prerendered to HTML at build time (scripts/prerender-plugin.ts),
 * listed in sitemap.xml and served as HTML to visitors without a session (src/server/lib/public-site.ts).
 */
export const PUBLIC_PAGE_PATHS = [
  '/',
  '/features',
  '/global-database',
  '/business-leads',
  '/custom-contact-lists',
  '/email-campaigns',
  '/email-newsletters',
  '/bulk-emails',
  '/analytics-reporting',
  '/pricing',
  '/templates',
  '/about',
  '/contact',
  '/docs',
  '/help',
  '/knowledge-base',
  '/status',
  '/privacy',
  '/terms',
  '/refund-policy',
  '/disclaimer',
  '/cookie-policy',
] as const;

/** The signed-in app and the account screens: kept out of search engines by robots.txt (and noindex). */
export const NOT_INDEXED_PATH_PREFIXES = [
  '/api/',
  '/dashboard',
  '/lead-discovery',
  '/contacts',
  '/campaigns',
  '/newsletters',
  '/inbox',
  '/analytics',
  '/settings',
  '/subscription',
  '/upgrade',
  '/launch',
  '/data-entry',
  '/database-download',
  '/admin',
  '/payment',
  '/checkout',
  '/complete-signup',
  '/reset-password',
  '/t/',
  '/u/',
] as const;

/** Where the prerendered pages are written inside the built client, and their index (path → file). */
export const PRERENDER_DIR = 'prerendered';
export const PRERENDER_MANIFEST = 'manifest.json';

/** The file name a public path is prerendered to ('/' → index.html, '/pricing' → pricing.html). */
export function prerenderFileName(path: string): string {
  return path === '/' ? 'index.html' : `${path.slice(1).replaceAll('/', '__')}.html`;
}

/** The page-view beacon's URL (Website Traffic, ./site-traffic.ts): every public page sends it. */
export const PAGE_VIEW_BEACON_PATH = '/api/traffic/page-view';

/**
 * The JSON block (`<script type="application/json">`, never executed) holding the query data a page was
 * prerendered with, as [query key, data] pairs: the app seeds its cache with it before hydrating, so its
 * first render matches the HTML.
 */
export const PRERENDERED_QUERIES_ID = 'prerendered-queries';

/** The public plan list's address, also its query key's first part. */
export const PRICING_PLANS_API_PATH = '/api/pricing-plans';

/**
 * The pages showing the plans (the landing page's pricing teaser, /pricing): the build prerenders them with
 * the default plans, a plain page loading only the boot module, and also without them (livePlansFileName).
 */
export const PAGES_SHOWING_PLANS: readonly string[] = ['/', '/pricing'];

/**
 * A page prerendered with the default plans (PAGES_SHOWING_PLANS) is also prerendered without them, the app loading
 * at once to fetch them: the server sends that version once an admin has changed the plans, so a visitor
 * never reads a stale price.
 */
export function livePlansFileName(file: string): string {
  return file.replace(/\.html$/, '.live-plans.html');
}
