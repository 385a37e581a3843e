import {
  FINISHED_IMPORT_STATUSES,
  type ImportReinspectInput,
  type ImportRejections,
  type ImportStartInput,
  type ImportSummary,
  type ImportUploadResult,
} from '@shared/imports';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { buildQueryString, getJson } from '@/lib/http';

export const importsQueryKey = ['/api/imports'] as const;
const importPath = (id: string) => `/api/imports/${encodeURIComponent(id)}`;

/** Polling interval while an import is queued or running (the brief: every second). */
export const IMPORT_POLL_MS = 1000;

export function isFinished(summary: ImportSummary | undefined): boolean {
  return Boolean(summary && FINISHED_IMPORT_STATUSES.includes(summary.status));
}

/** The import's progress, polled every second until it finishes. */
export function useImport(id: string | null) {
  return useQuery<ImportSummary>({
    queryKey: [...importsQueryKey, id],
    queryFn: ({ signal }) => getJson(importPath(id ?? ''), signal),
    enabled: Boolean(id),
    staleTime: 0,
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status === 'queued' || status === 'running' ? IMPORT_POLL_MS : false;
    },
  });
}

/** The inspection (columns, preview, suggested mapping), e.g. after a reload on the mapping step. */
export function useImportPreview(id: string | null, enabled: boolean) {
  return useQuery<ImportUploadResult>({
    queryKey: [...importsQueryKey, id, 'preview'],
    queryFn: ({ signal }) => getJson(`${importPath(id ?? '')}/preview`, signal),
    enabled: Boolean(id) && enabled,
  });
}

export function useReinspectImport(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: ImportReinspectInput): Promise<ImportUploadResult> => {
      const res = await apiRequest('POST', `${importPath(id)}/inspect`, input);
      return (await res.json()) as ImportUploadResult;
    },
    onSuccess: (result) => queryClient.setQueryData([...importsQueryKey, id, 'preview'], result),
  });
}

export function useStartImport(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: ImportStartInput): Promise<ImportSummary> => {
      const res = await apiRequest('POST', `${importPath(id)}/start`, input);
      return (await res.json()) as ImportSummary;
    },
    onSuccess: (summary) => queryClient.setQueryData([...importsQueryKey, id], summary),
  });
}

export function useCancelImport(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (): Promise<ImportSummary> => {
      const res = await apiRequest('POST', `${importPath(id)}/cancel`);
      return (await res.json()) as ImportSummary;
    },
    onSuccess: (summary) => queryClient.setQueryData([...importsQueryKey, id], summary),
  });
}

/** Rows not imported, keyset by line. */
export function useImportRejections(id: string, after: number, enabled: boolean) {
  return useQuery<ImportRejections>({
    queryKey: [...importsQueryKey, id, 'rejections', after],
    queryFn: ({ signal }) =>
      getJson(`${importPath(id)}/rejections${buildQueryString({ after, limit: 50 })}`, signal),
    enabled,
    placeholderData: keepPreviousData,
  });
}

export const importReportUrl = (id: string) => `${importPath(id)}/report.csv`;
