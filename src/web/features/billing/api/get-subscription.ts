import type { Payment, Subscription } from '@shared/payments';
import { useQuery } from '@tanstack/react-query';

export const SUBSCRIPTION_QUERY_KEY = ['/api/subscription'] as const;
export const PAYMENT_HISTORY_QUERY_KEY = ['/api/subscription/payments'] as const;

export function useSubscription() {
  return useQuery<Subscription>({ queryKey: SUBSCRIPTION_QUERY_KEY, staleTime: 0 });
}

export function usePaymentHistory() {
  return useQuery<{ payments: Payment[] }>({ queryKey: PAYMENT_HISTORY_QUERY_KEY, staleTime: 0 });
}
