import { throwIfResNotOk } from '@/lib/api';

/** A GET with the session cookie that raises the app's API error on a non-OK answer. */
export async function getJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  const res = await fetch(url, { credentials: 'include', signal });
  await throwIfResNotOk(res);
  return (await res.json()) as T;
}

export type QueryValue = string | number | boolean | undefined | null | readonly (string | number)[];

/**
 * `?a=1&b=x`: empty values are left out, `false` too (a filter that is off is no filter), and an array
 * becomes one comma-joined value (`country=NG,GH`).
 */
export function buildQueryString(params: Record<string, QueryValue>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '' || value === false) continue;
    if (Array.isArray(value)) {
      if (value.length > 0) search.set(key, value.join(','));
      continue;
    }
    search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
