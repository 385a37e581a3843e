import type { User } from '@shared/auth';
import type {
  ActivateSubscriptionInput,
  ActivateSubscriptionResponse,
  ChangePlanInput,
  ChangePlanResponse,
  InitializePaymentInput,
  InitializePaymentResponse,
  Subscription,
} from '@shared/payments';
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';

import { apiRequest } from '@/lib/api';
import { USER_QUERY_KEY } from '@/lib/query-client';

import { PAYMENT_HISTORY_QUERY_KEY, SUBSCRIPTION_QUERY_KEY } from './get-subscription';

/** Everything a plan change touches: the user (badge, guards), their plan limits and the billing screens. */
export function refreshBillingQueries(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY }),
    queryClient.invalidateQueries({ queryKey: ['/api/user/plan'] }),
    queryClient.invalidateQueries({ queryKey: SUBSCRIPTION_QUERY_KEY }),
    queryClient.invalidateQueries({ queryKey: PAYMENT_HISTORY_QUERY_KEY }),
  ]);
}

async function postJson<T>(url: string, body?: unknown): Promise<T> {
  const res = await apiRequest('POST', url, body);
  return (await res.json()) as T;
}

/** POST /api/payments/initialize: the server prices the plan and creates the Paystack transaction. */
export function useInitializePayment() {
  return useMutation({
    mutationFn: (input: InitializePaymentInput) =>
      postJson<InitializePaymentResponse>('/api/payments/initialize', input),
  });
}

/** POST /api/activate-subscription: the server verifies the reference with Paystack, then grants the plan. */
export function useActivateSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ActivateSubscriptionInput) =>
      postJson<ActivateSubscriptionResponse>('/api/activate-subscription', input),
    onSuccess: (response) => {
      queryClient.setQueryData<User | null>(USER_QUERY_KEY, response.user);
      queryClient.setQueryData<Subscription>(SUBSCRIPTION_QUERY_KEY, response.subscription);
      void refreshBillingQueries(queryClient);
    },
  });
}

export function useCancelSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => postJson<{ message: string; subscription: Subscription }>('/api/subscription/cancel'),
    onSuccess: (response) => {
      queryClient.setQueryData<Subscription>(SUBSCRIPTION_QUERY_KEY, response.subscription);
      void refreshBillingQueries(queryClient);
    },
  });
}

export function useReactivateSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      postJson<{ message: string; subscription: Subscription }>('/api/subscription/reactivate'),
    onSuccess: (response) => {
      queryClient.setQueryData<Subscription>(SUBSCRIPTION_QUERY_KEY, response.subscription);
      void refreshBillingQueries(queryClient);
    },
  });
}

/** POST /api/subscription/change-plan: upgrades answer with a payment to open; downgrades are scheduled. */
export function useChangePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ChangePlanInput) =>
      postJson<ChangePlanResponse>('/api/subscription/change-plan', input),
    onSuccess: (response) => {
      queryClient.setQueryData<Subscription>(SUBSCRIPTION_QUERY_KEY, response.subscription);
      if (response.effect !== 'payment_required') void refreshBillingQueries(queryClient);
    },
  });
}
