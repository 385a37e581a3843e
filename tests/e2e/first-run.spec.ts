import { expect, type Page, test } from '@playwright/test';
import { newAccount, registerViaApi, signInAsSuperAdmin, signInViaApi } from './support/accounts';
import { setPlanViaAdmin } from './support/contacts';
import { DEMO, E2E_BASE_URL, E2E_DEMO_PASSWORD } from './support/env';

/** What new users hit first: greetings, dead ends and layouts at a laptop's and a phone's width. */

/** How far the page scrolls sideways (0 when nothing sticks out). */
function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

test('a brand-new user is welcomed by first name, then welcomed back', async ({ page }) => {
  const account = await registerViaApi(page.request, newAccount('welcome', { firstName: 'Chidi' }));
  await page.goto('/dashboard');
  const heading = page.getByTestId('welcome-header').getByRole('heading', { level: 1 });
  await expect(heading).toHaveText('Welcome, Chidi');
  await expect(heading).not.toContainText(account.email.split('@')[0]!);
  await page.reload();
  await expect(heading).toHaveText('Welcome back, Chidi');
});

test('a free user sees what they can use, not the whole directory', async ({ page }) => {
  await registerViaApi(page.request, newAccount('scope'));
  await page.goto('/dashboard');
  const card = page.getByTestId('stat-available-contacts');
  await expect(card.getByTestId('stat-available-contacts-value')).toHaveText('0');
  await expect(card.getByRole('link', { name: 'Choose one country and category to start' })).toHaveAttribute(
    'href',
    '/lead-discovery',
  );
});

test('/payment-success without a reference explains and links to the subscription page', async ({ page }) => {
  await registerViaApi(page.request, newAccount('noref'));
  await page.goto('/payment-success');
  const card = page.getByTestId('payment-success-no-reference');
  await expect(card.getByRole('heading', { name: 'No payment to confirm' })).toBeVisible();
  await expect(page.getByTestId('payment-success-pending')).toHaveCount(0);
  await card.getByTestId('payment-success-subscription').click();
  await expect(page).toHaveURL('/subscription');
});

test("a super admin opening a customer's campaign address lands on its admin view", async ({
  page,
  playwright,
}) => {
  // The customer's draft, made through the API as that customer.
  const customer = await playwright.request.newContext({ baseURL: E2E_BASE_URL });
  await registerViaApi(customer, newAccount('owner'));
  const created = await customer.post('/api/campaigns', { data: { name: 'Harmattan promo' } });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  await customer.dispose();

  await signInAsSuperAdmin(page.request);
  await page.goto(`/campaigns/${id}/steps`);
  await expect(page).toHaveURL(`/admin/campaigns/${id}/steps`);
  await expect(page.getByText('Campaign not found')).toHaveCount(0);
  await page.goto(`/campaigns/${id}`);
  await expect(page).toHaveURL(`/admin/campaigns/${id}`);
});

test.describe('layout at 1366 px', () => {
  test.use({ viewport: { width: 1366, height: 800 } });

  test('Browse Contacts shows its last column without cutting it', async ({ page, playwright }) => {
    // A paid subscriber browses every country and category.
    const account = await registerViaApi(page.request, newAccount('browse'));
    const admin = await playwright.request.newContext({ baseURL: E2E_BASE_URL });
    await signInAsSuperAdmin(admin);
    await setPlanViaAdmin(admin, account.email, 'starter');
    await admin.dispose();
    await page.goto('/lead-discovery');
    const table = page.getByTestId('leads-table');
    await expect(table.getByTestId('lead-row').first()).toBeVisible({ timeout: 30_000 });
    const lastHeader = table.locator('thead th').last();
    const headerBox = await lastHeader.boundingBox();
    const frame = await page.getByTestId('leads-table-frame').boundingBox();
    expect(headerBox && frame).toBeTruthy();
    // The whole last column lies inside the visible frame of the table.
    expect(headerBox!.x + headerBox!.width).toBeLessThanOrEqual(frame!.x + frame!.width + 1);
    expect(await horizontalOverflow(page)).toBe(0);
    await page.screenshot({ path: test.info().outputPath('browse-contacts-1366.png') });
  });

  test('the annual price keeps "/year" inside its card', async ({ page }) => {
    await page.goto('/pricing');
    await page.getByTestId('interval-annual').click();
    await expect(page.getByTestId('pricing-plans')).toHaveAttribute('data-interval', 'annual');
    for (const plan of ['starter', 'professional', 'enterprise']) {
      const card = await page.getByTestId(`plan-card-${plan}`).boundingBox();
      const line = page.getByTestId(`plan-price-${plan}-line`);
      const suffix = await line.getByText('/year').boundingBox();
      expect(card && suffix, plan).toBeTruthy();
      expect(suffix!.x + suffix!.width, plan).toBeLessThanOrEqual(card!.x + card!.width);
    }
    expect(await horizontalOverflow(page)).toBe(0);
    await page.screenshot({ path: test.info().outputPath('pricing-annual-1366.png'), fullPage: true });
  });
});

