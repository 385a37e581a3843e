import { expect, type Page, test } from '@playwright/test';
import { newAccount, registerViaApi } from './support/accounts';

/*
 * The reply signature is part of the sender account's settings, not only of the inbox: the user sets it
 * while editing the account, on a laptop and on a phone, and it is there again when the form reopens.
 */

/** Screenshots for a person to look at (MONITOR_SCREENSHOTS=<dir>). */
async function screenshot(page: Page, name: string) {
  const dir = process.env.MONITOR_SCREENSHOTS;
  if (dir) await page.screenshot({ path: `${dir}/${name}.png` });
}

for (const width of [1366, 390]) {
  test(`the reply signature is edited with the sender account's settings at ${width} px`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await registerViaApi(page.request, newAccount(`signature-${width}`));
    const sender = await page.request.post('/api/sender-accounts/dev-mailbox');
    expect(sender.status(), await sender.text()).toBeLessThan(300);

    await page.goto('/settings#sender-accounts');
    const account = page.getByTestId('sender-accounts-section').getByTestId('sender-account').first();
    await account.getByTestId('sender-more').click();
    await page.getByTestId('sender-edit').click();
    const dialog = page.getByTestId('sender-account-dialog');
    const signature = dialog.getByLabel(/Reply signature/);
    await expect(signature).toHaveValue('');
    await signature.fill('Ada Okafor\nSales, Kano Foods Ltd');
    await signature.scrollIntoViewIfNeeded();
    await expect(dialog.getByText('Added below replies sent from the inbox.')).toBeVisible();
    // The field fits the dialog: nothing sticks out sideways on a phone.
    const box = (await signature.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(width);
    await screenshot(page, `sender-signature-${width}`);
    await dialog.getByTestId('sender-save').click();
    await expect(dialog).toBeHidden();

    const saved = (await (await page.request.get('/api/sender-accounts')).json()) as { signature: string }[];
    expect(saved[0]!.signature).toBe('Ada Okafor\nSales, Kano Foods Ltd');

    await account.getByTestId('sender-more').click();
    await page.getByTestId('sender-edit').click();
    await expect(page.getByTestId('sender-account-dialog').getByLabel(/Reply signature/)).toHaveValue(
      'Ada Okafor\nSales, Kano Foods Ltd',
    );
  });
}
