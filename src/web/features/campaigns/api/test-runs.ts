import type { TestRun, TestRunAddresses, TestRunRequest } from '@shared/test-runs';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { campaignPath } from './campaigns';

/* A test run of the sequence (shared/test-runs.ts): start one, and follow its latest run's progress. */

export const latestTestRunKey = (campaignId: string) =>
  [`${campaignPath(campaignId)}/test-runs/latest`] as const;

export function isTestRunActive(run: TestRun | null | undefined): boolean {
  return Boolean(run?.steps.some((step) => step.state === 'queued' || step.state === 'sending'));
}

/** The campaign's latest test run, polled every 3 s while a step is still on its way. */
export function useLatestTestRun(campaignId: string) {
  return useQuery<{ run: TestRun | null }>({
    queryKey: latestTestRunKey(campaignId),
    refetchInterval: (query) => (isTestRunActive(query.state.data?.run) ? 3_000 : false),
  });
}

export function useTestRunAddresses(campaignId: string, enabled: boolean) {
  return useQuery<TestRunAddresses>({
    queryKey: [`${campaignPath(campaignId)}/test-runs/addresses`],
    enabled,
    staleTime: 60_000,
  });
}

export function useStartTestRun(campaignId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (request: TestRunRequest): Promise<TestRun> =>
      (await (await apiRequest('POST', `${campaignPath(campaignId)}/test-runs`, request)).json()) as TestRun,
    onSuccess: (run) => queryClient.setQueryData(latestTestRunKey(campaignId), { run }),
  });
}
