import type { Role } from '@shared/roles';

/** True when `pathname` is `base` itself or a path below it (`/help` matches `/help/faq`, not `/helpdesk`). */
export function isPathWithin(pathname: string, base: string): boolean {
  return pathname === base || pathname.startsWith(`${base}/`);
}

/** Strips a trailing slash so `/dashboard/` and `/dashboard` are the same route. */
export function normalizePath(pathname: string): string {
  if (pathname.length > 1 && pathname.endsWith('/')) return pathname.replace(/\/+$/, '') || '/';
  return pathname || '/';
}

/** Routes outside `/admin*` that are also for super admins only; others go to /dashboard. */
export const ADMIN_ONLY_LEGACY_PATHS = [
  '/scraper',
  '/users',
  '/system-analytics',
  '/email-queue-status',
  '/admin-templates',
  '/contact-sync',
] as const;

/** Super-admin routes: `/admin*` (the admin area, `/admin-dashboard`, the `/admin-…` aliases) and the legacy paths. */
export function isAdminPath(pathname: string): boolean {
  const path = normalizePath(pathname);
  if (path === '/admin' || path.startsWith('/admin/') || path.startsWith('/admin-')) return true;
  return ADMIN_ONLY_LEGACY_PATHS.some((base) => isPathWithin(path, base));
}

export const DATA_ENTRY_PATH = '/data-entry';

/** Where a data entry officer may go besides their own dashboard (PRODUCT: the sidebar's Help link). */
export const DATA_ENTRY_ALLOWED_PATHS = [DATA_ENTRY_PATH, '/help'] as const;

/** A role's home: the destination after sign-in, and of `/` and `/auth` for a signed-in user. */
export function getRoleHome(role: Role): string {
  switch (role) {
    case 'data_entry':
      return '/data-entry';
    case 'super_admin':
      return '/admin-dashboard';
    default:
      return '/dashboard';
  }
}
