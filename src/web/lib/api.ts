import { readApiError } from '@shared/error-codes';
import type { ApiError as ApiErrorBody } from '@shared/errors';
import type { QueryFunction } from '@tanstack/react-query';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * The error every non-OK response raises: the message is `${status}: ${body text or status
 * text}`, and the status and the parsed JSON body (when there is one) ride along for callers such as
 * registration that read `action` and `existingUser`.
 */
export class ApiRequestError extends Error {
  readonly status: number;
  readonly statusText: string;
  readonly data: Partial<ApiErrorBody> | undefined;

  constructor(status: number, bodyText: string, statusText: string, data: Partial<ApiErrorBody> | undefined) {
    super(`${status}: ${bodyText || statusText}`);
    this.name = 'ApiRequestError';
    this.status = status;
    this.statusText = statusText;
    this.data = data;
  }
}

/** The body read as the shared error contract (src/shared/errors.ts), when it is JSON. */
function parseJson(text: string): Partial<ApiErrorBody> | undefined {
  if (!text) return undefined;
  try {
    return readApiError(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** Throws an {@link ApiRequestError} unless the response is OK. Reads the body only when it is not OK. */
export async function throwIfResNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const bodyText = await res.text().catch(() => '');
  throw new ApiRequestError(res.status, bodyText, res.statusText, parseJson(bodyText));
}

/**
 * Every call carries the session cookie; a JSON content type is sent only with a body.
 * Returns the raw Response so callers decide whether to read it (logout does not).
 */
export async function apiRequest(
  method: HttpMethod | string,
  url: string,
  data?: unknown,
): Promise<Response> {
  const hasBody = data !== undefined;
  const res = await fetch(url, {
    method,
    headers: hasBody ? { 'Content-Type': 'application/json' } : {},
    body: hasBody ? JSON.stringify(data) : undefined,
    credentials: 'include',
  });
  await throwIfResNotOk(res);
  return res;
}

export type UnauthorizedBehavior = 'returnNull' | 'throw';

/**
 * The default query function: a GET of the query key's segments joined with '/'. With
 * `on401: 'returnNull'` an unauthenticated answer resolves to null instead of throwing (the user query).
 */
export function getQueryFn<T>({ on401 }: { on401: UnauthorizedBehavior }): QueryFunction<T> {
  return async ({ queryKey, signal }) => {
    const res = await fetch(queryKey.join('/'), { credentials: 'include', signal });
    if (on401 === 'returnNull' && res.status === 401) {
      return null as T;
    }
    await throwIfResNotOk(res);
    return (await res.json()) as T;
  };
}
