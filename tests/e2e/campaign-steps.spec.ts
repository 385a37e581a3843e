import { expect, type Page, test } from '@playwright/test';
import { newAccount, registerViaApi } from './support/accounts';

/** A draft campaign made through the API (the create flow is another screen's test). */
async function createCampaign(page: Page, name: string): Promise<string> {
  const response = await page.request.post('/api/campaigns', { data: { name } });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

async function writeBody(page: Page, key: string, text: string) {
  const body = page.getByTestId(`step-body-${key}-content`);
  await body.click();
  await page.keyboard.type(text);
}

test('a subscriber writes a two-step sequence with an A/B test, previews it and finds it saved', async ({
  page,
}) => {
  await registerViaApi(page.request, newAccount('steps'));
  const campaignId = await createCampaign(page, 'Lagos fintech intro');

  await page.goto(`/campaigns/${campaignId}/steps`);
  await expect(page.getByTestId('steps-campaign-name')).toHaveText('Lagos fintech intro');
  await expect(page.getByTestId('steps-empty')).toBeVisible();

  // Step 1: a subject with a fallback, a merge tag from the menu, a body.
  await page.getByTestId('add-first-step').click();
  await expect(page).toHaveURL(new RegExp(`/campaigns/${campaignId}/step/new/edit$`));
  await expect(page.getByTestId('step-editor-title')).toHaveText('New step 1');
  const subjectA = page.getByTestId('step-subject-A');
  await subjectA.fill('Hello {{ firstName | default: "there" }}, a quick idea for ');
  await page.getByTestId('subject-merge-tag-A').click();
  await page.getByRole('menuitem', { name: /^Company/ }).click();
  await expect(subjectA).toHaveValue(
    'Hello {{ firstName | default: "there" }}, a quick idea for {{ company | default: "your company" }}',
  );
  await writeBody(page, 'A', 'We help fintechs in Lagos collect payments faster. ');
  await page.getByTestId('body-merge-tag-A').click();
  await page.getByRole('menuitem', { name: /City/ }).click();
  await expect(page.getByTestId('step-body-A-content')).toContainText('{{ city }}');

  // Preview saves the new step first, then renders it for a sample contact: no raw braces left.
  await page.getByTestId('preview-run').click();
  await expect(page).toHaveURL(new RegExp(`/campaigns/${campaignId}/step/[0-9a-f-]{36}/edit$`));
  const previewSubject = page.getByTestId('preview-subject');
  await expect(previewSubject).toContainText('a quick idea for');
  await expect(previewSubject).toHaveText(/^Hello \S+/);
  await expect(previewSubject).not.toContainText('{{');
  await expect(page.getByTestId('step-save')).toHaveText('Saved');

  // Step 2: 3 days later, only if no reply, with a B variant at 50/50.
  await page.getByTestId('back-to-steps').click();
  await expect(page.getByTestId('step-card-1')).toBeVisible();
  await page.getByTestId('add-step').click();
  await expect(page.getByTestId('step-editor-title')).toHaveText('New step 2');
  await page.getByTestId('delay-days').fill('3');
  await page.getByTestId('step-condition').click();
  await page.getByRole('option', { name: 'If no reply' }).click();
  await expect(page.getByTestId('timing-summary')).toHaveText('3 days after the previous step.');
  // Left empty, the subject makes this follow-up a reply in the same thread.
  await expect(page.getByTestId('step-subject-hint-A')).toContainText(
    'Sent as a reply in the same thread, from the same sender account.',
  );
  await writeBody(page, 'A', 'Just checking this reached you.');
  await page.getByTestId('add-variant').click();
  await expect(page.getByTestId('variant-tab-B')).toHaveAttribute('data-state', 'active');
  await expect(page.getByTestId('split-A')).toHaveValue('50');
  await expect(page.getByTestId('split-B')).toHaveValue('50');
  await page
    .getByTestId('step-subject-B')
    .fill('Worth a 10-minute call, {{ firstName | default: "there" }}?');
  await page.getByTestId('step-save').click();
  await expect(page.getByTestId('step-save')).toHaveText('Saved');
  await expect(page).toHaveURL(new RegExp(`/campaigns/${campaignId}/step/[0-9a-f-]{36}/edit$`));

  // Reload: everything came back from the server.
  await page.reload();
  await expect(page.getByTestId('step-editor-title')).toHaveText('Step 2');
  await expect(page.getByTestId('delay-days')).toHaveValue('3');
  await expect(page.getByTestId('step-condition')).toHaveText('If no reply');
  await expect(page.getByTestId('split-A')).toHaveValue('50');
  await expect(page.getByTestId('split-B')).toHaveValue('50');
  await page.getByTestId('variant-tab-B').click();
  await expect(page.getByTestId('step-subject-B')).toHaveValue(
    'Worth a 10-minute call, {{ firstName | default: "there" }}?',
  );

  await page.getByTestId('back-to-steps').click();
  await expect(page.getByTestId('step-card-2-timing')).toHaveText('3 days after the previous step');
  await expect(page.getByTestId('step-card-2-condition')).toContainText('If no reply');
  await expect(page.getByTestId('step-card-2-subject-B')).toHaveText(
    'Worth a 10-minute call, {{ firstName | default: "there" }}?',
  );
  await expect(page.getByTestId('step-card-2-subject-A')).toHaveText('Re: reply in the same thread');
  await expect(page.getByTestId('step-card-1-subject-A')).toContainText('a quick idea for');
});

test('another user cannot open the steps of a campaign that is not theirs', async ({ page, browser }) => {
  await registerViaApi(page.request, newAccount('owner'));
  const campaignId = await createCampaign(page, 'Private sequence');

  const other = await browser.newPage();
  await registerViaApi(other.request, newAccount('stranger'));
  await other.goto(`/campaigns/${campaignId}/steps`);
  await expect(other.getByTestId('campaign-load-error')).toContainText('This campaign does not exist');
  await other.close();
});

test('"Write with AI" in the step editor streams a draft and puts it in the step', async ({ page }) => {
  await registerViaApi(page.request, newAccount('steps-ai'));
  const campaignId = await createCampaign(page, 'Abuja payroll intro');

  await page.goto(`/campaigns/${campaignId}/step/new/edit`);
  await expect(page.getByTestId('step-editor-title')).toHaveText('New step 1');
  await page.getByTestId('step-write-ai').click();
  const dialog = page.getByTestId('ai-writer-dialog');
  await expect(dialog).toBeVisible();
  await dialog
    .getByTestId('ai-writer-goal')
    .fill('Introduce our payroll software to HR managers in Abuja and ask for a short call.');
  await dialog.getByTestId('ai-writer-generate').click();
  // The fake provider's draft (tests/fakes/ai-provider.ts), streamed into the preview.
  await expect(dialog.getByTestId('ai-writer-subject')).toContainText('A quick idea for');
  await expect(dialog.getByTestId('ai-writer-preview')).toContainText(
    'We help businesses in Lagos get paid faster.',
  );
  await dialog.getByTestId('ai-writer-insert').click();
  await expect(dialog).toBeHidden();

  await expect(page.getByTestId('step-subject-A')).toHaveValue(
    'A quick idea for {{ company | default: "your team" }}',
  );
  await expect(page.getByTestId('step-body-A-content')).toContainText('get paid faster');
  await page.getByTestId('step-save').click();
  await expect(page.getByTestId('step-save')).toHaveText('Saved');
});
