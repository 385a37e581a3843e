import { afterEach, describe, expect, it, vi } from 'vitest';

import { ApiRequestError, apiRequest, getQueryFn } from '@/lib/api';
import { getErrorMessage, getErrorStatus, parseApiError } from '@/lib/errors';

type FetchArgs = [string, RequestInit | undefined];

function stubFetch(response: Response) {
  const calls: FetchArgs[] = [];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    calls.push([url, init]);
    return response;
  });
  return calls;
}

function queryContext(queryKey: readonly unknown[]) {
  return { queryKey, signal: new AbortController().signal, meta: undefined } as never;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('apiRequest', () => {
  it('sends JSON with credentials when there is a body', async () => {
    const calls = stubFetch(new Response('{}', { status: 200 }));
    await apiRequest('POST', '/api/login', { email: 'a@b.co', password: 'secret1' });
    const [url, init] = calls[0]!;
    expect(url).toBe('/api/login');
    expect(init?.method).toBe('POST');
    expect(init?.credentials).toBe('include');
    expect(init?.headers).toEqual({ 'Content-Type': 'application/json' });
    expect(init?.body).toBe('{"email":"a@b.co","password":"secret1"}');
  });

  it('sets no content type without a body', async () => {
    const calls = stubFetch(new Response(null, { status: 200 }));
    await apiRequest('POST', '/api/logout');
    expect(calls[0]![1]?.headers).toEqual({});
    expect(calls[0]![1]?.body).toBeUndefined();
    expect(calls[0]![1]?.credentials).toBe('include');
  });

  it('throws "<status>: <body>" with status and parsed data on a non-OK answer', async () => {
    const body = {
      message: 'Exists',
      action: 'login_required',
      existingUser: { email: 'a@b.co', firstName: 'A' },
    };
    stubFetch(new Response(JSON.stringify(body), { status: 409, statusText: 'Conflict' }));
    const error = await apiRequest('POST', '/api/register', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect((error as Error).message).toBe(`409: ${JSON.stringify(body)}`);
    expect((error as ApiRequestError).status).toBe(409);
    expect((error as ApiRequestError).data).toEqual(body);
    expect(getErrorMessage(error, 'fallback')).toBe('Exists');
    expect(getErrorStatus(error)).toBe(409);
  });

  it('uses the status text when the body is empty', async () => {
    stubFetch(new Response('', { status: 503, statusText: 'Service Unavailable' }));
    const error = await apiRequest('GET', '/api/x').catch((e: unknown) => e);
    expect((error as Error).message).toBe('503: Service Unavailable');
  });
});

describe('getQueryFn', () => {
  it('GETs the joined query key and parses JSON', async () => {
    const calls = stubFetch(new Response('{"ok":true}', { status: 200 }));
    const fn = getQueryFn<{ ok: boolean }>({ on401: 'throw' });
    await expect(fn(queryContext(['/api/admin/users', '42']))).resolves.toEqual({ ok: true });
    expect(calls[0]![0]).toBe('/api/admin/users/42');
    expect(calls[0]![1]?.credentials).toBe('include');
  });

  it('answers null on 401 with returnNull', async () => {
    stubFetch(new Response('{"message":"Not authenticated"}', { status: 401 }));
    await expect(getQueryFn({ on401: 'returnNull' })(queryContext(['/api/user']))).resolves.toBeNull();
  });

  it('throws on 401 with throw', async () => {
    stubFetch(new Response('{"message":"Not authenticated"}', { status: 401 }));
    await expect(getQueryFn({ on401: 'throw' })(queryContext(['/api/user']))).rejects.toThrow(
      '401: {"message":"Not authenticated"}',
    );
  });
});

describe('parseApiError', () => {
  it('reads a plain Error built from the message alone', () => {
    expect(parseApiError(new Error('400: {"message":"Bad input"}'))).toEqual({
      status: 400,
      message: 'Bad input',
      data: { message: 'Bad input' },
    });
  });

  it('keeps a plain-text body as the message and ignores HTML pages', () => {
    expect(parseApiError(new Error('502: Bad Gateway')).message).toBe('Bad Gateway');
    expect(parseApiError(new Error('502: <html><body>nginx</body></html>')).message).toBeUndefined();
  });

  it('passes a network error message through', () => {
    expect(getErrorMessage(new TypeError('Failed to fetch'), 'fallback')).toBe('Failed to fetch');
    expect(getErrorMessage(undefined, 'fallback')).toBe('fallback');
  });
});

describe('createQueryClient', () => {
  it('applies the query defaults (no retry, refetch, polling; never stale) and the user query rules', async () => {
    const { createQueryClient, USER_QUERY_KEY, USER_STALE_TIME } = await import('@/lib/query-client');
    const client = createQueryClient();
    const defaults = client.getDefaultOptions().queries;
    expect(defaults?.retry).toBe(false);
    expect(defaults?.refetchOnWindowFocus).toBe(false);
    expect(defaults?.refetchInterval).toBe(false);
    expect(defaults?.staleTime).toBe(Number.POSITIVE_INFINITY);
    expect(client.getQueryDefaults(USER_QUERY_KEY).staleTime).toBe(USER_STALE_TIME);
    expect(USER_STALE_TIME).toBe(300_000);

    stubFetch(new Response('{"message":"Not authenticated"}', { status: 401 }));
    await expect(client.fetchQuery({ queryKey: USER_QUERY_KEY })).resolves.toBeNull();
  });
});
