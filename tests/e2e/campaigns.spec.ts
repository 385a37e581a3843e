import { randomUUID } from 'node:crypto';
import { type APIRequestContext, expect, test } from '@playwright/test';
import { newAccount, registerViaApi } from './support/accounts';

/*
 * Issue #5: a subscriber builds a campaign from a library template — audience, sender, schedule —
 * adds a follow-up step, runs the pre-launch check and launches it. A fresh account (not the demo one)
 * keeps the Free plan's 3 campaigns a month free for the other suites.
 */

interface LibraryTemplate {
  id: string;
  kind: string;
  name: string;
  subject: string;
  bodyHtml: string;
}

async function pickTemplate(request: APIRequestContext): Promise<LibraryTemplate> {
  const response = await request.get('/api/templates?scope=library&kind=email');
  expect(response.status(), await response.text()).toBe(200);
  const templates = (await response.json()) as LibraryTemplate[];
  // One the user need not fill in: a template with [[edit: …]] markers is blocked until they are replaced.
  const template = templates.find(
    (t) => t.kind === 'email' && !`${t.subject}${t.bodyHtml}`.includes('[[edit'),
  );
  expect(template, 'the library holds email templates').toBeTruthy();
  return template as LibraryTemplate;
}

async function createListWithContacts(
  request: APIRequestContext,
  name: string,
  count: number,
): Promise<string> {
  const list = await request.post('/api/lists', { data: { name } });
  expect(list.status(), await list.text()).toBe(201);
  const { id } = (await list.json()) as { id: string };
  for (let i = 1; i <= count; i += 1) {
    const contact = await request.post(`/api/lists/${id}/contacts`, {
      data: {
        email: `e2e-camp-${randomUUID().slice(0, 8)}@example.com`,
        firstName: `Ngozi${i}`,
        lastName: 'Adeyemi',
        company: `Adeyemi Haulage ${i}`,
      },
    });
    expect(contact.status(), await contact.text()).toBe(201);
  }
  return id;
}

