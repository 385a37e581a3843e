import type { PaymentsConfig } from '@shared/payments';
import { useQuery } from '@tanstack/react-query';

/** Whether checkout runs against Paystack's test mode (or the built-in fake): no real card is charged. */
export function usePaymentsConfig() {
  return useQuery<PaymentsConfig>({ queryKey: ['/api/payments/config'] });
}
