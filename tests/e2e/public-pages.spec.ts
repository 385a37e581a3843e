import { expect, type Page, test } from '@playwright/test';

/**
 * A prerendered page loads the app on the visitor's first sign of intent (src/web/boot.ts): a key press
 * is one, and the page then hydrates.
 */
async function showIntent(page: Page): Promise<void> {
  await page.keyboard.press('Shift');
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
}

/** The site's scripts the page has requested, by path. */
function recordScripts(page: Page): string[] {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  return scripts;
}

/** Every link of the public footer opens a page of its own, never the not-found screen. */
test('the footer’s Platform, Support and Legal links all lead to real pages', async ({ page }) => {
  await page.goto('/');
  const footer = page.locator('footer');
  await expect(footer.getByRole('link', { name: 'Privacy Policy' })).toBeVisible();
  const hrefs = await footer
    .locator('nav a')
    .evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
  expect(hrefs.length).toBeGreaterThanOrEqual(20);
  for (const href of hrefs) {
    await page.goto(href);
    await expect(page.locator('h1').first(), href).toBeVisible();
    await expect(page.getByTestId('not-found'), href).toHaveCount(0);
  }
});

test('a visitor goes from the features overview to a product page and on to pricing', async ({ page }) => {
  await page.goto('/features');
  await expect(page).toHaveTitle(/^Features \| Tambari/);
  await page.getByTestId('feature-link-email-campaigns').click();
  await expect(page).toHaveURL(/\/email-campaigns$/);
  await expect(page.getByTestId('product-title')).toHaveText('Multi-step campaigns that follow up for you');
  await expect(page.getByText('Follow-ups in the same thread')).toBeVisible();
  await page.getByTestId('page-cta').click();
  await expect(page).toHaveURL(/\/pricing$/);
});

test('the legal pages are indexable documents with their sections linked', async ({ page }) => {
  await page.goto('/privacy');
  await expect(page.getByTestId('legal-title')).toHaveText('Privacy Policy');
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /^index/);
  const firstSection = page.getByRole('navigation', { name: 'On this page' }).getByRole('link').first();
  await firstSection.click();
  await expect(page).toHaveURL(/#section-1$/);
  await page.getByRole('link', { name: 'Refund Policy' }).last().click();
  await expect(page.getByTestId('legal-title')).toHaveText('Refund Policy');
});

test('the contact page writes to the team with the subject filled in', async ({ page }) => {
  await page.goto('/contact');
  await expect(page.getByTestId('contact-support')).toHaveAttribute(
    'href',
    'mailto:hello@tambari.africa?subject=Support%20request',
  );
});

test('the public pages fit a phone screen without sideways scrolling', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  for (const path of [
    '/',
    '/features',
    '/email-campaigns',
    '/global-database',
    '/about',
    '/contact',
    '/docs',
    '/terms',
  ]) {
    await page.goto(path);
    await expect(page.locator('h1').first(), path).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, path).toBeLessThanOrEqual(0);
  }
});

/** Issue #19 §3: the public pages arrive as HTML with their content and metadata, before any script runs. */
test('a public page is readable without JavaScript, with its title, description and heading', async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/features');
  await expect(page).toHaveTitle('Features | Tambari');
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /^Lead discovery across/);
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', 'Features | Tambari');
  await expect(page.getByTestId('features-title')).toBeVisible();
  await page.goto('/pricing');
  await expect(page).toHaveTitle('Pricing | Tambari');
  await expect(page.locator('h1')).toHaveText('Plans that grow with your outreach');
  await context.close();
});

