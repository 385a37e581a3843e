import { readApiError } from '@shared/error-codes';
import type { ApiError as ApiErrorBody } from '@shared/errors';

/** The parts of an API failure that screens read: status, the body's message and its extra fields. */
export interface ApiFailure {
  status: number | undefined;
  message: string | undefined;
  data: Partial<ApiErrorBody> | undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * Splits an error thrown by `apiRequest` (message `"<status>: <body>"`) back into status and body. Works
 * both with the attached `status`/`data` fields and with a plain Error carrying only the message.
 */
export function parseApiError(error: unknown): ApiFailure {
  if (!(error instanceof Error)) {
    return { status: undefined, message: typeof error === 'string' ? error : undefined, data: undefined };
  }
  const attached = error as Error & { status?: unknown; data?: unknown };
  let status = typeof attached.status === 'number' ? attached.status : undefined;
  let data = isRecord(attached.data) ? readApiError(attached.data) : undefined;
  let body: string | undefined;

  const match = /^(\d{3}): ([\s\S]*)$/.exec(error.message);
  if (match) {
    status ??= Number(match[1]);
    body = match[2];
    if (!data && body) {
      try {
        const parsed: unknown = JSON.parse(body);
        if (isRecord(parsed)) data = readApiError(parsed);
      } catch {
        // The body was plain text (or the status text); it is the message itself.
      }
    }
  }

  const fromData = data && typeof data.message === 'string' && data.message ? data.message : undefined;
  const fromError =
    data && typeof (data as { error?: unknown }).error === 'string'
      ? (data as { error: string }).error
      : undefined;
  // A proxy's HTML error page is not a message anyone should read in a toast.
  const plainBody = !data && body && !body.trimStart().startsWith('<') ? body : undefined;
  const message = fromData ?? fromError ?? plainBody ?? (match ? undefined : error.message || undefined);
  return { status, message, data };
}

/** The server's `message` from an API error, or `fallback` when there is none. */
export function getErrorMessage(error: unknown, fallback: string): string {
  return parseApiError(error).message ?? fallback;
}

/** The HTTP status of an API error, when known. */
export function getErrorStatus(error: unknown): number | undefined {
  return parseApiError(error).status;
}
