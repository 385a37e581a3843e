import type { DirectoryStats } from '@shared/leads';
import { useQuery } from '@tanstack/react-query';

/** Live directory figures (real verified records; whether sample data is present). Public. */
export function useDirectoryStats() {
  return useQuery<DirectoryStats>({
    queryKey: ['/api/public/directory-stats'],
    staleTime: 5 * 60_000,
  });
}
