import { readFileSync } from 'node:fs';
import { DEFAULT_CURRENCY, getCurrencyInfo } from '@shared/currency';
import { DEFAULT_PRICING_PLANS } from '@shared/default-pricing-plans';
import {
  PAGE_VIEW_BEACON_PATH,
  PAGES_SHOWING_PLANS,
  PRERENDERED_QUERIES_ID,
  PUBLIC_PAGE_PATHS,
} from '@shared/public-site';
import { afterAll, describe, expect, it } from 'vitest';

import { getPageMeta } from '@/app/page-meta';
import { finish, renderPage } from '@/prerender';
import { composePage, type PrerenderedQueries } from '@/prerender-html';

const DEFAULT_PLANS: PrerenderedQueries = [[['/api/pricing-plans'], DEFAULT_PRICING_PLANS]];

const template = readFileSync(new URL('./index.html', import.meta.url), 'utf8');

function firstHeading(html: string): string | undefined {
  const match = html.match(/<h1[^>]*>([\s\S]*?)<\/h1>/);
  return match?.[1]?.replace(/<[^>]+>/g, '').trim();
}

afterAll(() => finish());

describe('prerendering the public pages (issue #19 §3)', () => {
  it('writes the pricing page with its title, description, robots, social cards and heading', async () => {
    const { html, meta } = await renderPage('/pricing');
    const page = composePage(template, html, meta);
    expect(page).toContain('<title>Pricing | Tambari</title>');
    expect(page.match(/<title>/g)).toHaveLength(1);
    expect(page).toContain(
      '<meta name="description" content="Simple plans billed in Naira: start free, then Starter, Growth or Pro as your outreach grows. Cancel anytime." />',
    );
    expect(page.match(/name="description"/g)).toHaveLength(1);
    expect(page).toContain(
      '<meta name="keywords" content="cold email pricing, Naira pricing, email marketing plans" />',
    );
    expect(page).toContain('<meta name="robots" content="index, follow" />');
    expect(page).toContain('<meta property="og:title" content="Pricing | Tambari" />');
    expect(page).toContain('<meta name="twitter:card" content="summary_large_image" />');
    expect(page).toContain('<div id="root" data-prerendered="">');
    expect(page).not.toContain('<noscript>');
    expect(firstHeading(page)).toBe('Plans that grow with your outreach');
  });

  it('inlines the stylesheet, so the page paints without a second request', () => {
    const built = template.replace(
      '</head>',
      '<link rel="stylesheet" crossorigin href="/assets/index-abc.css">\n</head>',
    );
    const page = composePage(
      built,
      '<h1>Hi</h1>',
      getPageMeta('/about', 'About'),
      new Map([['/assets/index-abc.css', 'h1{color:red}']]),
    );
    expect(page).toContain('<style>h1{color:red}</style>');
    expect(page).not.toContain('index-abc.css');
  });

  it('counts the page view from the boot module at the path the server answers (it imports nothing)', () => {
    const boot = readFileSync(new URL('./boot.ts', import.meta.url), 'utf8');
    const paths = boot.match(/'\/api\/[^']+'/g) ?? [];
    expect(paths.length).toBeGreaterThan(0);
    expect(new Set(paths)).toEqual(new Set([`'${PAGE_VIEW_BEACON_PATH}'`]));
  });

  it('loads only the boot module; the app’s entry and modules wait, inert, for the visitor’s intent', () => {
    const built = template
      .replace('<script type="module" src="/main.tsx"></script>', '')
      .replace(
        '</head>',
        '<script type="module" crossorigin src="/assets/entry-abc.js"></script>\n<link rel="modulepreload" crossorigin href="/assets/a.js">\n</head>',
      );
    const page = composePage(
      built,
      '<h1>Hi</h1>',
      getPageMeta('/about', 'About'),
      new Map(),
      [],
      '/assets/boot-x.js',
    );
    const scripts = page.match(/<script[^>]*>/g) ?? [];
    expect(scripts).toEqual(['<script type="module" crossorigin src="/assets/boot-x.js">']);
    // Inline scripts are forbidden by the content-security policy: the boot module is a file of its own.
    expect(page).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    const template_ = page.slice(page.indexOf('<template id="app-modules"'), page.indexOf('</template>'));
    expect(template_).toContain('data-entry="/assets/entry-abc.js"');
    expect(template_).toContain('<link rel="modulepreload" crossorigin href="/assets/a.js">');
    // Nothing of the app is fetched outside the template.
    const outside = page.replace(template_, '');
    expect(outside).not.toContain('modulepreload');
    expect(outside).not.toContain('entry-abc.js');
  });

  it('works without the app: the header’s links are real links and its small-screen menu is a <details>', async () => {
    const { html } = await renderPage('/pricing');
    const header = html.slice(html.indexOf('<header'), html.indexOf('</header>'));
    // No control in the header needs the app (the currency selector shows its label until the app runs).
    expect(header).not.toContain('<button');
    expect(header).toMatch(/<details[^>]*data-testid="public-menu"[^>]*>\s*<summary[^>]*aria-label="Menu"/);
    const menu = header.slice(header.indexOf('<details'), header.indexOf('</details>'));
    for (const href of [
      '/features',
      '/templates',
      '/pricing',
      '/docs',
      '/help',
      '/auth',
      '/auth?mode=signup',
    ]) {
      expect(menu, href).toContain(`href="${href.replace('&', '&amp;')}"`);
    }
  });

  it('shows the default display currency in the header before the app, as the app then shows a new visitor', async () => {
    for (const path of ['/', '/pricing']) {
      const { html } = await renderPage(path);
      const header = html.slice(html.indexOf('<header'), html.indexOf('</header>'));
      expect(header, path).not.toContain('Loading currency');
      // The wide and the small-screen header each show the label, in the button's own box.
      const labels = header.match(/<span[^>]*data-testid="currency-selector(?:-mobile)?-placeholder"[^>]*>/g);
      expect(labels, path).toHaveLength(2);
      for (const label of labels!) {
        expect(label).toContain(`data-currency="${DEFAULT_CURRENCY}"`);
        expect(label).toContain('h-8');
        expect(label).toContain('border');
      }
      const text = header.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
      expect(text, path).toContain(`${getCurrencyInfo(DEFAULT_CURRENCY).symbol} ${DEFAULT_CURRENCY}`);
    }
  });

  it('loads the app at once, at low priority, on a page with a part that needs it (live plans, a form)', async () => {
    const built = template
      .replace('<script type="module" src="/main.tsx"></script>', '')
      .replace(
        '</head>',
        '<script type="module" crossorigin src="/assets/entry-abc.js"></script>\n<link rel="modulepreload" crossorigin href="/assets/a.js">\n</head>',
      );
    const page = composePage(built, '<form data-needs-app="">…</form>', getPageMeta('/contact', 'Contact'));
    expect(page).toContain(
      '<script type="module" fetchpriority="low" crossorigin src="/assets/entry-abc.js">',
    );
    expect(page).toContain('<link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/a.js">');
    expect(page).not.toContain('<template');
    expect(page).not.toContain('boot');
    expect((await renderPage('/pricing')).html).toMatch(
      /<section[^>]*data-testid="pricing-plans"[^>]*data-needs-app=""/,
    );
    expect((await renderPage('/contact')).html).toMatch(/<form[^>]*data-needs-app=""/);
  });

  it('leaves no control needing the app on a page that waits for the visitor’s intent', async () => {
    const waiting = [];
    for (const path of PUBLIC_PAGE_PATHS) {
      // As the build renders them: the pages showing the plans with the default plans.
      const { html } = await renderPage(path, PAGES_SHOWING_PLANS.includes(path) ? DEFAULT_PLANS : []);
      if (html.includes('data-needs-app')) continue;
      waiting.push(path);
      // Links and <details> work without the app; a button or a field would do nothing until it loads,
      // unless it is marked as working without it (the pricing page's Monthly/Annual radio inputs).
      const controls = html.match(/<(button|input|select|textarea)\b[^>]*>/g) ?? [];
      expect(
        controls.filter((control) => !control.includes('data-works-without-app')),
        path,
      ).toEqual([]);
    }
    expect(waiting).toEqual(
      expect.arrayContaining(['/', '/pricing', '/features', '/help', '/about', '/privacy']),
    );
  });

  it('renders /pricing with the default plans as a plain page whose switch and plans work without the app', async () => {
    const { html } = await renderPage('/pricing', DEFAULT_PLANS);
    expect(html).not.toContain('data-needs-app');
    for (const plan of DEFAULT_PRICING_PLANS) expect(html).toContain(`data-testid="plan-card-${plan.id}"`);
    // Both intervals' prices are in the page; CSS shows the one whose radio input is checked.
    expect(html).toContain('₦15,000');
    expect(html).toContain('₦150,000');
    expect(html).toMatch(/<input type="radio"[^>]*checked=""[^>]*value="monthly"/);
    // The only controls are those radio inputs; choosing a plan is a link, for either interval.
    const controls = html.match(/<(button|input|select|textarea)\b[^>]*>/g) ?? [];
    expect(controls).toHaveLength(2);
    for (const control of controls) expect(control).toContain('data-works-without-app');
    expect(html).toContain('href="/auth?mode=signup&amp;plan=starter&amp;interval=monthly"');
    expect(html).toContain('href="/auth?mode=signup&amp;plan=starter&amp;interval=annual"');
    // Each price and link is marked with its interval, so only one of each is ever shown.
    expect(html.match(/data-for-interval="annual"/g)?.length).toBe(3 + 4);
  });

  it('renders the landing page with the default plans as a plain page whose pricing teaser shows them', async () => {
    const { html } = await renderPage('/', DEFAULT_PLANS);
    expect(html).not.toContain('data-needs-app');
    const teaser = html.slice(html.indexOf('data-testid="landing-pricing"'), html.indexOf('Compare plans'));
    for (const plan of DEFAULT_PRICING_PLANS)
      expect(teaser).toContain(`data-testid="landing-plan-${plan.id}"`);
    // In the default display currency, as the app shows a new visitor.
    expect(teaser).toMatch(
      new RegExp(`data-testid="landing-plan-price-starter" data-currency="${DEFAULT_CURRENCY}">\\$9`),
    );
    expect(teaser).not.toContain('animate-pulse');
    // Without the plans (an admin has changed them since the build) the teaser needs the app to fetch them.
    expect((await renderPage('/')).html).toMatch(
      /<section[^>]*data-testid="landing-pricing"[^>]*data-needs-app=""/,
    );
  });

  it('prerenders every page showing the plans, the landing page and /pricing, with the default plans', () => {
    expect([...PAGES_SHOWING_PLANS].sort()).toEqual(['/', '/pricing']);
  });

  it('embeds the data a page was rendered with as an inert JSON block, which nothing in it can close', () => {
    const plans = [{ ...DEFAULT_PRICING_PLANS[0]!, description: '</script><script>alert(1)</script>' }];
    const page = composePage(
      template,
      '<h1>Plans</h1>',
      getPageMeta('/pricing', 'Pricing'),
      new Map(),
      [],
      '/boot.js',
      [[['/api/pricing-plans'], plans]],
    );
    const block = new RegExp(
      `<script type="application/json" id="${PRERENDERED_QUERIES_ID}">([^<]*)</script>`,
    ).exec(page);
    expect(JSON.parse(block![1]!)).toEqual([[['/api/pricing-plans'], plans]]);
    expect(page).not.toContain('alert(1)</script>');
    // Still the boot module only: the block is data, not a script the CSP would have to allow.
    expect(page.match(/<script type="module"[^>]*>/g)).toEqual([
      '<script type="module" crossorigin src="/boot.js">',
    ]);
  });

  it('names the page modules a path renders, so its HTML can preload their chunks', async () => {
    expect((await renderPage('/pricing')).modules).toEqual(['features/billing/routes/pricing-page.tsx']);
    expect((await renderPage('/')).modules).toEqual(['features/landing/routes/landing-page.tsx']);
    expect((await renderPage('/bulk-emails')).modules).toEqual(['features/landing/routes/product-page.tsx']);
    for (const path of PUBLIC_PAGE_PATHS) expect((await renderPage(path)).modules, path).toHaveLength(1);
    const page = composePage(template, '<h1>Hi</h1>', getPageMeta('/pricing', 'Pricing'), new Map(), [
      '/assets/pricing-page-x.js',
    ]);
    expect(page).toContain('<link rel="modulepreload" crossorigin href="/assets/pricing-page-x.js">');
  });

  it('renders every public page signed out, with its heading and its own indexable metadata', async () => {
    for (const path of PUBLIC_PAGE_PATHS) {
      const { html, meta } = await renderPage(path);
      expect(firstHeading(html), path).toBeTruthy();
      expect(html, path).not.toContain('data-testid="not-found"');
      // The public frame, not the loader that waits for the session.
      expect(html, path).toContain('Skip to content');
      expect(meta.robots, path).toBe('index, follow');
      expect(meta.description.length, path).toBeGreaterThan(20);
    }
  });

  it('renders the landing page’s heading and keeps the dashboard and contacts out of search engines', async () => {
    const { html, meta } = await renderPage('/');
    expect(firstHeading(html)).toMatch(/^Find verified African business contacts/);
    expect(meta.title).toBe('Tambari — Verified African business leads, cold email and newsletters');
    expect(getPageMeta('/dashboard', 'Dashboard').robots).toBe('noindex, nofollow');
    expect(getPageMeta('/lead-discovery', 'Browse Contacts').robots).toBe('noindex, nofollow');
  });

  it('marks the parts a prerendered page keeps as sent (copy, pictures, links), not its controls', async () => {
    const { html } = await renderPage('/');
    const staticParts = html.match(/<(\w+)[^>]*data-static="[^"]+"/g) ?? [];
    // The hero, the three feature pictures, the features heading, two bands, the closing call, the footer.
    expect(staticParts.length).toBeGreaterThanOrEqual(8);
    expect(html).toMatch(/<footer[^>]*data-static="/);
    // The header (menu, currency) and the live figures and prices hydrate.
    const header = html.slice(html.indexOf('<header'), html.indexOf('</header>'));
    expect(header).not.toContain('data-static');
    expect(html).toMatch(/<section aria-label="Tambari in numbers"(?![^>]*data-static)[^>]*>/);
    // Ids come from useId: the same in the browser's hydrating render, so each part finds its element.
    const ids = [...html.matchAll(/data-static="([^"]+)"/g)].map((match) => match[1]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('leaves the layout and paint of the parts below the first screen until they come near the viewport', async () => {
    const deferred = (html: string) => html.match(/<(\w+)[^>]*class="[^"]*\bcontent-auto\b[^"]*"/g) ?? [];
    const landing = (await renderPage('/')).html;
    // The features, the two ways and the pricing teaser: parts whose text stands on the page's background.
    expect(deferred(landing).length).toBeGreaterThanOrEqual(3);
    // Text on a dark or coloured ground is always rendered, so contrast checkers read its real background.
    expect(landing).not.toMatch(/<footer[^>]*class="[^"]*\bcontent-auto\b/);
    expect(landing).not.toMatch(/<section[^>]*class="[^"]*\bcontent-auto\b[^"]*\bbg-sidebar\b/);
    // The first screen is laid out at once: the header, the hero and the figures.
    expect(landing.slice(0, landing.indexOf('Tambari in numbers'))).not.toContain('content-auto');
    expect(deferred((await renderPage('/features')).html).length).toBeGreaterThanOrEqual(1);
    expect(deferred((await renderPage('/pricing')).html).length).toBeGreaterThanOrEqual(1);
  });
});
