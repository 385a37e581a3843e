import type { MyAssignment } from '@shared/data-entry';
import type {
  CreateDirectoryContactInput,
  DirectoryContact,
  dataEntryStatsSchema,
  directoryContactPageSchema,
} from '@shared/directory';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '@/lib/api';
import { buildQueryString, getJson } from '@/lib/http';

export type DataEntryStats = z.infer<typeof dataEntryStatsSchema>;
export type DirectoryPage = z.infer<typeof directoryContactPageSchema>;

export const dataEntryKey = ['/api/data-entry'] as const;
export const CONTACTS_PATH = '/api/data-entry/contacts';

/** The officer's own counts; "today" is today in the browser's time zone. */
export function useDataEntryStats() {
  const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return useQuery<DataEntryStats>({
    queryKey: [...dataEntryKey, 'stats', tz],
    queryFn: ({ signal }) => getJson(`/api/data-entry/stats${buildQueryString({ tz })}`, signal),
    staleTime: 0,
  });
}

export const QUEUE_PAGE_SIZE = 25;

/** Unverified contacts, oldest first, page after page as the officer works through them. */
export function useVerificationQueue() {
  return useInfiniteQuery<DirectoryPage>({
    queryKey: [...dataEntryKey, 'queue'],
    queryFn: ({ pageParam, signal }) =>
      getJson(
        `/api/data-entry/queue${buildQueryString({ cursor: pageParam as string | null, limit: QUEUE_PAGE_SIZE })}`,
        signal,
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    staleTime: 0,
  });
}

export function useCreateDirectoryContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: CreateDirectoryContactInput): Promise<DirectoryContact> => {
      const res = await apiRequest('POST', CONTACTS_PATH, input);
      return (await res.json()) as DirectoryContact;
    },
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: [...dataEntryKey, 'stats'] });
      queryClient.invalidateQueries({ queryKey: [...dataEntryKey, 'assignment'] });
    },
  });
}

export function useVerifyContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      id,
      ...body
    }: {
      id: string;
      status: 'verified' | 'invalid';
      reason?: string | null;
    }): Promise<DirectoryContact> => {
      const res = await apiRequest('POST', `${CONTACTS_PATH}/${encodeURIComponent(id)}/verify`, body);
      return (await res.json()) as DirectoryContact;
    },
    // The queue itself is not refetched: the page hides what was handled and moves on without a jump.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...dataEntryKey, 'stats'] }),
  });
}

/** The officer's assignment (country, category, queue, quota) as a super admin set it. */
export function useMyAssignment() {
  return useQuery<MyAssignment>({
    queryKey: [...dataEntryKey, 'assignment'],
    queryFn: ({ signal }) => getJson('/api/data-entry/assignment', signal),
    staleTime: 60_000,
  });
}
