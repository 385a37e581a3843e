import type { Health } from '@shared/health';
import { useQuery } from '@tanstack/react-query';
import { readHealth } from '../lib/system-status';

export interface HealthCheck {
  /** null when the server did not answer with a health body. */
  health: Health | null;
  checkedAt: string;
}

/** Checks again every minute while the page is open. */
export const HEALTH_REFRESH_MS = 60_000;

/**
 * GET /api/health. Its 503 carries the same body as its 200, and a failed request is itself the news,
 * so neither is thrown: both become a result the page shows.
 */
async function fetchHealth(signal: AbortSignal): Promise<HealthCheck> {
  try {
    const res = await fetch('/api/health', { cache: 'no-store', signal });
    const body: unknown = await res.json().catch(() => null);
    return { health: readHealth(body), checkedAt: new Date().toISOString() };
  } catch (error) {
    if (signal.aborted) throw error;
    return { health: null, checkedAt: new Date().toISOString() };
  }
}

export function useHealth() {
  return useQuery<HealthCheck>({
    queryKey: ['/api/health'],
    queryFn: ({ signal }) => fetchHealth(signal),
    refetchInterval: HEALTH_REFRESH_MS,
    retry: false,
  });
}
