import type { CreateScrapeJobInput, ScrapeJob, ScrapeJobDetail } from '@shared/scraper';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { getJson } from '@/lib/http';

/** Crawls move on their own: the console follows them without a reload. */
export const SCRAPER_REFRESH_MS = 5_000;

export const scrapeJobsKey = ['/api/admin/scraper/jobs'] as const;

export function useScrapeJobs() {
  return useQuery<{ jobs: ScrapeJob[] }>({
    queryKey: scrapeJobsKey,
    queryFn: ({ signal }) => getJson('/api/admin/scraper/jobs', signal),
    refetchInterval: SCRAPER_REFRESH_MS,
  });
}

export function useScrapeJobDetail(id: string | null) {
  return useQuery<ScrapeJobDetail>({
    queryKey: [...scrapeJobsKey, id],
    queryFn: ({ signal }) => getJson(`/api/admin/scraper/jobs/${id}`, signal),
    enabled: id !== null,
    refetchInterval: SCRAPER_REFRESH_MS,
  });
}

export function useCreateScrapeJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: CreateScrapeJobInput): Promise<ScrapeJob> => {
      const res = await apiRequest('POST', '/api/admin/scraper/jobs', input);
      return (await res.json()) as ScrapeJob;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: scrapeJobsKey }),
  });
}

export type ScrapeJobAction = 'pause' | 'resume' | 'cancel';

export function useScrapeJobAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, action }: { id: string; action: ScrapeJobAction }): Promise<ScrapeJob> => {
      const res = await apiRequest('POST', `/api/admin/scraper/jobs/${id}/${action}`);
      return (await res.json()) as ScrapeJob;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: scrapeJobsKey }),
  });
}
