import { expect, test } from '@playwright/test';
import { newAccount, registerViaApi } from './support/accounts';

/*
 * Issue #13 item 5: the editors say which links the send will remove (the same shared rule the server
 * applies), before anything is sent.
 */

test('the step editor warns about a script link and a merge-tag link in the HTML source', async ({
  page,
}) => {
  await registerViaApi(page.request, newAccount('links'));
  const response = await page.request.post('/api/campaigns', { data: { name: 'Links' } });
  expect(response.status(), await response.text()).toBe(201);
  const campaignId = ((await response.json()) as { id: string }).id;

  await page.goto(`/campaigns/${campaignId}/step/new/edit`);
  await page.getByTestId('step-subject-A').fill('Hello');
  await page.getByTestId('step-body-A-source-toggle').click();
  const source = page.getByTestId('step-body-A-source');
  await source.fill('<p>Hi, see <a href="https://kanofoods.example.com">our site</a>.</p>');
  await expect(page.getByTestId('step-unsafe-links-A')).toHaveCount(0);

  await source.fill(
    '<p><a href="JaVaScRiPt&#58;alert(1)">Click</a> <a href="//evil.example">Here</a> <a href="{{ company }}">Yours</a></p>',
  );
  const notice = page.getByTestId('step-unsafe-links-A');
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('2 links will be removed when this email is sent');
  await expect(notice).toContainText('JaVaScRiPt:alert(1)');
  await expect(notice).toContainText('//evil.example');
  await expect(notice).toContainText('{{ company }}');
});

test('the bulk email editor warns about a data: image', async ({ page }) => {
  await registerViaApi(page.request, newAccount('links-bulk'));
  const created = await page.request.post('/api/newsletters', {
    data: { kind: 'bulk', name: 'Bulk links', subject: 'Hello', html: '<p>Hi</p>' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const id = ((await created.json()) as { id: string }).id;
  await page.goto(`/newsletters/editor/${id}`);
  await page.getByTestId('bulk-body-source-toggle').click();
  await page
    .getByTestId('bulk-body-source')
    .fill('<p>Logo <img src="data:image/png;base64,AAAA" alt="logo"></p>');
  const notice = page.getByTestId('bulk-unsafe-links');
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('A link will be removed');
  await expect(notice).toContainText('https://');
});
