import type { ActivateSubscriptionResponse, InitializePaymentResponse } from '@shared/payments';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';

import { toast } from '@/hooks/use-toast';
import { getErrorMessage, parseApiError } from '@/lib/errors';
import { loadPaystackScript } from '@/lib/paystack';

import { useActivateSubscription } from '../api/payments';
import { ACTIVATION_REDIRECT_MS, PAYMENT_TOASTS } from './messages';

/** Where the checkout is: the popup open, the server verifying, done (redirect pending) or failed. */
export type CheckoutPhase = 'idle' | 'loading' | 'open' | 'verifying' | 'done' | 'failed';

export interface CheckoutOptions {
  /** Where to go 1.5 s after activation. */
  redirectTo: string;
  successTitle: (response: ActivateSubscriptionResponse) => string;
  successDescription: (response: ActivateSubscriptionResponse) => string;
}

/**
 * The browser half of a Paystack payment: load the inline script the server names, open the popup
 * on the transaction the server created, and on success ask the server to verify and activate.
 */
export function usePaystackCheckout(options: CheckoutOptions) {
  const navigate = useNavigate();
  const activate = useActivateSubscription();
  const [phase, setPhase] = useState<CheckoutPhase>('idle');
  const [failedReference, setFailedReference] = useState<string | null>(null);
  const timer = useRef<number | null>(null);
  const latest = useRef(options);
  latest.current = options;

  useEffect(
    () => () => {
      if (timer.current !== null) window.clearTimeout(timer.current);
    },
    [],
  );

  const onPaid = useCallback(
    (payment: InitializePaymentResponse, reference: string) => {
      setPhase('verifying');
      activate.mutate(
        { paymentReference: reference, planId: payment.planId, interval: payment.interval },
        {
          onSuccess: (response) => {
            setPhase('done');
            toast({
              title: latest.current.successTitle(response),
              description: latest.current.successDescription(response),
            });
            timer.current = window.setTimeout(
              () => navigate(latest.current.redirectTo, { replace: true }),
              ACTIVATION_REDIRECT_MS,
            );
          },
          onError: (error) => {
            const failure = parseApiError(error);
            const reason = (failure.data as { reason?: string } | undefined)?.reason;
            if (reason === 'pending') {
              // Paystack has not settled it yet: the webhook will activate the plan; the success page waits.
              setPhase('done');
              navigate(`/payment-success?reference=${encodeURIComponent(reference)}`, { replace: true });
              return;
            }
            setPhase('failed');
            setFailedReference(reference);
            toast({ ...PAYMENT_TOASTS.activationError, variant: 'destructive' });
          },
        },
      );
    },
    [activate, navigate],
  );

  /** Opens the popup for a transaction the server has initialized. */
  const open = useCallback(
    async (payment: InitializePaymentResponse) => {
      setPhase('loading');
      setFailedReference(null);
      const PaystackPop = await loadPaystackScript(payment.inlineScriptUrl);
      if (!PaystackPop) {
        setPhase('idle');
        toast({ ...PAYMENT_TOASTS.notReady, variant: 'destructive' });
        return;
      }
      setPhase('open');
      try {
        new PaystackPop().resumeTransaction(payment.accessCode, {
          onSuccess: (transaction) => onPaid(payment, transaction?.reference || payment.reference),
          onCancel: () => {
            setPhase('idle');
            toast(PAYMENT_TOASTS.cancelled);
          },
          onError: (error) => {
            setPhase('idle');
            toast({
              title: PAYMENT_TOASTS.paymentError.title,
              description: error?.message || PAYMENT_TOASTS.paymentError.fallback,
              variant: 'destructive',
            });
          },
        });
      } catch (error) {
        setPhase('idle');
        toast({
          title: PAYMENT_TOASTS.paymentError.title,
          description: getErrorMessage(error, PAYMENT_TOASTS.notReady.description),
          variant: 'destructive',
        });
      }
    },
    [onPaid],
  );

  return { open, phase, failedReference, busy: phase !== 'idle' && phase !== 'failed' };
}
