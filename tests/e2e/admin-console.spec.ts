import { expect, test } from '@playwright/test';
import { signInAsSuperAdmin } from './support/accounts';

/*
 * The operator's console as a super admin meets it: every item of the admin sidebar (26, in 7 groups)
 * opens a working screen of the admin layout — never the 404 page, never the error screen.
 */

const ADMIN_SIDEBAR: { group: string; items: [title: string, href: string][] }[] = [
  {
    group: 'Core Management',
    items: [
      ['Admin Dashboard', '/admin-dashboard'],
      ['Users', '/admin/users'],
      ['Orders', '/admin/orders'],
      ['Subscriptions', '/admin/subscriptions'],
    ],
  },
  {
    group: 'Email & Campaigns',
    items: [
      ['Campaigns', '/admin/campaigns'],
      ['Newsletters', '/admin/newsletters'],
      ['Templates', '/admin/templates'],
      ['Email Queue', '/admin/email-queue-status'],
      ['Automated Schedules', '/admin/automated-schedules'],
      ['Dev Mailbox', '/admin/dev-mailbox'],
    ],
  },
  {
    group: 'Data & Contacts',
    items: [
      ['Contact Database', '/admin/contact-database'],
      ['Contacts', '/admin/contacts'],
      ['Scraper', '/admin/scraper'],
      ['User Lists', '/admin/user-lists'],
      ['Data Entry Management', '/admin/data-entry-management'],
    ],
  },
  { group: 'User & Business', items: [['Recycle Bin', '/admin/recycle-bin']] },
  {
    group: 'Analytics & Insights',
    items: [
      ['Analytics', '/admin/analytics'],
      ['System Analytics', '/admin/system-analytics'],
      ['Website Traffic', '/admin/website-traffic'],
    ],
  },
  {
    group: 'System Monitoring',
    items: [
      ['Security Monitor', '/admin/security-monitor'],
      ['Database Monitor', '/admin/database-monitor'],
      ['Email Processing', '/admin/email-processing-monitor'],
      ['Alerting', '/admin/alerting-dashboard'],
      ['Logs', '/admin/log-dashboard'],
    ],
  },
  {
    group: 'Settings',
    items: [
      ['Settings', '/admin/settings'],
      ['Documentation', '/admin/documentation'],
    ],
  },
];

test('admin console: every sidebar item opens its screen, with no 404 and no error screen', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signInAsSuperAdmin(page.request);
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto('/admin-dashboard');
  const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
  // The sidebar is drawn before its groups are counted or opened (a loaded machine is slow to get there).
  await expect(sidebar.getByRole('button', { name: ADMIN_SIDEBAR[0]!.group })).toBeVisible();
  const hrefs = await sidebar
    .locator('a[href^="/admin"]')
    .evaluateAll((links) => links.map((link) => link.getAttribute('href')));
  const expected = ADMIN_SIDEBAR.flatMap((group) => group.items.map(([, href]) => href));
  expect(expected).toHaveLength(26);

  for (const group of ADMIN_SIDEBAR) {
    for (const [title, href] of group.items) {
      const link = sidebar.getByRole('link', { name: title, exact: true });
      // Open the group only if it is closed: its button says so (a link still drawing is not "closed").
      const toggle = sidebar.getByRole('button', { name: group.group });
      if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
      await link.click();
      await expect(page, `${title} keeps its address`).toHaveURL(new RegExp(`${href}$`));
      await expect(page.locator('main h1').first(), `${title} shows its heading`).toBeVisible({
        timeout: 30_000,
      });
      await expect(page.getByTestId('not-found'), `${title} is not the 404 page`).toHaveCount(0);
      await expect(page.getByTestId('admin-not-found'), `${title} is a console screen`).toHaveCount(0);
      await expect(page.getByTestId('error-boundary'), `${title} did not fail`).toHaveCount(0);
    }
  }
  // Every item the sidebar offers is one of the 26 (nothing added without a screen).
  for (const href of hrefs) expect(expected).toContain(href);
});
