import type { Runbook, RunbookSummary } from '@shared/documentation';
import { useQuery } from '@tanstack/react-query';

export function useRunbooks() {
  return useQuery<RunbookSummary[]>({ queryKey: ['/api/admin/documentation'], staleTime: 5 * 60_000 });
}

export function useRunbook(slug: string | undefined) {
  return useQuery<Runbook>({
    queryKey: ['/api/admin/documentation', slug],
    enabled: Boolean(slug),
    staleTime: 5 * 60_000,
  });
}