test('the prerendered pages come alive in the browser without a hydration error', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  for (const path of ['/', '/pricing', '/features', '/help']) {
    await page.goto(path);
    await showIntent(page);
    // The currency selector replaces its placeholder once the app runs.
    await expect(page.getByTestId('currency-selector')).toBeVisible();
  }
  await page.getByTestId('currency-selector').click();
  await page.getByTestId('currency-option-NGN').click();
  await expect(page.getByTestId('currency-selector')).toHaveAttribute('data-currency', 'NGN');
  expect(errors.filter((text) => /hydrat|#418|#423|#425/i.test(text))).toEqual([]);
});

/** Only the controls hydrate; copy, pictures and plain links stay the HTML the page was sent. */
test('a prerendered page brings its controls to life and keeps its static parts as sent', async ({
  page,
}) => {
  await page.goto('/');
  await showIntent(page);
  const hydrated = (selector: string) =>
    page
      .locator(selector)
      .first()
      .evaluate((element) => Object.keys(element).some((key) => key.startsWith('__reactFiber')));
  expect(await hydrated('[data-testid="header-login"]')).toBe(true);
  expect(await hydrated('[data-testid="currency-selector"]')).toBe(true);
  expect(await hydrated('footer a[href="/pricing"]')).toBe(false);
  expect(await hydrated('[data-testid="cta-get-started"]')).toBe(false);
  // A link in a kept part still leads on, to the next prerendered page.
  await page.getByTestId('cta-get-started').click();
  await expect(page).toHaveURL(/\/pricing$/);
  await expect(page.locator('h1')).toHaveText('Plans that grow with your outreach');
  // The header's sign-in link opens the app's sign-in page.
  await showIntent(page);
  await page.getByTestId('header-login').click();
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByRole('button', { name: /sign in/i }).first()).toBeVisible();
});

/** Issue #19 section 3: a visitor who only reads a page never pays for the app's JavaScript. */
test('a prerendered page loads only its boot module until the visitor shows intent, then hydrates', async ({
  page,
}) => {
  const scripts = recordScripts(page);
  await page.goto('/features');
  await page.waitForLoadState('networkidle');
  expect(scripts).toHaveLength(1);
  expect(scripts[0]).toMatch(/^\/assets\/boot-[\w-]+\.js$/);
  expect(await page.locator('html[data-hydrated]').count()).toBe(0);
  // Reaching for the page with the pointer is intent: the app loads and hydrates the page.
  await page.mouse.move(300, 300);
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
  expect(scripts.some((path) => /^\/assets\/entry-[\w-]+\.js$/.test(path))).toBe(true);
  await expect(page.getByTestId('currency-selector')).toBeVisible();
});

/**
 * The landing page is a plain page while the live plans are the defaults it was prerendered with: its
 * pricing teaser and the header's currency are in the HTML, and the app, once it runs, fetches neither
 * the plans nor moves the currency selector.
 */
test('the landing page shows its plans and currency before the app, which keeps them in place', async ({
  page,
}) => {
  const scripts = recordScripts(page);
  const planRequests: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/pricing-plans') planRequests.push(request.url());
  });
  await page.setViewportSize({ width: 1366, height: 800 });
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  expect(scripts).toEqual([expect.stringMatching(/^\/assets\/boot-[\w-]+\.js$/)]);
  // (read without scrolling to it: scrolling is intent, which would load the app)
  const teaser = page.getByTestId('landing-pricing');
  await expect(teaser.getByTestId('landing-plan-price-starter')).toHaveText('$9.00');
  const label = page.getByTestId('currency-selector-placeholder');
  await expect(label).toContainText('USD');
  const before = await label.boundingBox();
  expect(before?.width).toBeGreaterThan(40);
  expect(await page.locator('html[data-hydrated]').count()).toBe(0);

  await showIntent(page);
  const selector = page.getByTestId('currency-selector');
  await expect(selector).toHaveAttribute('data-currency', 'USD');
  const after = await selector.boundingBox();
  for (const side of ['x', 'y', 'width', 'height'] as const) {
    expect(Math.abs((after?.[side] ?? 0) - (before?.[side] ?? 0)), side).toBeLessThan(0.5);
  }
  await expect(teaser.getByTestId('landing-plan-price-starter')).toHaveText('$9.00');
  expect(planRequests).toEqual([]);
});

test('the small-screen menu opens on the first tap, and stays open while the app loads', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/features');
  await page.getByTestId('public-menu-toggle').click();
  const menu = page.locator('#public-mobile-menu');
  await expect(menu.getByRole('link', { name: 'Pricing' })).toBeVisible();
  // The tap was intent: the page hydrates, and the menu the visitor opened is still open.
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
  await expect(menu.getByRole('link', { name: 'Pricing' })).toBeVisible();
  await page.getByTestId('public-menu-toggle').click();
  await expect(menu).toBeHidden();
  await page.getByTestId('public-menu-toggle').click();
  await menu.getByRole('link', { name: 'Pricing' }).click();
  await expect(page).toHaveURL(/\/pricing$/);
  await expect(page.locator('h1')).toHaveText('Plans that grow with your outreach');
  await expect(menu).toBeHidden();
});

