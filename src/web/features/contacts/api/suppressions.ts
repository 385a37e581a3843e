import type { SuppressionReason } from '@shared/contacts';
import type { addSuppressionsResultSchema, suppressionPageSchema } from '@shared/suppression';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '@/lib/api';
import { buildQueryString, getJson } from '@/lib/http';

export type SuppressionPage = z.infer<typeof suppressionPageSchema>;
export type AddSuppressionsResult = z.infer<typeof addSuppressionsResultSchema>;

export const suppressionsQueryKey = ['/api/suppressions'] as const;

export function useSuppressions(params: {
  email: string;
  reason: SuppressionReason | undefined;
  cursor: string | null;
  limit: number;
}) {
  const query = {
    email: params.email.trim(),
    reason: params.reason,
    cursor: params.cursor,
    limit: params.limit,
  };
  return useQuery<SuppressionPage>({
    queryKey: [...suppressionsQueryKey, query],
    queryFn: ({ signal }) => getJson(`/api/suppressions${buildQueryString(query)}`, signal),
    placeholderData: keepPreviousData,
  });
}

export function useAddSuppressions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: {
      emails: string[];
      reason?: SuppressionReason;
      note?: string | null;
    }): Promise<AddSuppressionsResult> => {
      const res = await apiRequest('POST', '/api/suppressions', input);
      return (await res.json()) as AddSuppressionsResult;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: suppressionsQueryKey }),
  });
}

export function useRemoveSuppression() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string): Promise<void> => {
      await apiRequest('DELETE', `/api/suppressions/${encodeURIComponent(id)}`);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: suppressionsQueryKey }),
  });
}
