import { expect, test } from '@playwright/test';

/** Every link of the public footer (spec §2) opens a page of its own, never the not-found screen. */
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