test.describe('layout at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("/data-entry's queue fits a phone", async ({ page }) => {
    await signInViaApi(page.request, DEMO.dataEntry, E2E_DEMO_PASSWORD);
    // A real contact waiting in the queue, with the long company name and address real ones have.
    const token = `${Date.now()}`;
    const entered = await page.request.post('/api/data-entry/contacts', {
      data: {
        companyName: `Kano Grains and Agricultural Produce Export Cooperative ${token}`,
        email: `procurement.department.${token}@kanograinsandagriculturalproduce.test`,
        website: `https://www.kanograinsandagriculturalproduceexportcooperative.test/${token}`,
        countryCode: 'NG',
        category: 'agriculture',
      },
    });
    expect(entered.status(), await entered.text()).toBe(201);
    await page.goto('/data-entry');
    const queue = page.getByTestId('verification-queue');
    await expect(queue.getByTestId('queue-empty')).toHaveCount(0);
    const box = await queue.boundingBox();
    expect(box!.width).toBeLessThanOrEqual(390);
    expect(await horizontalOverflow(page)).toBe(0);
    await page.screenshot({ path: test.info().outputPath('data-entry-390.png'), fullPage: true });
  });

  test('the annual price keeps "/year" inside its card on a phone', async ({ page }) => {
    await page.goto('/pricing');
    await page.getByTestId('interval-annual').click();
    for (const plan of ['starter', 'professional', 'enterprise']) {
      const card = await page.getByTestId(`plan-card-${plan}`).boundingBox();
      const suffix = await page.getByTestId(`plan-price-${plan}-line`).getByText('/year').boundingBox();
      expect(suffix!.x + suffix!.width, plan).toBeLessThanOrEqual(card!.x + card!.width);
    }
    expect(await horizontalOverflow(page)).toBe(0);
  });
});

test('the contact form reaches the team: stored, shown to super admins, confirmed by email', async ({
  page,
}) => {
  const email = `e2e-contact-${Date.now()}@example.com`;
  await page.goto('/contact');
  const form = page.getByTestId('contact-form');
  await form.getByLabel('Your name').fill('Ngozi Eze');
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Message').fill('Can Tambari import contacts from our CRM export?');
  await form.getByTestId('contact-submit').click();
  await expect(page.getByTestId('contact-form-sent')).toContainText('We have emailed you a copy');

  await signInAsSuperAdmin(page.request);
  await page.goto('/admin-dashboard');
  const card = page.getByTestId('contact-messages');
  const row = card.getByTestId('contact-message-row').filter({ hasText: email });
  await expect(row).toContainText('Can Tambari import contacts from our CRM export?');
  await row.getByTestId('contact-message-handled').click();
  await expect(row).toHaveCount(0);
});

test('/docs has real guides and /knowledge-base searches them', async ({ page }) => {
  await page.goto('/docs');
  await expect(page.getByTestId('docs-guides').getByRole('link')).toHaveCount(6);
  await page.getByTestId('guide-link-deliverability').click();
  await expect(page).toHaveURL('/docs/deliverability');
  await expect(page.getByTestId('guide-title')).toHaveText('Deliverability and DNS: SPF, DKIM and DMARC');
  await expect(
    page.getByRole('heading', { name: 'DMARC: what receivers do when checks fail' }),
  ).toBeVisible();

  await page.goto('/knowledge-base');
  await page.getByTestId('kb-search').fill('dkim');
  await expect(page).toHaveURL(/q=dkim/);
  const first = page.getByTestId('kb-article').first();
  await expect(first).toContainText('DKIM: a signature on every message');
  await page.getByTestId('kb-search').fill('blockchain');
  await expect(page.getByTestId('kb-article')).toHaveCount(0);
  await expect(page.getByText('Nothing matches “blockchain”')).toBeVisible();
});
