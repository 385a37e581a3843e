import type { Role } from '@shared/roles';

import { isAdminPath, isPathWithin, normalizePath } from '@/app/paths';

export type ViewMode = 'admin' | 'user';

const CAMPAIGN_STEPS = /^\/campaigns\/[^/]+\/steps$/;
const CAMPAIGN_STEP_EDIT = /^\/campaigns\/[^/]+\/step\/[^/]+\/edit$/;

/** Campaign step and editor routes that super admins work on in admin view. */
export function isAdminViewEditorPath(pathname: string): boolean {
  const path = normalizePath(pathname);
  return (
    CAMPAIGN_STEPS.test(path) ||
    CAMPAIGN_STEP_EDIT.test(path) ||
    isPathWithin(path, '/newsletters/editor') ||
    isPathWithin(path, '/newsletter-editor')
  );
}

/**
 * Admin view mode follows the route. Super admins get admin view on admin routes and on
 * campaign step and editor routes; everyone else, and super admins elsewhere, get user view.
 */
export function getViewMode(pathname: string, role: Role | null | undefined): ViewMode {
  if (role !== 'super_admin') return 'user';
  return isAdminPath(pathname) || isAdminViewEditorPath(pathname) ? 'admin' : 'user';
}
