import { z } from 'zod';

/*
 * Email verification, as the dedicated verifiers do it: syntax → disposable and role checks → MX → an SMTP
 * probe that asks the receiving server about the address (RCPT TO, never DATA) and about a random one at
 * the same domain (catch-all). Each result has a status, a reason and its date.
 */

export const EMAIL_VERIFICATION_STATUSES = ['valid', 'risky', 'invalid', 'unknown'] as const;
export type EmailVerificationStatus = (typeof EMAIL_VERIFICATION_STATUSES)[number];

export const EMAIL_VERIFICATION_REASONS = {
  accepted: 'The mail server accepts this mailbox',
  catch_all: 'The domain accepts every address, so this one cannot be confirmed',
  role: 'A shared role mailbox (info@, sales@…), not a person',
  mailbox_full: 'The mailbox is full',
  greylisted: 'The server asked us to try again later; we will',
  rejected: 'The mail server says this mailbox does not exist',
  no_mx: 'The domain does not receive email',
  syntax: 'Not a valid email address',
  disposable: 'A throwaway address from a disposable-email service',
  dns_error: 'The domain’s mail servers could not be looked up',
  unreachable: 'The mail server could not be reached',
  blocked: 'The mail server refused to be asked',
} as const;
export type EmailVerificationReason = keyof typeof EMAIL_VERIFICATION_REASONS;

/** A result is trusted this long; older ones are checked again when asked. */
export const VERIFICATION_MAX_AGE_DAYS = 30;

export const LIST_VERIFICATION_STATES = ['queued', 'running', 'completed', 'failed'] as const;

export const listVerificationSchema = z.object({
  /** The latest run for the list, null when it was never verified. */
  run: z
    .object({
      id: z.string().uuid(),
      state: z.enum(LIST_VERIFICATION_STATES),
      total: z.number().int(),
      checked: z.number().int(),
      error: z.string().nullable(),
      createdAt: z.string(),
      finishedAt: z.string().nullable(),
    })
    .nullable(),
  /** The list's contacts by their latest result (contacts never checked are `unchecked`). */
  breakdown: z.object({
    valid: z.number().int(),
    risky: z.number().int(),
    invalid: z.number().int(),
    unknown: z.number().int(),
    unchecked: z.number().int(),
  }),
  reasons: z.array(z.object({ reason: z.string(), label: z.string(), count: z.number().int() })),
  /** The plan's monthly "Verify list" allowance in addresses (-1 = unlimited, 0 = not included). */
  allowance: z.object({
    planName: z.string(),
    limit: z.number().int(),
    usedThisMonth: z.number().int(),
    /** null when unlimited */
    remaining: z.number().int().nullable(),
    renewsAt: z.string(),
  }),
});
export type VerificationAllowance = ListVerification['allowance'];
export type ListVerification = z.infer<typeof listVerificationSchema>;