test('a campaign built from a template is checked, launched and shows its contacts', async ({ page }) => {
  await registerViaApi(page.request, newAccount('campaign'));
  // The one-click "Tambari test mailbox" sender account on the built-in development mailbox.
  const sender = await page.request.post('/api/sender-accounts/dev-mailbox');
  expect(sender.status(), await sender.text()).toBeLessThan(300);
  const listName = `Lagos buyers ${randomUUID().slice(0, 6)}`;
  await createListWithContacts(page.request, listName, 3);
  const template = await pickTemplate(page.request);

  // The template link opens the create flow with the template's name.
  await page.goto(`/campaigns?template=${template.id}`);
  const dialog = page.getByTestId('campaign-form-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('campaign-template-note')).toContainText(template.name);
  const name = page.getByTestId('campaign-name');
  await expect(name).toHaveValue(template.name);
  await name.fill('');
  await page.getByTestId('campaign-form-next').click();
  await expect(dialog.getByText('Enter a name')).toBeVisible();
  const campaignName = `Haulage intro ${randomUUID().slice(0, 6)}`;
  await name.fill(campaignName);
  await page.getByTestId('campaign-form-next').click();

  // Audience: nothing chosen is refused; then the list, with its count.
  await page.getByTestId('campaign-form-next').click();
  await expect(page.getByTestId('audience-error')).toContainText('Choose at least one list');
  await dialog.locator(`[data-testid="audience-list"][data-list-name="${listName}"]`).click();
  await expect(page.getByTestId('audience-list-total')).toHaveText('3 contacts in 1 list');
  await page.getByTestId('campaign-form-next').click();

  // Sender: the test mailbox, chosen already (the only active account); going on without one is refused.
  const testMailbox = dialog.locator(
    '[data-testid="sender-option"][data-sender-label="Tambari test mailbox"]',
  );
  await expect(testMailbox).toHaveAttribute('data-state', 'checked');
  await testMailbox.click();
  await page.getByTestId('campaign-form-next').click();
  await expect(dialog.getByText('Choose at least one sender account')).toBeVisible();
  await testMailbox.click();
  await expect(page.getByTestId('free-plan-rotation-note')).toBeVisible();
  await page.getByTestId('campaign-form-next').click();

  // Schedule: any hour, every day, so the first emails go out at once whatever the test's clock says.
  // Open tracking starts off for cold outreach, with the reason beside it; clicks stay tracked.
  await expect(dialog.getByTestId('track-opens')).toHaveAttribute('data-state', 'unchecked');
  await expect(dialog.getByLabel('Track link clicks')).toHaveAttribute('data-state', 'checked');
  const reason = dialog.getByTestId('track-opens-reason');
  await expect(reason).toBeVisible();
  await expect(reason).toContainText('costs spam points with SpamAssassin (HTML_IMAGE_ONLY rules)');
  await expect(reason).toContainText('Apple Mail and Gmail');
  await expect(reason).toContainText('Replies and clicks are the signal.');
  // Plain text first, with a minimal HTML copy: chosen here, kept by the campaign.
  await expect(dialog.getByTestId('body-format-html')).toHaveAttribute('data-state', 'checked');
  await dialog.getByLabel('Plain text first, with a minimal HTML copy', { exact: true }).click();
  await expect(dialog.getByTestId('body-format-text_html')).toHaveAttribute('data-state', 'checked');
  if (process.env.E2E_SCREENSHOTS) {
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await dialog.getByTestId('body-format').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/body-format-${width}.png` });
    }
    await page.setViewportSize({ width: 1366, height: 900 });
  }
  await page.getByTestId('window-all-day').click();
  await page.getByTestId('send-day-6').click();
  await page.getByTestId('send-day-7').click();
  await page.getByTestId('campaign-form-submit').click();

  // On to the steps page, where step 1 is the template.
  await expect(page).toHaveURL(/\/campaigns\/[0-9a-f-]{36}\/steps$/);
  const campaignId = /\/campaigns\/([0-9a-f-]{36})\/steps/.exec(page.url())?.[1] ?? '';
  await expect(page.getByTestId('steps-campaign-name')).toHaveText(campaignName);
  await expect(page.getByTestId('step-card-1')).toBeVisible();
  const saved = await page.request.get(`/api/campaigns/${campaignId}`);
  expect(((await saved.json()) as { bodyFormat: string }).bodyFormat).toBe('text_html');

  // A follow-up step two days later.
  await page.getByTestId('add-step').click();
  await expect(page.getByTestId('step-editor-title')).toHaveText('New step 2');
  await page.getByTestId('delay-days').fill('2');
  await page.getByTestId('step-subject-A').fill('Re: {{ company | default: "your team" }}');
  await page.getByTestId('step-body-A-content').click();
  await page.keyboard.type('Just making sure my last note reached you, {{ firstName | default: "there" }}.');
  await page.getByTestId('step-save').click();
  await expect(page.getByTestId('step-save')).toHaveText('Saved');

  // The campaign page: a draft with its pre-launch check.
  await page.goto(`/campaigns/${campaignId}`);
  await expect(page.getByTestId('campaign-name-heading')).toHaveText(campaignName);
  await expect(page.getByTestId('campaign-status').first()).toHaveText('Draft');
  await expect(page.getByTestId('step-stats-row')).toHaveCount(2);
  await page.getByTestId('prelaunch-run').click();
  // Where SpamAssassin is installed it scores each step: seconds on a loaded machine.
  await expect(page.getByTestId('prelaunch-audience')).toHaveText('3', { timeout: 60_000 });
  await expect(page.getByTestId('prelaunch-ready')).toHaveAttribute('data-ready', 'true');
  // Open tracking is off, so the check says nothing about the pixel.
  await expect(page.locator('[data-testid="prelaunch-item"][data-code="open_tracking"]')).toHaveCount(0);

  await page.getByTestId('launch-campaign').click();
  await expect(page.getByTestId('campaign-status').first()).toHaveText('Active');
  await expect(page.getByTestId('campaign-contact-count')).toHaveText('3 contacts');
  await expect(page.getByTestId('prelaunch-panel')).toHaveCount(0);
  await expect(page.getByTestId('campaign-pause')).toBeVisible();

  // Its contacts are in the sequence; one opens its timeline.
  await page.getByTestId('campaign-tab-contacts').click();
  const rows = page.getByTestId('campaign-contact-row');
  await expect(rows).toHaveCount(3);
  await expect(page.getByTestId('campaign-contacts-table')).toContainText('Adeyemi Haulage 1');
  await rows.first().click();
  await expect(page.getByTestId('contact-timeline')).toBeVisible();
  await page.keyboard.press('Escape');
  // The timeline's sheet slides out; until it is gone the header under it is moving.
  await expect(page.getByTestId('contact-timeline')).toBeHidden();

  // Pause from the page; the list shows it under Active with its status.
  await page.getByTestId('campaign-pause').click();
  await expect(page.getByTestId('campaign-status').first()).toHaveText('Paused');
  await page.goto('/campaigns');
  const row = page.locator(`[data-testid="campaign-row"][data-campaign-id="${campaignId}"]`);
  await expect(row.getByTestId('campaign-status')).toHaveText('Paused');
});

test('another user’s campaign page answers not found', async ({ page, browser }) => {
  await registerViaApi(page.request, newAccount('campaign-owner'));
  const created = await page.request.post('/api/campaigns', { data: { name: 'Private campaign' } });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };

  const other = await browser.newPage();
  await registerViaApi(other.request, newAccount('campaign-other'));
  await other.goto(`/campaigns/${id}`);
  await expect(other.getByTestId('campaign-error')).toContainText('This campaign does not exist');
  await other.close();
});

test('a cold campaign with open tracking turned on is warned of the pixel’s spam cost before launch', async ({
  page,
}) => {
  await registerViaApi(page.request, newAccount('pixel'));
  const sender = await page.request.post('/api/sender-accounts/dev-mailbox');
  expect(sender.status(), await sender.text()).toBeLessThan(300);
  const senderId = ((await sender.json()) as { id: string }).id;
  const listId = await createListWithContacts(page.request, `Pixel ${randomUUID().slice(0, 6)}`, 1);
  const created = await page.request.post('/api/campaigns', {
    data: {
      name: `Opens on ${randomUUID().slice(0, 6)}`,
      audience: { listIds: [listId] },
      senderAccountIds: [senderId],
      trackOpens: true,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const campaignId = ((await created.json()) as { id: string }).id;
  const step = await page.request.post(`/api/campaigns/${campaignId}/steps`, {
    data: {
      delayDays: 0,
      delayHours: 0,
      businessDays: false,
      condition: 'always',
      winnerRule: null,
      variants: [
        {
          key: 'A',
          subject: 'Cold-chain storage for {{ company | default: "your business" }}',
          bodyHtml:
            '<p>Hi {{ firstName | default: "there" }},</p><p>We run refrigerated warehouses in Kano and Lagos. Would a short call next week help?</p><p>{{ senderName }}</p>',
          splitPercent: 100,
        },
      ],
    },
  });
  expect(step.status(), await step.text()).toBe(201);

  // The check names the cost per step, as SpamAssassin would add it to the message as sent.
  await page.goto(`/campaigns/${campaignId}`);
  await page.getByTestId('prelaunch-run').click();
  const warning = page.locator('[data-testid="prelaunch-item"][data-code="open_tracking"]');
  await expect(page.getByTestId('prelaunch-ready')).toBeVisible({ timeout: 60_000 });
  await expect(warning).toContainText(
    'Open tracking is on: the pixel goes only into emails where SpamAssassin does not count it',
  );
  await expect(warning).toContainText(/Step 1: the pixel would cost \+\d\.\d \(HTML_IMAGE_ONLY_\d\d\)/);
  // A warning, not a blocker: the user may launch with opens on.
  await expect(page.getByTestId('prelaunch-ready')).toHaveAttribute('data-ready', 'true');

  // The score of the message as sent, the engine that scored it and the rules that fired, per step.
  const spam = page.getByTestId('prelaunch-spam');
  await expect(spam).toBeVisible();
  await expect(page.getByTestId('prelaunch-spam-engine')).toHaveAttribute(
    'data-engine',
    /^(spamassassin|builtin)$/,
  );
  await expect(page.getByTestId('prelaunch-spam-engine')).toContainText(
    /Scored by (SpamAssassin|Built-in rules)/,
  );
  await expect(spam.getByTestId('prelaunch-spam-copy')).toHaveCount(1);
  await expect(spam.getByTestId('prelaunch-spam-score')).toContainText(/^\d+\.\d \/ 5/);
  // Sent without the pixel, so no HTML_IMAGE_ONLY rule among those that fired.
  await expect(spam).not.toContainText('HTML_IMAGE_ONLY');
  if (process.env.E2E_SCREENSHOTS) {
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await spam.scrollIntoViewIfNeeded();
      await page.screenshot({
        path: `${process.env.E2E_SCREENSHOTS}/prelaunch-spam-${width}.png`,
        fullPage: false,
      });
    }
  }
});
