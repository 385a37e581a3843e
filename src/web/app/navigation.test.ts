import { describe, expect, it } from 'vitest';

import { ADMIN_MENU, DATA_ENTRY_MENU, getPageTitle, USER_MENU } from '@/app/navigation';

describe('navigation', () => {
  it('gives subscribers 11 menu items', () => {
    expect(USER_MENU.map((item) => item.href)).toEqual([
      '/dashboard',
      '/lead-discovery',
      '/campaigns',
      '/newsletters',
      '/templates',
      '/analytics',
      '/subscription',
      '/upgrade',
      '/settings',
      '/help',
      '/status',
    ]);
  });

  it('gives super admins 26 items in 7 groups, the first three expanded', () => {
    expect(ADMIN_MENU.map((group) => group.title)).toEqual([
      'Core Management',
      'Email & Campaigns',
      'Data & Contacts',
      'User & Business',
      'Analytics & Insights',
      'System Monitoring',
      'Settings',
    ]);
    expect(ADMIN_MENU.flatMap((group) => group.items)).toHaveLength(26);
    expect(ADMIN_MENU.map((group) => group.defaultOpen)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
    const hrefs = ADMIN_MENU.flatMap((group) => group.items.map((item) => item.href));
    expect(new Set(hrefs).size).toBe(hrefs.length);
  });

  it('gives data entry officers only their dashboard and Help', () => {
    expect(DATA_ENTRY_MENU.map((item) => item.title)).toEqual(['Data Entry Dashboard', 'Help']);
  });

  it('titles routes from the menus and their parents', () => {
    expect(getPageTitle('/dashboard')).toBe('Dashboard');
    expect(getPageTitle('/admin/users')).toBe('Users');
    expect(getPageTitle('/admin/users/abc')).toBe('Users');
    expect(getPageTitle('/campaigns/1/steps')).toBe('Campaign Steps');
    expect(getPageTitle('/data-entry')).toBe('Data Entry Dashboard');
  });
});
