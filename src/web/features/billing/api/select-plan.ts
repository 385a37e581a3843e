import type { User } from '@shared/auth';
import type { SelectPlanInput } from '@shared/payments';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { apiRequest } from '@/lib/api';
import { USER_QUERY_KEY } from '@/lib/query-client';

import { refreshBillingQueries } from './payments';

/** POST /api/subscription/select-plan: records the chosen plan (free takes an unpaid account back to Free). */
export function useSelectPlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: SelectPlanInput): Promise<User> => {
      const res = await apiRequest('POST', '/api/subscription/select-plan', input);
      return (await res.json()) as User;
    },
    onSuccess: (user) => {
      queryClient.setQueryData<User | null>(USER_QUERY_KEY, user);
      void refreshBillingQueries(queryClient);
    },
  });
}
