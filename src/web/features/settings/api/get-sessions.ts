import type { SessionInfo } from '@shared/auth';
import { useQuery } from '@tanstack/react-query';

export const sessionsQueryKey = ['/api/user/sessions'] as const;

/** The caller's sessions, the current one flagged; the default query function GETs the key's path. */
export function useSessions() {
  return useQuery<SessionInfo[]>({ queryKey: sessionsQueryKey });
}
