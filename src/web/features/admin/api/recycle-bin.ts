import type { RecycleBinList, RecycleBinType } from '@shared/recycle-bin';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { buildQueryString, getJson } from '@/lib/http';

export const RECYCLE_BIN_REFRESH_MS = 30_000;
const recycleBinKey = ['/api/admin/recycle-bin'] as const;

export function useRecycleBin(type: RecycleBinType, cursor: string | undefined, limit: number) {
  return useQuery<RecycleBinList>({
    queryKey: [...recycleBinKey, { type, cursor, limit }],
    queryFn: ({ signal }) =>
      getJson<RecycleBinList>(`/api/admin/recycle-bin${buildQueryString({ type, cursor, limit })}`, signal),
    placeholderData: keepPreviousData,
    refetchInterval: RECYCLE_BIN_REFRESH_MS,
  });
}

export interface RecycleBinAction {
  action: 'restore' | 'purge';
  type: RecycleBinType;
  id: string;
}

/** Restore or purge one item; the server audits both. */
export function useRecycleBinAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ action, type, id }: RecycleBinAction): Promise<{ message: string }> => {
      const res =
        action === 'restore'
          ? await apiRequest('POST', `/api/admin/recycle-bin/${type}/${id}/restore`)
          : await apiRequest('DELETE', `/api/admin/recycle-bin/${type}/${id}`);
      return (await res.json()) as { message: string };
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: recycleBinKey }),
  });
}
