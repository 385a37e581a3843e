import type {
  AdminOrder,
  AdminSubscription,
  AdminUpdatePricingPlan,
  PricingPlan,
  Subscription,
} from '@shared/payments';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { apiRequest } from '@/lib/api';

import { buildQueryString, getJson } from '@/lib/http';

export const adminOrdersQueryKey = ['/api/admin/orders'] as const;
export const adminSubscriptionsQueryKey = ['/api/admin/subscriptions'] as const;
export const adminPricingPlansQueryKey = ['/api/admin/pricing-plans'] as const;

export interface AdminOrderFilters {
  status?: string;
  plan?: string;
  from?: string;
  to?: string;
  search?: string;
  page?: number;
  pageSize?: number;
}

export interface AdminOrderList {
  orders: AdminOrder[];
  total: number;
  page: number;
  pageSize: number;
  /** kobo: successful minus refunded, over the filtered orders */
  revenue: number;
}

export function ordersQueryString(filters: AdminOrderFilters, format?: 'csv'): string {
  return buildQueryString({ ...filters, search: filters.search?.trim(), format });
}

export function useAdminOrders(filters: AdminOrderFilters) {
  return useQuery<AdminOrderList>({
    queryKey: [...adminOrdersQueryKey, filters],
    queryFn: ({ signal }) =>
      getJson<AdminOrderList>(`/api/admin/orders${ordersQueryString(filters)}`, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

export function useRefundOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      id,
      reason,
      endSubscription,
    }: {
      id: string;
      reason: string;
      endSubscription: boolean;
    }) => {
      const res = await apiRequest('POST', `/api/admin/orders/${encodeURIComponent(id)}/refund`, {
        reason,
        endSubscription,
      });
      return (await res.json()) as AdminOrder;
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: adminOrdersQueryKey });
      void queryClient.invalidateQueries({ queryKey: adminSubscriptionsQueryKey });
    },
  });
}

export interface AdminSubscriptionFilters {
  status?: string;
  plan?: string;
  search?: string;
  page?: number;
  pageSize?: number;
}

export interface AdminSubscriptionList {
  subscriptions: AdminSubscription[];
  total: number;
  page: number;
  pageSize: number;
  summary: {
    byStatus: Record<string, number>;
    byPlan: Record<string, number>;
    mrr: number;
    activeCount: number;
    churnedLast30Days: number;
    churnRate: number;
  };
}

export function useAdminSubscriptions(filters: AdminSubscriptionFilters) {
  return useQuery<AdminSubscriptionList>({
    queryKey: [...adminSubscriptionsQueryKey, filters],
    queryFn: ({ signal }) =>
      getJson<AdminSubscriptionList>(
        `/api/admin/subscriptions${buildQueryString({ ...filters, search: filters.search?.trim() })}`,
        signal,
      ),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

export function useExtendSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ userId, days, reason }: { userId: string; days: number; reason: string }) => {
      const res = await apiRequest('POST', `/api/admin/subscriptions/${encodeURIComponent(userId)}/extend`, {
        days,
        reason,
      });
      return (await res.json()) as Subscription;
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: adminSubscriptionsQueryKey });
    },
  });
}

export function useAdminPricingPlans() {
  return useQuery<PricingPlan[]>({ queryKey: adminPricingPlansQueryKey, staleTime: 0 });
}

export function useUpdatePricingPlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, changes }: { id: string; changes: AdminUpdatePricingPlan }) => {
      const res = await apiRequest('PATCH', `/api/admin/pricing-plans/${encodeURIComponent(id)}`, changes);
      return (await res.json()) as PricingPlan;
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: adminPricingPlansQueryKey });
      // The public list feeds the pricing and payment screens.
      void queryClient.invalidateQueries({ queryKey: ['/api/pricing-plans'] });
    },
  });
}
