import type { SegmentCreateInput, SegmentMatch, SegmentRule, SegmentWithCount } from '@shared/segments';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { segmentsQueryKey } from '@/components/segments/segment-picker';
import { apiRequest } from '@/lib/api';

async function json<T>(method: string, url: string, body?: unknown): Promise<T> {
  return (await (await apiRequest(method, url, body)).json()) as T;
}

function useSegmentMutation<TInput, TResult>(run: (input: TInput) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: segmentsQueryKey }),
  });
}

export const useCreateSegment = () =>
  useSegmentMutation((input: SegmentCreateInput) => json<SegmentWithCount>('POST', '/api/segments', input));

export const useUpdateSegment = () =>
  useSegmentMutation(
    ({ id, ...input }: { id: string; name: string; match: SegmentMatch; rules: SegmentRule[] }) =>
      json<SegmentWithCount>('PATCH', `/api/segments/${encodeURIComponent(id)}`, input),
  );

export const useDeleteSegment = () =>
  useSegmentMutation((id: string) =>
    json<{ message: string }>('DELETE', `/api/segments/${encodeURIComponent(id)}`),
  );

/**
 * The builder's live count for rules being edited; `rules` null (not valid yet) counts nothing. Kept
 * while the next count loads, so the number does not flicker at each keystroke.
 */
export function useSegmentRulesCount(listId: string, match: SegmentMatch, rules: SegmentRule[] | null) {
  return useQuery<{ count: number }>({
    queryKey: [...segmentsQueryKey, 'count', listId, match, rules],
    queryFn: () => json('POST', '/api/segments/count', { listId, match, rules }),
    enabled: rules !== null,
    placeholderData: (previous) => previous,
    retry: false,
  });
}
