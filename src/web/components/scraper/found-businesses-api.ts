import type { AcceptScrapeResultInput, ScrapeResult, ScrapeResultStatus } from '@shared/scraper';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { buildQueryString, getJson } from '@/lib/http';

export interface ScrapeResultPage {
  results: ScrapeResult[];
  total: number;
  page: number;
  pageSize: number;
}

export const foundBusinessesKey = ['/api/scraper/results'] as const;
export const FOUND_PAGE_SIZE = 10;

/** What the crawls found, waiting for an officer (oldest first), or already decided. */
export function useFoundBusinesses(options: { status: ScrapeResultStatus; page: number; jobId?: string }) {
  return useQuery<ScrapeResultPage>({
    queryKey: [...foundBusinessesKey, options],
    queryFn: ({ signal }) =>
      getJson(`/api/scraper/results${buildQueryString({ ...options, pageSize: FOUND_PAGE_SIZE })}`, signal),
    placeholderData: keepPreviousData,
    refetchInterval: 15_000,
  });
}

export type ReviewDecision =
  | { id: string; decision: 'accept'; edits: AcceptScrapeResultInput }
  | { id: string; decision: 'reject' };

export function useReviewFoundBusiness() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: ReviewDecision): Promise<ScrapeResult> => {
      const res = await apiRequest(
        'POST',
        `/api/scraper/results/${input.id}/${input.decision}`,
        input.decision === 'accept' ? input.edits : undefined,
      );
      return (await res.json()) as ScrapeResult;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: foundBusinessesKey }),
  });
}
