import { expect, test } from '@playwright/test';

const MISSING_PATH = '/definitely-not-a-page';

test.describe('not-found screen', () => {
  test.beforeEach(async ({ page }) => {
    // Time stands still from here on; the test moves it (the screen counts down 30 seconds).
    await page.clock.install({ time: new Date('2026-03-02T09:00:00Z') });
    await page.clock.pauseAt(new Date('2026-03-02T09:00:01Z'));
    await page.goto(MISSING_PATH);
  });

  test('shows the path and the texts, counts down from 30 and goes to /', async ({ page }) => {
    const screen = page.getByTestId('not-found');
    await expect(screen.getByTestId('not-found-path')).toHaveText(MISSING_PATH);
    await expect(screen.getByRole('heading', { name: 'Page Not Found', level: 1 })).toBeVisible();
    await expect(
      screen.getByText("The page you're looking for doesn't exist or has been moved.", { exact: true }),
    ).toBeVisible();
    await expect(page.getByText('Error Code: 404 • Page Not Found', { exact: true })).toBeVisible();
    const countdown = page.getByTestId('not-found-countdown');
    await expect(countdown).toHaveText('30');

    await page.clock.runFor(1_000);
    await expect(countdown).toHaveText('29');
    await page.clock.runFor(10_000);
    await expect(countdown).toHaveText('19');
    await expect(page).toHaveURL(MISSING_PATH);

    await page.clock.runFor(19_000);
    await expect(page).toHaveURL('/');
    await expect(page.getByTestId('not-found')).toHaveCount(0);
  });

  test('Cancel Auto-redirect stops the countdown', async ({ page }) => {
    const countdown = page.getByTestId('not-found-countdown');
    await page.clock.runFor(5_000);
    await expect(countdown).toHaveText('25');

    await page.getByRole('button', { name: 'Cancel Auto-redirect' }).click();
    await expect(page.getByText('Auto-redirect cancelled. Take your time.')).toBeVisible();
    await expect(countdown).toHaveCount(0);

    await page.clock.runFor(40_000);
    await expect(page).toHaveURL(MISSING_PATH);
    await expect(page.getByTestId('not-found')).toBeVisible();
    await expect(page.getByTestId('not-found-path')).toHaveText(MISSING_PATH);
  });
});
