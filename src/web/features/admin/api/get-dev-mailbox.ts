import type { DevMail, DevMailSummary } from '@shared/admin';
import { useQuery } from '@tanstack/react-query';
import { getJson } from '@/lib/http';

export const devMailboxQueryKey = ['/api/admin/dev-mailbox'] as const;

/** Auto-refresh applies to this list only (the app's queries never poll by default). */
export const DEV_MAILBOX_REFRESH_MS = 5_000;

export function useDevMailbox() {
  return useQuery<DevMailSummary[]>({
    queryKey: devMailboxQueryKey,
    refetchInterval: DEV_MAILBOX_REFRESH_MS,
  });
}

export function useDevMail(id: string | null) {
  return useQuery<DevMail>({
    queryKey: [...devMailboxQueryKey, id],
    queryFn: ({ signal }) =>
      getJson<DevMail>(`/api/admin/dev-mailbox/${encodeURIComponent(id ?? '')}`, signal),
    enabled: Boolean(id),
  });
}
