import type { AdminUser } from '@shared/admin';
import type { QueryClient } from '@tanstack/react-query';
import { USER_QUERY_KEY } from '@/lib/query-client';
import { adminOverviewQueryKey } from './get-admin-overview';
import { adminUsersQueryKey } from './get-admin-users';
import { auditLogQueryKey } from './get-audit-log';

export const adminUserPath = (id: string) => `/api/admin/users/${encodeURIComponent(id)}`;

/** After any admin action: the users lists and details, the overview counts and the audit log change. */
export function refreshAdminData(queryClient: QueryClient, user?: AdminUser) {
  if (user) queryClient.setQueryData([...adminUsersQueryKey, 'detail', user.id], user);
  void queryClient.invalidateQueries({ queryKey: adminUsersQueryKey });
  void queryClient.invalidateQueries({ queryKey: adminOverviewQueryKey });
  void queryClient.invalidateQueries({ queryKey: auditLogQueryKey });
  // An admin changing their own plan sees it at once in the header and on the dashboard.
  void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
}
