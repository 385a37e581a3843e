import {
  apiErrorSchema,
  type CheckIssue,
  ERROR_STATUS,
  type ErrorCode,
  type ErrorReason,
  type ErrorStatus,
  type FieldError,
} from '@shared/errors';

export { ERROR_STATUS, type ErrorCode } from '@shared/errors';

/** What an error adds to `{ message, code }`: the shared fields are typed, a case may add its own details. */
export interface ErrorDetails {
  /** Never here: the body's `code` is the AppError's own; a case is told apart by `reason`. */
  code?: never;
  reason?: ErrorReason;
  action?: string;
  existingUser?: { email: string; firstName: string };
  /** Field problems (a 400), or the blockers of refused checks (a 422 with `checksFailedErrorSchema`). */
  errors?: FieldError[] | CheckIssue[];
  [detail: string]: unknown;
}

/** The one error services throw. The error handler turns it into `{ message, code, ...extra }`. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly extra: ErrorDetails;

  constructor(code: ErrorCode, message: string, extra: ErrorDetails = {}) {
    super(message);
    this.code = code;
    this.extra = extra;
  }

  get statusCode(): number {
    return ERROR_STATUS[this.code];
  }
}

export const notFound = (what = 'Not found') => new AppError('not_found', what);

/**
 * The error part of a route's `response` schema: `errorResponses(400, 401, 404)` declares that the route
 * may answer those statuses with the shared error body.
 */
export function errorResponses<const S extends ErrorStatus>(
  ...statuses: S[]
): Record<S, typeof apiErrorSchema> {
  return Object.fromEntries(statuses.map((status) => [status, apiErrorSchema])) as Record<
    S,
    typeof apiErrorSchema
  >;
}
