import { z } from 'zod';

/*
 * Subscribe forms with double opt-in: a hosted page per list and an HTML snippet to embed. A signup
 * becomes a list member only when the address's owner follows the signed link mailed to it; the consent
 * (when, a hash of the IP, which form, the exact text shown) is kept.
 */

export const SIGNUP_FORM_LIMITS = {
  title: 120,
  description: 500,
  consentText: 1000,
  /** Confirmation links stay valid this long. */
  confirmDays: 7,
  /** Confirmation mails one address may be sent by one form in a day: no way to flood a stranger. */
  requestsPerAddressPerDay: 3,
  /** Signups one IP may make in an hour, across all forms. */
  requestsPerIpPerHour: 10,
} as const;

export const DEFAULT_CONSENT_TEXT =
  'I agree to receive emails from this sender. I can unsubscribe at any time with the link in every email.';

export const signupFormInputSchema = z.object({
  title: z
    .string()
    .trim()
    .min(1, 'Enter a title')
    .max(SIGNUP_FORM_LIMITS.title, `The title must be at most ${SIGNUP_FORM_LIMITS.title} characters`),
  description: z
    .string()
    .trim()
    .max(
      SIGNUP_FORM_LIMITS.description,
      `The description must be at most ${SIGNUP_FORM_LIMITS.description} characters`,
    )
    .default(''),
  consentText: z
    .string()
    .trim()
    .min(1, 'Enter the consent text subscribers agree to')
    .max(
      SIGNUP_FORM_LIMITS.consentText,
      `The consent text must be at most ${SIGNUP_FORM_LIMITS.consentText} characters`,
    ),
  enabled: z.boolean().default(true),
});
export type SignupFormInput = z.input<typeof signupFormInputSchema>;

export const signupFormSchema = z.object({
  id: z.string(),
  listId: z.string(),
  title: z.string(),
  description: z.string(),
  consentText: z.string(),
  enabled: z.boolean(),
  /** The hosted subscribe page. */
  hostedUrl: z.string(),
  /** A plain HTML form to paste into the user's own site. */
  embedHtml: z.string(),
  /** Signups waiting for the address's owner to confirm (link still valid). */
  pending: z.number(),
  confirmed: z.number(),
  createdAt: z.string(),
});
export type SignupForm = z.infer<typeof signupFormSchema>;

/** GET /api/lists/:id/signup-form answers this: null until the user sets one up. */
export const signupFormResponseSchema = z.object({ form: signupFormSchema.nullable() });

/** What a visitor posts (form-encoded): `website` is the honeypot, empty for people. */
export const subscribeSubmissionSchema = z.object({
  email: z.string().trim().max(254).default(''),
  firstName: z.string().trim().max(100).default(''),
  consent: z.string().default(''),
  website: z.string().default(''),
});

export const SIGNUP_MESSAGES = {
  invalidEmail: 'Enter a valid email address',
  consentRequired: 'Tick the box to agree before subscribing',
  formClosed: 'This form is not taking signups',
  checkInbox: 'Check your inbox',
  confirmed: 'You are subscribed',
  linkInvalid: 'This confirmation link is not valid or has expired',
  tooMany: 'Too many signups from this connection. Try again in an hour.',
} as const;
