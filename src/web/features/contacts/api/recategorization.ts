import type { Recategorization, RecategorizationPreview } from '@shared/recategorization';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { getJson } from '@/lib/http';

export interface RuleInput {
  keyword: string;
  fromCategories: string[];
  countries: string[];
  toCategory: string;
}

const historyKey = ['/api/admin/recategorizations'] as const;

export function useRecategorizations() {
  return useQuery<{ moves: Recategorization[] }>({
    queryKey: historyKey,
    queryFn: ({ signal }) => getJson('/api/admin/recategorizations', signal),
  });
}

export function usePreviewRecategorization() {
  return useMutation({
    mutationFn: async (rule: RuleInput): Promise<RecategorizationPreview> => {
      const res = await apiRequest('POST', '/api/admin/recategorizations/preview', rule);
      return (await res.json()) as RecategorizationPreview;
    },
  });
}

export function useApplyRecategorization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (rule: RuleInput): Promise<Recategorization> => {
      const res = await apiRequest('POST', '/api/admin/recategorizations', rule);
      return (await res.json()) as Recategorization;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: historyKey }),
  });
}

export function useUndoRecategorization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string): Promise<Recategorization> => {
      const res = await apiRequest('POST', `/api/admin/recategorizations/${id}/undo`);
      return (await res.json()) as Recategorization;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: historyKey }),
  });
}
