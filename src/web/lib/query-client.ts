import { QueryClient } from '@tanstack/react-query';

import { getQueryFn } from '@/lib/api';

/** The current-user query key; the user query answers null when signed out. */
export const USER_QUERY_KEY = ['/api/user'] as const;

/** The user is cached 5 minutes. */
export const USER_STALE_TIME = 5 * 60 * 1000;

/** Default queries never retry, never refetch on focus, never poll and are never stale. */
export function createQueryClient(): QueryClient {
  const client = new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Number.POSITIVE_INFINITY,
        retry: false,
      },
      mutations: {
        retry: false,
      },
    },
  });
  // Whoever reads ['/api/user'] gets the same rules: a 401 is silent (null), 5 minutes, no retry.
  client.setQueryDefaults(USER_QUERY_KEY, {
    queryFn: getQueryFn({ on401: 'returnNull' }),
    staleTime: USER_STALE_TIME,
    retry: false,
  });
  return client;
}

export const queryClient = createQueryClient();
