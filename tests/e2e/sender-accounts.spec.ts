import { randomUUID, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';

import { newAccount, registerViaApi, signInAsSuperAdmin, signInViaApi } from './support/accounts';
import { DEMO, E2E_DEMO_PASSWORD, E2E_TLS_SMTP_PORT } from './support/env';
import { expectToast } from './support/ui';

interface CaughtMail {
  id: string;
  to: string;
  subject: string;
}

/** The development mailbox as the super admin reads it, polled until a message to `to` is there. */
async function waitForCaughtMail(admin: APIRequestContext, to: string): Promise<CaughtMail> {
  let found: CaughtMail | undefined;
  await expect
    .poll(
      async () => {
        const response = await admin.get('/api/admin/dev-mailbox');
        const messages = (await response.json()) as CaughtMail[];
        found = messages.find((message) => message.to.includes(to));
        return Boolean(found);
      },
      { timeout: 20_000, intervals: [250, 500, 1000] },
    )
    .toBe(true);
  return found as CaughtMail;
}

function testMailboxAccount(page: Page) {
  return page
    .getByTestId('sender-accounts-section')
    .getByTestId('sender-account')
    .filter({ hasText: 'Test mailbox' });
}

const uniqueInbox = (label: string) => `e2e-${label}-${randomUUID().slice(0, 8)}@example.com`;

test.describe('sender accounts', () => {
  test('the demo test mailbox connects and sends a real test email', async ({ page, request }) => {
    await signInViaApi(page.request, DEMO.user, E2E_DEMO_PASSWORD);
    await page.goto('/settings#sender-accounts');

    const account = testMailboxAccount(page);
    await expect(account).toHaveCount(1);
    await expect(account.getByTestId('sender-status')).toHaveText('Active');
    await expect(account.getByTestId('sender-capacity')).toContainText('sent today');

    await account.getByTestId('sender-test').click();
    const result = account.getByTestId('connection-test-result');
    await expect(result).toHaveAttribute('data-ok', 'true');
    await expect(result.getByTestId('connection-test-smtp')).toContainText('Outgoing mail (SMTP): connected');
    await expect(result.getByTestId('connection-test-imap')).toContainText(
      'Incoming mail (IMAP): not set up',
    );

    const to = uniqueInbox('send-test');
    await account.getByTestId('sender-send-test').click();
    const dialog = page.getByTestId('send-test-email-dialog');
    await expect(dialog.getByLabel('Send to')).toHaveValue(DEMO.user);
    await dialog.getByLabel('Send to').fill('not an address');
    await dialog.getByTestId('send-test-submit').click();
    await expect(dialog.getByText('Enter a valid email address')).toBeVisible();
    await dialog.getByLabel('Send to').fill(to);
    await dialog.getByTestId('send-test-submit').click();
    await expectToast(page, { title: 'Test email sent', description: new RegExp(`to ${to}`) });
    await expect(dialog).toBeHidden();

    // The email really went out through the account: the development mailbox caught it.
    await signInAsSuperAdmin(request);
    const mail = await waitForCaughtMail(request, to);
    expect(mail.subject).toContain('test email');
  });

  test('a second account with a bad port or a forbidden host shows the error on the field', async ({
    page,
  }) => {
    await signInViaApi(page.request, DEMO.user, E2E_DEMO_PASSWORD);
    await page.goto('/settings#sender-accounts');
    const list = page.getByTestId('sender-accounts-list');
    await expect(list.getByTestId('sender-account')).not.toHaveCount(0);
    const before = await list.getByTestId('sender-account').count();

    await page.getByTestId('sender-add').click();
    const dialog = page.getByTestId('sender-account-dialog');
    await dialog.getByTestId('sender-preset-custom').click();
    await expect(dialog.getByTestId('sender-preset-help')).toBeVisible();
    await dialog.getByTestId('sender-fromEmail').fill('sales@kora.example.com');
    // The SMTP user follows the from address until the user types their own.
    await expect(dialog.getByTestId('sender-smtpUser')).toHaveValue('sales@kora.example.com');
    await dialog.getByTestId('sender-postalAddress').fill('12 Admiralty Way, Lekki Phase 1, Lagos');
    await dialog.getByTestId('sender-smtpHost').fill('smtp.kora.example.com');
    await dialog.getByTestId('sender-smtpPort').fill('70000');
    await dialog.getByTestId('sender-smtpPassword').fill('app-password-1');
    await dialog.getByTestId('sender-save').click();

    const port = dialog.getByTestId('sender-smtpPort');
    await expect(port).toHaveAttribute('aria-invalid', 'true');
    await expect(dialog.getByText('Enter a port from 1 to 65535')).toBeVisible();

    // The server's own refusal lands on its field too: a metadata address is never a mail server.
    await port.fill('587');
    await dialog.getByTestId('sender-smtpHost').fill('169.254.169.254');
    await dialog.getByTestId('sender-save').click();
    await expect(dialog.getByTestId('sender-smtpHost')).toHaveAttribute('aria-invalid', 'true');
    await expect(dialog.getByText('This mail server address is not allowed')).toBeVisible();
    await expect(port).not.toHaveAttribute('aria-invalid', 'true');

    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(list.getByTestId('sender-account')).toHaveCount(before);
  });

  test('past the plan limit the form says so and offers the upgrade', async ({ page }) => {
    await registerViaApi(page.request, newAccount('sender-limit'));
    const first = await page.request.post('/api/sender-accounts', {
      data: {
        fromName: 'Kora Sales',
        fromEmail: 'sales@kora.example.com',
        postalAddress: '12 Admiralty Way, Lekki Phase 1, Lagos',
        smtpHost: '127.0.0.1',
        smtpPort: 587,
        smtpSecurity: 'starttls',
        smtpUser: 'sales@kora.example.com',
        smtpPassword: 'app-password-1',
      },
    });
    expect(first.status(), await first.text()).toBe(201);

    await page.goto('/settings#sender-accounts');
    await expect(page.getByTestId('sender-plan-usage')).toContainText(
      '1 of 1 sender account on your Free plan',
    );
    await page.getByTestId('sender-add').click();
    const dialog = page.getByTestId('sender-account-dialog');
    await dialog.getByTestId('sender-preset-custom').click();
    await dialog.getByTestId('sender-fromEmail').fill('hello@kora.example.com');
    await dialog.getByTestId('sender-postalAddress').fill('12 Admiralty Way, Lekki Phase 1, Lagos');
    await dialog.getByTestId('sender-smtpHost').fill('127.0.0.1');
    await dialog.getByTestId('sender-smtpPassword').fill('app-password-2');
    await dialog.getByTestId('sender-save').click();

    const limit = dialog.getByTestId('sender-plan-limit');
    await expect(limit).toContainText('Your Free plan allows 1 sender account.');
    await limit.getByRole('link', { name: 'See plans and upgrade' }).click();
    await expect(page).toHaveURL('/upgrade');
  });

  test('quick setup walks a new user from mail server to first campaign', async ({ page }) => {
    await page.goto('/launch');
    await expect(page).toHaveURL('/auth');

    await registerViaApi(page.request, newAccount('launch'));
    await page.goto('/dashboard');
    await page.getByTestId('getting-started-quick-setup').click();
    await expect(page).toHaveURL('/launch');
    await expect(page.getByRole('heading', { name: 'Quick setup' })).toBeVisible();

    const connect = page.getByTestId('launch-step-connect');
    const contacts = page.getByTestId('launch-step-contacts');
    await expect(connect.getByTestId('launch-step-connect-state')).toHaveText('To do');
    await expect(contacts.getByTestId('launch-step-contacts-state')).toHaveText('To do');
    await expect(contacts.getByTestId('launch-list-count')).toHaveText('You have no contact lists yet.');
    await expect(page.getByTestId('launch-progress')).toHaveText('0 of 3 setup steps done.');
    await expect(connect.getByTestId('sender-account-form')).toBeVisible();

    await connect.getByTestId('launch-use-dev-mailbox').click();
    await expectToast(page, { title: 'Test mailbox connected', description: /<.+@.+>/ });
    await expect(connect.getByTestId('launch-step-connect-state')).toHaveText('Done');
    await expect(connect.getByTestId('launch-sender-account')).toContainText('Test mailbox');
    await expect(connect.getByTestId('sender-account-form')).toHaveCount(0);

    const list = await page.request.post('/api/lists', {
      data: { name: `Lagos leads ${randomUUID().slice(0, 6)}` },
    });
    expect(list.status(), await list.text()).toBe(201);
    await page.reload();
    await expect(contacts.getByTestId('launch-step-contacts-state')).toHaveText('Done');
    await expect(contacts.getByTestId('launch-list-count')).toHaveText('You have 1 list with 0 contacts.');
    await expect(page.getByTestId('launch-progress')).toHaveText('2 of 3 setup steps done.');
    await expect(page.getByTestId('launch-step-campaign-state')).toHaveText('To do');
    await expect(contacts.getByRole('link', { name: 'Import a CSV list' })).toHaveAttribute(
      'href',
      '/lead-discovery/import',
    );

    await page.getByTestId('launch-create-campaign').click();
    await expect(page).toHaveURL('/campaigns');
  });

  test('the dev mailbox answers a caught email only when a campaign sent it', async ({ page, request }) => {
    // Seed a caught message: the demo user's test mailbox sends a test email to a fresh address.
    await signInViaApi(request, DEMO.user, E2E_DEMO_PASSWORD);
    const accounts = (await (await request.get('/api/sender-accounts')).json()) as {
      id: string;
      isDevMailbox: boolean;
    }[];
    const testMailbox = accounts.find((account) => account.isDevMailbox);
    expect(testMailbox, 'the demo user has a test mailbox account').toBeTruthy();
    const to = uniqueInbox('simulate');
    const sent = await request.post(`/api/sender-accounts/${testMailbox?.id}/send-test`, { data: { to } });
    expect(sent.status(), await sent.text()).toBe(200);

    await signInAsSuperAdmin(page.request);
    await page.goto('/admin/dev-mailbox');
    await page.getByTestId('mail-list').getByText(`To: ${to}`).click();
    const viewer = page.getByTestId('mail-viewer');
    await expect(viewer).toBeVisible();
    await viewer.getByTestId('mail-simulate-reply').click();
    await expectToast(page, {
      title: 'Nothing to update',
      description: 'This message was not sent by a campaign, so nothing can answer it',
    });
  });

  test('a self-signed mail server: the test shows its certificate, and trusting it makes it connect', async ({
    page,
  }) => {
    const fingerprint = new X509Certificate(
      readFileSync(new URL('../fixtures/tls/self-signed.crt', import.meta.url)),
    ).fingerprint256;
    await registerViaApi(page.request, newAccount('selfsigned'));
    const fromEmail = uniqueInbox('selfsigned');
    const created = await page.request.post('/api/sender-accounts', {
      data: {
        fromName: 'Kora Sales',
        fromEmail,
        postalAddress: '12 Admiralty Way, Lekki Phase 1, Lagos',
        smtpHost: '127.0.0.1',
        smtpPort: E2E_TLS_SMTP_PORT,
        smtpSecurity: 'tls',
        smtpUser: fromEmail,
        smtpPassword: 'app-password-1',
      },
    });
    expect(created.status(), await created.text()).toBe(201);

    await page.goto('/settings#sender-accounts');
    const account = page.getByTestId('sender-account').filter({ hasText: fromEmail });
    await account.getByTestId('sender-test').click();
    const prompt = account.getByTestId('certificate-prompt-smtp');
    await expect(prompt).toHaveAttribute('data-problem', 'self_signed');
    await expect(account.getByTestId('connection-test-smtp')).toContainText('self-signed');
    await expect(prompt.getByTestId('certificate-fingerprint')).toHaveText(fingerprint);
    await expect(prompt.getByTestId('certificate-subject')).toContainText('CN=mail.kanofoods.test');

    await prompt.getByTestId('trust-certificate-smtp').click();
    await expectToast(page, {
      title: 'Certificate trusted',
      description: /connects only while the server presents this certificate/,
    });
    await expect(account.getByTestId('connection-test-result')).toHaveAttribute('data-ok', 'true');
    const trusted = account.getByTestId('sender-trusted-certificate-smtp');
    await expect(trusted.getByTestId('certificate-fingerprint')).toHaveText(fingerprint);
  });
});
