import { expect, type Locator, type Page } from '@playwright/test';

/** Fills and submits the sign-in side of /auth. The redirect (after 1 s) is left to the caller. */
export async function signInViaUi(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/auth');
  await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
}

/** The notification on screen (only one is shown at a time). */
export function toast(page: Page): Locator {
  return page.getByTestId('toast');
}

/** Asserts the visible notification's exact title and text, and its variant. */
export async function expectToast(
  page: Page,
  expected: { title: string; description: string | RegExp; variant?: 'default' | 'destructive' },
): Promise<void> {
  const current = toast(page).filter({ hasText: expected.title });
  await expect(current).toBeVisible();
  await expect(current.locator('[data-slot="toast-title"]')).toHaveText(expected.title);
  await expect(current.locator('[data-slot="toast-description"]')).toHaveText(expected.description);
  await expect(current).toHaveAttribute('data-variant', expected.variant ?? 'default');
}

/** Opens the header's account dropdown and returns its content. */
export async function openAccountMenu(page: Page): Promise<Locator> {
  await page.getByTestId('account-menu').click();
  const menu = page.getByTestId('account-menu-content');
  await expect(menu).toBeVisible();
  return menu;
}

/**
 * Closes the visible notification, as a user does when it covers what they want to click next. (While a
 * modal sheet is open, everything outside it, the notifications included, is aria-hidden.)
 */
export async function dismissToast(page: Page): Promise<void> {
  // A notification lives five seconds: on a slow run it may be closing on its own as we reach for it.
  await toast(page)
    .getByRole('button', { name: 'Close', includeHidden: true })
    .click({ timeout: 5_000 })
    .catch(() => undefined);
  await expect(toast(page)).toHaveCount(0);
}