test('the small-screen menu and its links work without JavaScript', async ({ browser }) => {
  const context = await browser.newContext({
    javaScriptEnabled: false,
    viewport: { width: 390, height: 844 },
  });
  const page = await context.newPage();
  await page.goto('/');
  await page.getByTestId('public-menu-toggle').click();
  await page.locator('#public-mobile-menu').getByRole('link', { name: 'Features' }).click();
  await expect(page).toHaveURL(/\/features$/);
  await expect(page.getByTestId('features-title')).toBeVisible();
  await context.close();
});

test('a page with live parts (the status) loads the app without waiting for intent', async ({ page }) => {
  await page.goto('/status');
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
  await expect(page.getByTestId('status-refresh')).toBeEnabled();
});

/**
 * Issue #19 section 3: /pricing, prerendered with the default plans, is a plain page while they are the
 * live plans: the Monthly/Annual switch and the plan links work before the app has loaded, and the app
 * keeps what the visitor chose.
 */
test('the pricing page switches to annual prices before the app loads, and the app keeps the choice', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  // The app's entry waits until the test lets it through: what happens before is the page without it.
  let releaseApp = () => {};
  const appHeld = new Promise<void>((resolve) => {
    releaseApp = resolve;
  });
  await page.route(/\/assets\/entry-[\w-]+\.js$/, async (route) => {
    await appHeld;
    await route.continue();
  });
  const scripts = recordScripts(page);
  await page.goto('/pricing');
  await page.waitForLoadState('networkidle');
  expect(scripts).toEqual([expect.stringMatching(/^\/assets\/boot-[\w-]+\.js$/)]);

  const starter = page.getByTestId('plan-card-starter');
  await expect(starter.locator('[data-for-interval="monthly"]').first()).toContainText('₦15,000');
  await expect(starter.locator('[data-for-interval="annual"]').first()).toBeHidden();
  // A tap on Annual (the tap also starts loading the app, held here) shows the annual prices at once.
  await page.getByTestId('interval-annual').click();
  expect(await page.locator('html[data-hydrated]').count()).toBe(0);
  await expect(starter.locator('[data-for-interval="annual"]').first()).toContainText('₦150,000');
  await expect(starter.locator('[data-for-interval="monthly"]').first()).toBeHidden();
  await expect(starter.getByRole('link', { name: 'Choose plan: Starter' })).toHaveAttribute(
    'href',
    '/auth?mode=signup&plan=starter&interval=annual',
  );
  // The keyboard works too: arrow keys move between the two options.
  await page.getByRole('radio', { name: /Annual/ }).focus();
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByRole('radio', { name: 'Monthly' })).toBeChecked();
  await expect(starter.locator('[data-for-interval="monthly"]').first()).toBeVisible();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('radio', { name: /Annual/ })).toBeChecked();

  // The app hydrates the page with the plans it was sent and keeps the visitor's choice.
  releaseApp();
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
  await expect(page.getByTestId('pricing-plans')).toHaveAttribute('data-interval', 'annual');
  // (in the visitor's currency now: the app looks it up once it runs)
  await expect(page.getByTestId('plan-price-starter-line')).toContainText('/year');
  await page.getByTestId('choose-plan-starter').click();
  await expect(page).toHaveURL('/auth?mode=signup&plan=starter&interval=annual');
  expect(errors.filter((text) => /hydrat|#418|#423|#425|Content.Security.Policy/i.test(text))).toEqual([]);
});

test('robots.txt and sitemap.xml describe the public site', async ({ request }) => {
  const robots = await request.get('/robots.txt');
  expect(robots.ok()).toBe(true);
  expect(await robots.text()).toMatch(/Disallow: \/dashboard[\s\S]*Sitemap: .+\/sitemap\.xml/);
  const sitemap = await request.get('/sitemap.xml');
  expect(sitemap.headers()['content-type']).toContain('xml');
  const xml = await sitemap.text();
  expect(xml).toMatch(/<loc>[^<]+\/pricing<\/loc>/);
  expect(xml).not.toContain('/dashboard');
});
