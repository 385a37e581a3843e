export const ERROR_STATUS = {
  bad_request: 400,
  validation: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  unprocessable: 422,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** The one error services throw. The error handler turns it into `{ message, code, ...extra }`. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly extra: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, extra: Record<string, unknown> = {}) {
    super(message);
    this.code = code;
    this.extra = extra;
  }

  get statusCode(): number {
    return ERROR_STATUS[this.code];
  }
}

export const notFound = (what = 'Not found') => new AppError('not_found', what);
