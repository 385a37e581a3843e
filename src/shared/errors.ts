import { z } from 'zod';
import { ERROR_CODES, ERROR_REASONS } from './error-codes';

/**
 * The one error contract of the API. Every non-OK answer is `{ message, code, ... }`: `message` is for
 * people, `code` says what kind of failure it is (and decides the HTTP status), `reason` names the case
 * when a screen must react to it, and `errors` lists field problems of a 400.
 * The codes, reasons and the client's reader live in ./error-codes.ts, free of zod, so the browser's first
 * load does not carry the schema library (the public site's pages read API errors too).
 */

export {
  ERROR_CODES,
  ERROR_REASONS,
  ERROR_STATUS,
  type ErrorCode,
  type ErrorReason,
  type ErrorStatus,
  readApiError,
} from './error-codes';

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
