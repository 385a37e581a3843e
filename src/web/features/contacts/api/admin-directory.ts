import type { LeadSort, VerificationStatus } from '@shared/contacts';
import type {
  AdminDirectoryQuery,
  bulkResultSchema,
  DirectoryContact,
  directoryContactPageSchema,
} from '@shared/directory';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '@/lib/api';
import { buildQueryString, getJson } from '@/lib/http';
import { type LeadFilterValues, toLeadFilterParams } from './leads';

export type DirectoryPage = z.infer<typeof directoryContactPageSchema>;
export type BulkResult = z.infer<typeof bulkResultSchema>;

export type DeletedFilter = 'live' | 'all' | 'deleted';

export interface AdminDirectoryFilters extends LeadFilterValues {
  source: string[];
  status: string[];
  deleted: DeletedFilter;
}

export function toAdminParams(filters: AdminDirectoryFilters) {
  return {
    ...toLeadFilterParams(filters),
    ...(filters.source.length ? { source: filters.source } : {}),
    ...(filters.status.length ? { status: filters.status } : {}),
    ...(filters.deleted === 'all' ? { includeDeleted: true } : {}),
    ...(filters.deleted === 'deleted' ? { deletedOnly: true } : {}),
  } satisfies Partial<Record<keyof AdminDirectoryQuery, unknown>>;
}

export const adminDirectoryKey = ['/api/admin/directory'] as const;

export function useAdminDirectory(params: {
  filters: AdminDirectoryFilters;
  sort: LeadSort;
  cursor: string | null;
  limit: number;
}) {
  const query = {
    ...toAdminParams(params.filters),
    sort: params.sort,
    cursor: params.cursor,
    limit: params.limit,
  };
  return useQuery<DirectoryPage>({
    queryKey: [...adminDirectoryKey, 'list', query],
    queryFn: ({ signal }) => getJson(`/api/admin/directory${buildQueryString(query)}`, signal),
    placeholderData: keepPreviousData,
  });
}

export function useAdminDirectoryCount(filters: AdminDirectoryFilters) {
  const query = toAdminParams(filters);
  return useQuery<{ count: number; capped: boolean }>({
    queryKey: [...adminDirectoryKey, 'count', query],
    queryFn: ({ signal }) => getJson(`/api/admin/directory/count${buildQueryString(query)}`, signal),
    placeholderData: keepPreviousData,
  });
}

type BulkAction = 'bulk-verify' | 'bulk-recategorize' | 'bulk-delete' | 'bulk-restore';

export function useBulkDirectoryAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      action,
      ...body
    }: {
      action: BulkAction;
      ids: string[];
      status?: VerificationStatus;
      reason?: string | null;
      category?: string;
    }): Promise<BulkResult> => {
      const res = await apiRequest('POST', `/api/admin/directory/${action}`, body);
      return (await res.json()) as BulkResult;
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: adminDirectoryKey });
      void queryClient.invalidateQueries({ queryKey: ['/api/leads'] });
    },
  });
}

export type { DirectoryContact };
