import { expect, type Page, test } from '@playwright/test';

import { type CurrencyCode, type CurrencyRates, convertFromNgn, formatMoney } from '@shared/currency';
import { newAccount, registerViaApi } from './support/accounts';
import { expectToast } from './support/ui';

/** The display price the screens should show for `naira`, with the rates the server hands out right now. */
async function displayPrice(page: Page, naira: number, currency: CurrencyCode): Promise<string> {
  const response = await page.request.get('/api/currency/rates');
  expect(response.ok()).toBe(true);
  const { rates } = (await response.json()) as CurrencyRates;
  return formatMoney(convertFromNgn(naira, currency, rates), currency);
}

/** Picks a display currency from a currency menu (choosing one sets it and closes the menu). */
async function chooseCurrency(page: Page, selector: string, code: CurrencyCode): Promise<void> {
  // A prerendered page loads the app (and the selector) on the visitor's first sign of intent.
  await page.keyboard.press('Shift');
  await page.getByTestId(selector).click();
  await page.getByTestId(`currency-option-${code}`).click();
  await expect(page.getByTestId(`currency-option-${code}`)).toHaveCount(0);
  await expect(page.getByTestId(selector)).toHaveAttribute('data-currency', code);
}

test.describe('payments', () => {
  test('buys Growth annually from the pricing page through sign-up and the Paystack popup', async ({
    page,
  }) => {
    const account = newAccount('growth');

    await page.goto('/pricing');
    await page.getByTestId('interval-annual').click();
    await expect(page.getByTestId('pricing-plans')).toHaveAttribute('data-interval', 'annual');
    await page.getByTestId('choose-plan-professional').click();

    // Signed out, "Choose plan" opens sign-up with the plan and interval in the URL.
    await expect(page).toHaveURL('/auth?mode=signup&plan=professional&interval=annual');
    expect(
      await page.evaluate(() => [
        localStorage.getItem('selectedPlan'),
        localStorage.getItem('selectedInterval'),
      ]),
    ).toEqual(['professional', 'annual']);
    await expect(page.getByTestId('auth-plan-note')).toContainText('Growth');
    const form = page.getByTestId('register-form');
    await form.getByLabel('First name').fill(account.firstName);
    await form.getByLabel('Last name (optional)').fill(account.lastName);
    await form.getByLabel('Email').fill(account.email);
    await form.getByLabel('Password', { exact: true }).fill(account.password);
    await form.getByRole('button', { name: 'Create account' }).click();

    // The payment screen: plan, interval, the annual amount in naira and the saving (12 × 35,000 − 350,000).
    await expect(page).toHaveURL('/payment?plan=professional&interval=annual');
    await expect(page.getByTestId('payment-plan-name')).toHaveText('Growth');
    await expect(page.getByTestId('payment-interval')).toHaveText('Annual billing');
    const currency = (await page.getByTestId('payment-amount').getAttribute('data-currency')) as CurrencyCode;
    await expect(page.getByTestId('payment-amount')).toHaveText(await displayPrice(page, 350_000, currency));
    await expect(page.getByTestId('payment-saving')).toContainText(
      await displayPrice(page, 70_000, currency),
    );
    await expect(page.getByTestId('payment-due')).toHaveText('₦350,000');
    await expect(page.getByTestId('payment-account-email')).toHaveText(account.email);
    await expect(page.getByTestId('payment-account-name')).toHaveText(
      `${account.firstName} ${account.lastName}`,
    );
    await expect(page.getByTestId('payment-limits')).toContainText('50,000 recipients');
    await expect(page.getByTestId('included-features')).toContainText('AI cold email writing');

    await page.getByTestId('pay-button').click();
    const pay = page.getByTestId('fake-paystack-pay');
    await expect(pay).toBeVisible();
    await expect(pay).toContainText('₦350,000');
    await pay.click();

    await expectToast(page, { title: 'Payment Successful', description: 'Your Growth plan is now active.' });
    await expect(page).toHaveURL('/dashboard');
    await expect(page.getByTestId('welcome-header').getByTestId('plan-badge')).toHaveText('Premium Plan');
    await expect(page.getByTestId('plan-name')).toHaveText('Growth');

    await page.goto('/subscription');
    await expect(page.getByTestId('subscription-plan')).toHaveText('Growth');
    await expect(page.getByTestId('subscription-status')).toHaveText('Active');
    await expect(page.getByTestId('subscription-interval')).toHaveText('Annual');
    const row = page.getByTestId('payment-history').getByRole('row').filter({ hasText: '₦350,000' });
    await expect(row).toContainText('Paid');
    await row.getByRole('button', { name: /View receipt/ }).click();
    const receipt = page.getByTestId('receipt-dialog');
    await expect(receipt).toContainText('Lagos, Nigeria');
    await expect(receipt.getByTestId('receipt-total')).toHaveText('₦350,000');
  });

  test('closing the popup says the payment was cancelled and keeps the user on /payment', async ({
    page,
  }) => {
    await registerViaApi(page.request, newAccount('cancel'));

    await page.goto('/payment?plan=starter');
    await expect(page.getByTestId('payment-interval')).toHaveText('Monthly billing');
    await page.getByTestId('pay-button').click();
    await page.getByTestId('fake-paystack-close').click();

    await expectToast(page, { title: 'Payment Cancelled', description: 'You can retry payment anytime.' });
    await expect(page).toHaveURL('/payment?plan=starter');
    await expect(page.getByTestId('pay-button')).toBeEnabled();
    await expect(page.getByTestId('pay-button')).toHaveText('Pay ₦15,000');
  });

  test('a payment link without a plan goes back to /pricing', async ({ page }) => {
    await page.goto('/payment?interval=annual');

    await expectToast(page, {
      title: 'Invalid Payment Link',
      description: 'Missing plan information. Redirecting to pricing.',
      variant: 'destructive',
    });
    await expect(page).toHaveURL('/pricing');
    await expect(page.getByTestId('plan-card-starter')).toBeVisible();
  });

  test('a signed-out visitor of /payment is asked to sign in with the plan kept', async ({ page }) => {
    await page.goto('/payment?plan=enterprise&interval=annual');

    await expectToast(page, {
      title: 'Please Sign In',
      description: 'You need to be signed in to make a payment.',
    });
    await expect(page).toHaveURL('/auth?mode=login&plan=enterprise&interval=annual');
    await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
  });

  test('the landing page shows the plan prices from /api/pricing-plans and links to /pricing', async ({
    page,
  }) => {
    await page.goto('/');
    await chooseCurrency(page, 'currency-selector', 'NGN');
    const teaser = page.getByTestId('landing-pricing');
    await expect(teaser.getByTestId('landing-plan-price-starter')).toHaveText('₦15,000');
    await expect(teaser.getByTestId('landing-plan-price-professional')).toHaveText('₦35,000');
    await expect(teaser.getByTestId('landing-plan-professional')).toContainText('Growth');
    await teaser.getByTestId('landing-pricing-link').click();
    await expect(page).toHaveURL('/pricing');
  });

  test('the currency selector switches the displayed prices to USD and back', async ({ page }) => {
    await page.goto('/pricing');
    const starter = page.getByTestId('plan-price-starter');
    const charged = page.getByTestId('plan-price-starter-ngn');

    await chooseCurrency(page, 'currency-selector', 'NGN');
    await expect(starter).toHaveText('₦15,000');
    await expect(charged).toHaveCount(0);

    await chooseCurrency(page, 'currency-selector', 'USD');
    await expect(starter).toHaveText(await displayPrice(page, 15_000, 'USD'));
    await expect(charged).toHaveText('Charged in NGN: ₦15,000');
    // The choice is saved in browser storage and survives a reload.
    expect(await page.evaluate(() => localStorage.getItem('tambari.currency'))).toBe('USD');
    await page.reload();
    await expect(starter).toHaveText(await displayPrice(page, 15_000, 'USD'));

    await chooseCurrency(page, 'pricing-currency-selector', 'NGN');
    await expect(starter).toHaveText('₦15,000');
    await expect(page.getByTestId('currency-selector')).toHaveAttribute('data-currency', 'NGN');
    await expect(charged).toHaveCount(0);
  });
});
