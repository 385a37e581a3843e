/** Spec §8: the payment toasts, word for word. */
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

/** Spec §9: the redirect after a successful activation. */
export const ACTIVATION_REDIRECT_MS = 1500;
