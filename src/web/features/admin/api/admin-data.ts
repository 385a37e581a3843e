import type { ContactLocations, ContactSearchResult, EraseResult, UserListPage } from '@shared/admin-data';
import type {
  DataEntryAssignment,
  OfficerList,
  OfficerQuality,
  ReviewInput,
  ReviewSample,
  UpdateAssignmentInput,
} from '@shared/data-entry';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { buildQueryString, getJson } from '@/lib/http';

/*
 * The admin data screens' requests: Contacts (search, lookup, erase), User Lists (list, freeze,
 * unfreeze) and Data Entry Management (officers, assignment, sample, review).
 */

export const DATA_REFRESH_MS = 30_000;
export const PAGE_SIZE = 25;

const contactsKey = ['/api/admin/contacts'] as const;
const userListsKey = ['/api/admin/user-lists'] as const;
const officersKey = ['/api/admin/data-entry'] as const;

async function postJson<T>(method: 'POST' | 'PUT', url: string, body?: unknown): Promise<T> {
  const res = await apiRequest(method, url, body);
  return (await res.json()) as T;
}

// --- Contacts ----------------------------------------------------------------------------------------

export function useContactSearch(q: string, mode: 'exact' | 'prefix') {
  return useQuery<ContactSearchResult>({
    queryKey: [...contactsKey, 'search', q, mode],
    queryFn: ({ signal }) => getJson(`/api/admin/contacts/search${buildQueryString({ q, mode })}`, signal),
    enabled: q.length > 0,
    placeholderData: keepPreviousData,
  });
}

export function useContactLookup(email: string | null) {
  return useQuery<ContactLocations>({
    queryKey: [...contactsKey, 'lookup', email],
    queryFn: ({ signal }) => getJson(`/api/admin/contacts/lookup${buildQueryString({ email })}`, signal),
    enabled: Boolean(email),
  });
}

export function useEraseContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { email: string; confirm: string }) =>
      postJson<EraseResult>('POST', '/api/admin/contacts/erase', input),
    onSettled: () => queryClient.invalidateQueries({ queryKey: contactsKey }),
  });
}

// --- User Lists --------------------------------------------------------------------------------------

export interface UserListFilters {
  search?: string;
  frozen?: 'true' | 'false';
  cursor?: string;
}

export function useUserLists(filters: UserListFilters) {
  return useQuery<UserListPage>({
    queryKey: [...userListsKey, filters],
    queryFn: ({ signal }) =>
      getJson(`/api/admin/user-lists${buildQueryString({ ...filters, limit: PAGE_SIZE })}`, signal),
    placeholderData: keepPreviousData,
    refetchInterval: DATA_REFRESH_MS,
  });
}

export function useListFreeze() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (target: { id: string; action: 'freeze' | 'unfreeze'; reason?: string }) =>
      postJson<{ message: string }>(
        'POST',
        `/api/admin/user-lists/${target.id}/${target.action}`,
        target.action === 'freeze' ? { reason: target.reason } : undefined,
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: userListsKey }),
  });
}

// --- Data Entry Management ---------------------------------------------------------------------------

export function useOfficers(cursor: string | undefined) {
  return useQuery<OfficerList>({
    queryKey: [...officersKey, 'officers', cursor],
    queryFn: ({ signal }) =>
      getJson(`/api/admin/data-entry/officers${buildQueryString({ cursor, limit: PAGE_SIZE })}`, signal),
    placeholderData: keepPreviousData,
    refetchInterval: DATA_REFRESH_MS,
  });
}

export function useUpdateAssignment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { officerId: string; assignment: UpdateAssignmentInput }) =>
      postJson<DataEntryAssignment>(
        'PUT',
        `/api/admin/data-entry/officers/${input.officerId}/assignment`,
        input.assignment,
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: officersKey }),
  });
}

export function useReviewSample(officerId: string | null) {
  return useQuery<ReviewSample>({
    queryKey: [...officersKey, 'sample', officerId],
    queryFn: ({ signal }) => getJson(`/api/admin/data-entry/officers/${officerId}/sample?size=10`, signal),
    enabled: Boolean(officerId),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useReviewRecord(officerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ReviewInput) =>
      postJson<OfficerQuality>('POST', `/api/admin/data-entry/officers/${officerId}/reviews`, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...officersKey, 'officers'] }),
  });
}
