import type { AiStatus } from '@shared/ai';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';

export const AI_STATUS_KEY = ['/api/ai/status'] as const;

/** Whether AI writing is connected, and how many of today's generations are left. */
export function useAiStatus(enabled = true) {
  return useQuery<AiStatus>({ queryKey: AI_STATUS_KEY, staleTime: 30_000, enabled });
}

/** Refreshes the usage count after a generation (or a refusal). */
export function useRefreshAiStatus() {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: AI_STATUS_KEY }), [queryClient]);
}
