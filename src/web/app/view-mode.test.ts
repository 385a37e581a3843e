import { describe, expect, it } from 'vitest';

import { getViewMode } from '@/app/view-mode';

const ADMIN_VIEW_PATHS = [
  '/admin-dashboard',
  '/admin/users',
  '/admin/dev-mailbox',
  '/admin/campaigns/12/steps',
  '/admin-templates',
  '/users',
  '/scraper',
  '/system-analytics',
  '/email-queue-status',
  '/contact-sync',
  '/campaigns/abc/steps',
  '/campaigns/abc/step/s1/edit',
  '/newsletters/editor',
  '/newsletters/editor/42',
  '/newsletter-editor',
];

const USER_VIEW_PATHS = [
  '/dashboard',
  '/settings',
  '/campaigns',
  '/campaigns/abc',
  '/campaigns/abc/step/s1',
  '/newsletters',
  '/templates',
  '/help',
];

describe('getViewMode', () => {
  it.each(ADMIN_VIEW_PATHS)('gives a super admin admin view on %s', (path) => {
    expect(getViewMode(path, 'super_admin')).toBe('admin');
  });

  it.each(USER_VIEW_PATHS)('gives a super admin user view on %s', (path) => {
    expect(getViewMode(path, 'super_admin')).toBe('user');
  });

  it.each([...ADMIN_VIEW_PATHS, ...USER_VIEW_PATHS])('gives everyone else user view on %s', (path) => {
    expect(getViewMode(path, 'user')).toBe('user');
    expect(getViewMode(path, 'data_entry')).toBe('user');
    expect(getViewMode(path, null)).toBe('user');
  });
});
