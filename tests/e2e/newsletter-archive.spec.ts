import { expect, test } from '@playwright/test';

import { newAccount, registerViaApi } from './support/accounts';

test('public archive: turned on from the Newsletters page, its address copied and opened; a draft switched in stays off the page', async ({
  page,
  browser,
}) => {
  await registerViaApi(page.request, newAccount('archive'));
  const created = await page.request.post('/api/newsletters', {
    data: { kind: 'newsletter', name: 'Draft issue', subject: 'Draft issue subject' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const draft = (await created.json()) as { id: string };

  await page.goto(`/newsletters/editor/${draft.id}`);
  const inArchive = page.getByTestId('newsletter-in-archive');
  await expect(inArchive).toHaveAttribute('aria-checked', 'false');
  await inArchive.click();
  await expect(inArchive).toHaveAttribute('aria-checked', 'true');

  await page.goto('/newsletters');
  const card = page.getByTestId('archive-card');
  await expect(card.getByTestId('archive-url')).toHaveCount(0);
  await card.getByTestId('archive-enabled').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Public archive is on' })).toBeVisible();
  const url = await card.getByTestId('archive-url').inputValue();
  expect(url).toMatch(/\/archive\/[A-Za-z0-9_-]{24}$/);

  const visitorContext = await browser.newContext();
  try {
    const visitor = await visitorContext.newPage();
    await visitor.goto(new URL(url).pathname);
    await expect(visitor.getByRole('heading', { name: /^Newsletters from / })).toBeVisible();
    await expect(visitor.getByText('No newsletters here yet.')).toBeVisible();
    await expect(visitor.getByText('Draft issue subject')).toHaveCount(0);
  } finally {
    await visitorContext.close();
  }
});
