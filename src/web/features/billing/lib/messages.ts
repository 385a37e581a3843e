/** The payment toasts' titles and texts: fixed product copy, matched exactly by the e2e tests. */
export const PAYMENT_TOASTS = {
  invalidLink: {
    title: 'Invalid Payment Link',
    description: 'Missing plan information. Redirecting to pricing.',
  },
  signIn: { title: 'Please Sign In', description: 'You need to be signed in to make a payment.' },
  notReady: {
    title: 'Payment Error',
    description: 'Payment system not ready. Please refresh and try again.',
  },
  paymentError: { title: 'Payment Error', fallback: 'Failed to initialize payment. Please try again.' },
  activationError: {
    title: 'Activation Error',
    description: 'Payment succeeded but subscription activation failed. Please contact support.',
  },
  cancelled: { title: 'Payment Cancelled', description: 'You can retry payment anytime.' },
} as const;

/** The redirect after a successful activation waits 1.5 s, so the success toast can be read. */
export const ACTIVATION_REDIRECT_MS = 1500;
