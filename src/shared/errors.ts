import { z } from 'zod';

/**
 * The one error contract of the API. Every non-OK answer is `{ message, code, ... }`: `message` is for
 * people, `code` says what kind of failure it is (and decides the HTTP status), `reason` names the case
 * when a screen must react to it, and `errors` lists field problems of a 400.
 */

/** Every `code` an error body can carry, with the HTTP status it is sent with. */
export const ERROR_STATUS = {
  bad_request: 400,
  validation: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  /** The record already exists; the body's `existing` holds it. */
  duplicate: 409,
  unprocessable: 422,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

/** The statuses an error can be answered with. */
export type ErrorStatus = (typeof ERROR_STATUS)[ErrorCode];

/** The cases a screen tells apart beyond the code: what went wrong and so what the user can do next. */
export const ERROR_REASONS = [
  // Payments: why a checkout or its verification did not give the plan.
  'abandoned',
  'failed',
  'pending',
  'amount_mismatch',
  'currency_mismatch',
  'plan_mismatch',
  'refunded',
  'payment_required',
  'use_change_plan',
  // Plans: the caller's plan does not allow this (the message names the limit and the next plan).
  'plan_limit',
  'plan_restricted',
  'free_scope_required',
  // AI writing assistant.
  'ai_not_configured',
  'ai_timeout',
  'ai_provider_failed',
  'ai_empty',
  'ai_daily_limit',
  // The operator switched AI writing off in Admin → Settings.
  'ai_disabled',
  // Sign-ups are closed on this installation (Admin → Settings).
  'signups_closed',
  // Directory: sample contacts cannot be verified.
  'sample_data',
  // A super admin froze the list (it looks bought or scraped).
  'list_frozen',
  // A strict data entry assignment keeps the officer to its country and category.
  'outside_assignment',
] as const;
export type ErrorReason = (typeof ERROR_REASONS)[number];

export const fieldErrorSchema = z.object({ path: z.string(), message: z.string() });
export type FieldError = z.infer<typeof fieldErrorSchema>;

/**
 * Every error body the API sends. It is loose: a case may add its own details (`existing`, `limit`,
 * `allowed` …) after the fields every client can rely on.
 */
export const apiErrorSchema = z.looseObject({
  message: z.string(),
  code: z.enum(ERROR_CODES),
  reason: z.enum(ERROR_REASONS).optional(),
  /** What the client should do next, e.g. `login_required` when registering an existing email. */
  action: z.string().optional(),
  existingUser: z.object({ email: z.string(), firstName: z.string() }).optional(),
  errors: z.array(fieldErrorSchema).optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

/** A problem a set of checks found (a campaign's pre-launch checks): its code, message and where it is. */
export const checkIssueSchema = z.looseObject({ code: z.string(), message: z.string() });
export type CheckIssue = z.infer<typeof checkIssueSchema>;

/** The 422 of an action its checks refused: `errors` lists the checks' blockers instead of fields. */
export const checksFailedErrorSchema = apiErrorSchema.extend({ errors: z.array(checkIssueSchema) });

/**
 * Reads an error body as leniently as a client must: a field of an unexpected shape (a reason this
 * client does not know) is left out instead of losing the whole body and its message.
 */
const lenientApiErrorSchema = z.looseObject({
  message: z.string().optional().catch(undefined),
  code: apiErrorSchema.shape.code.optional().catch(undefined),
  reason: apiErrorSchema.shape.reason.catch(undefined),
  action: z.string().optional().catch(undefined),
  existingUser: apiErrorSchema.shape.existingUser.catch(undefined),
  errors: apiErrorSchema.shape.errors.catch(undefined),
});

/** The error body in `value` (parsed JSON), or undefined when it is not an object. */
export function readApiError(value: unknown): Partial<ApiError> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const parsed = lenientApiErrorSchema.parse(value);
  return Object.fromEntries(
    Object.entries(parsed).filter(([, field]) => field !== undefined),
  ) as Partial<ApiError>;
}
