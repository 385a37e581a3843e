import type { AuditEntry } from '@shared/admin';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { buildQueryString, getJson } from '@/lib/http';

export const auditLogQueryKey = ['/api/admin/audit-log'] as const;

export interface AuditLogPage {
  entries: AuditEntry[];
  total: number;
  page: number;
  pageSize: number;
}

/** One page of the audit log, newest first; without `pageSize` the server's default (25) applies. */
export function useAuditLog(page: number, pageSize?: number) {
  return useQuery<AuditLogPage>({
    queryKey: [...auditLogQueryKey, { page, pageSize }],
    queryFn: ({ signal }) =>
      getJson<AuditLogPage>(`/api/admin/audit-log${buildQueryString({ page, pageSize })}`, signal),
    placeholderData: keepPreviousData,
  });
}
