import type { AuditEntry } from '@shared/admin';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { buildQueryString, getJson } from './get-json';

export const auditLogQueryKey = ['/api/admin/audit-log'] as const;

export interface AuditLogPage {
  entries: AuditEntry[];
  total: number;
  page: number;
  pageSize: number;
}

export function useAuditLog(page: number) {
  return useQuery<AuditLogPage>({
    queryKey: [...auditLogQueryKey, page],
    queryFn: ({ signal }) => getJson<AuditLogPage>(`/api/admin/audit-log${buildQueryString({ page })}`, signal),
    placeholderData: keepPreviousData,
  });
}
