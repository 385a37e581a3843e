import type { CurrencyCode } from '@shared/currency';
import type {
  InboxCategory,
  InboxCounts,
  InboxFilters,
  InboxItem,
  InboxPage,
  InboxQuery,
  InboxThread,
  InboxUpdate,
  ThreadEntry,
} from '@shared/inbox';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { buildQueryString, getJson } from '@/lib/http';

/*
 * The inbox API as the browser reads it: the list, its counts (the account menu's unread badge), the
 * filters' choices, a conversation, and the changes a user makes to a message.
 */

export type { InboxCounts, InboxFilters, InboxItem, InboxPage, InboxThread, ThreadEntry };

export const INBOX_KEY = ['/api/inbox'] as const;

export type InboxListParams = Partial<Omit<InboxQuery, 'limit'>>;

export function useInboxList(params: InboxListParams) {
  return useQuery<InboxPage>({
    queryKey: [...INBOX_KEY, 'list', params],
    queryFn: ({ signal }) =>
      getJson<InboxPage>(`/api/inbox${buildQueryString({ ...params, limit: 30 })}`, signal),
    placeholderData: keepPreviousData,
  });
}

/** The unread count, refreshed every minute while the app is open. */
export function useInboxCounts(enabled = true) {
  return useQuery<InboxCounts>({
    queryKey: [...INBOX_KEY, 'counts'],
    queryFn: ({ signal }) => getJson<InboxCounts>('/api/inbox/counts', signal),
    refetchInterval: 60_000,
    enabled,
  });
}

export function useInboxFilters() {
  return useQuery<InboxFilters>({
    queryKey: [...INBOX_KEY, 'filters'],
    queryFn: ({ signal }) => getJson<InboxFilters>('/api/inbox/filters', signal),
  });
}

export function useInboxThread(id: string | null) {
  return useQuery<InboxThread>({
    queryKey: [...INBOX_KEY, 'thread', id],
    queryFn: ({ signal }) => getJson<InboxThread>(`/api/inbox/${encodeURIComponent(id ?? '')}`, signal),
    enabled: Boolean(id),
  });
}

export function useUpdateInboxMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, update }: { id: string; update: InboxUpdate }): Promise<InboxItem> => {
      const res = await apiRequest('PATCH', `/api/inbox/${encodeURIComponent(id)}`, update);
      return (await res.json()) as InboxItem;
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: INBOX_KEY });
    },
  });
}

export function useSendInboxReply(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (text: string): Promise<ThreadEntry> => {
      const res = await apiRequest('POST', `/api/inbox/${encodeURIComponent(id)}/reply`, { text });
      return (await res.json()) as ThreadEntry;
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: INBOX_KEY });
    },
  });
}

export function useSaveSignature() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ accountId, signature }: { accountId: string; signature: string | null }) => {
      await apiRequest('PUT', `/api/inbox/signatures/${encodeURIComponent(accountId)}`, { signature });
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: [...INBOX_KEY, 'thread'] });
      // The account's settings form shows the same signature.
      void queryClient.invalidateQueries({ queryKey: ['/api/sender-accounts'], exact: true });
    },
  });
}

/** "Mark as won" on the contact of the conversation, as the campaign page does. */
export function useMarkInboxWon() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: {
      campaignId: string;
      contactId: string;
      won: { dealValue: number; currency: CurrencyCode } | null;
    }) => {
      const path = `/api/campaigns/${encodeURIComponent(input.campaignId)}/contacts/${encodeURIComponent(input.contactId)}/won`;
      if (input.won) await apiRequest('POST', path, input.won);
      else await apiRequest('DELETE', path);
    },
    onSuccess: (_data, input) => {
      void queryClient.invalidateQueries({ queryKey: INBOX_KEY });
      void queryClient.invalidateQueries({ queryKey: ['/api/campaigns', input.campaignId] });
    },
  });
}

/** Whether an AI provider is configured (the category suggestion is offered only then). */
export function useAiConfigured() {
  return useQuery<{ configured: boolean }>({ queryKey: ['/api/ai/status'] }).data?.configured ?? false;
}

export function useSuggestCategory(id: string) {
  return useMutation({
    mutationFn: async (): Promise<{ category: InboxCategory | null }> => {
      const res = await apiRequest('POST', `/api/inbox/${encodeURIComponent(id)}/suggest-category`);
      return (await res.json()) as { category: InboxCategory | null };
    },
  });
}
