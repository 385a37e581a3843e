import type { AdminOverview } from '@shared/admin';
import { useQuery } from '@tanstack/react-query';

export const adminOverviewQueryKey = ['/api/admin/overview'] as const;

export function useAdminOverview() {
  return useQuery<AdminOverview>({ queryKey: adminOverviewQueryKey });
}
