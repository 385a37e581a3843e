import type { AdminUser, AdminUserListQuery } from '@shared/admin';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { buildQueryString, getJson } from '@/lib/http';

/** Every users query (lists and details) sits under this prefix, so one invalidation refreshes them all. */
export const adminUsersQueryKey = ['/api/admin/users'] as const;

export interface AdminUserList {
  users: AdminUser[];
  total: number;
  page: number;
  pageSize: number;
}

export type AdminUserFilters = Partial<AdminUserListQuery>;

/** One page of users; the previous page stays on screen while the next one loads. */
export function useAdminUsers(filters: AdminUserFilters) {
  return useQuery<AdminUserList>({
    queryKey: [...adminUsersQueryKey, 'list', filters],
    queryFn: ({ signal }) =>
      getJson<AdminUserList>(
        `/api/admin/users${buildQueryString({ ...filters, search: filters.search?.trim() })}`,
        signal,
      ),
    placeholderData: keepPreviousData,
  });
}

export function useAdminUser(id: string | null) {
  return useQuery<AdminUser>({
    queryKey: [...adminUsersQueryKey, 'detail', id],
    queryFn: ({ signal }) => getJson<AdminUser>(`/api/admin/users/${encodeURIComponent(id ?? '')}`, signal),
    enabled: Boolean(id),
  });
}
