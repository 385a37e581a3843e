import type { ApiError, FieldError } from './errors';

/*
 * The codes and reasons of the API's error contract (its schemas are in ./errors.ts), and the client's
 * lenient reader of an error body. Nothing here imports zod: the browser's entry reads API errors, and
 * the schema library would otherwise weigh on every public page's first load.
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readExistingUser(value: unknown): ApiError['existingUser'] {
  if (!isRecord(value) || typeof value.email !== 'string' || typeof value.firstName !== 'string') return;
  return { email: value.email, firstName: value.firstName };
}

function readFieldErrors(value: unknown): FieldError[] | undefined {
  if (!Array.isArray(value)) return;
  const errors: FieldError[] = [];
  for (const item of value) {
    if (!isRecord(item) || typeof item.path !== 'string' || typeof item.message !== 'string') return;
    errors.push({ path: item.path, message: item.message });
  }
  return errors;
}

/**
 * The error body in `value` (parsed JSON), or undefined when it is not an object. It reads as leniently as
 * a client must: a field of an unexpected shape (a reason this client does not know) is left out instead
 * of losing the whole body and its message; fields beyond the contract's (`existing`, `limit` …) are kept.
 */
export function readApiError(value: unknown): Partial<ApiError> | undefined {
  if (!isRecord(value)) return undefined;
  const { message, code, reason, action, existingUser, errors, ...details } = value;
  const read: Partial<ApiError> = { ...details };
  if (typeof message === 'string') read.message = message;
  if ((ERROR_CODES as readonly unknown[]).includes(code)) read.code = code as ErrorCode;
  if ((ERROR_REASONS as readonly unknown[]).includes(reason)) read.reason = reason as ErrorReason;
  if (typeof action === 'string') read.action = action;
  const user = readExistingUser(existingUser);
  if (user) read.existingUser = user;
  const fieldErrors = readFieldErrors(errors);
  if (fieldErrors) read.errors = fieldErrors;
  return read;
}
