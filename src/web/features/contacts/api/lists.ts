import type {
  ContactList,
  contactListsSchema,
  createListContactSchema,
  createListSchema,
  ListContact,
  listContactsPageSchema,
  recycleBinSchema,
  updateListSchema,
} from '@shared/lists';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '@/lib/api';
import { buildQueryString, getJson } from '@/lib/http';

export type ContactLists = z.infer<typeof contactListsSchema>;
export type RecycleBin = z.infer<typeof recycleBinSchema>;
export type DeletedList = RecycleBin['lists'][number];
export type ListContactsPage = z.infer<typeof listContactsPageSchema>;
export type CreateListInput = z.input<typeof createListSchema>;
export type UpdateListInput = z.input<typeof updateListSchema>;
export type ListContactInput = z.input<typeof createListContactSchema>;

/** Every list query (index, details, members, recycle bin) sits under this prefix. */
export const listsQueryKey = ['/api/lists'] as const;

export const listPath = (id: string) => `/api/lists/${encodeURIComponent(id)}`;

export function useLists() {
  return useQuery<ContactLists>({ queryKey: listsQueryKey, staleTime: 30_000 });
}

export function useList(id: string) {
  return useQuery<ContactList>({ queryKey: [...listsQueryKey, id], enabled: Boolean(id) });
}

export function useRecycleBin(enabled = true) {
  return useQuery<RecycleBin>({
    queryKey: [...listsQueryKey, 'recycle-bin'],
    queryFn: ({ signal }) => getJson('/api/lists/recycle-bin', signal),
    enabled,
  });
}

export function useListContacts(id: string, params: { q: string; cursor: string | null; limit: number }) {
  const query = { q: params.q.trim(), cursor: params.cursor, limit: params.limit };
  return useQuery<ListContactsPage>({
    queryKey: [...listsQueryKey, id, 'contacts', query],
    queryFn: ({ signal }) => getJson(`${listPath(id)}/contacts${buildQueryString(query)}`, signal),
    placeholderData: keepPreviousData,
  });
}

function useListMutation<TInput, TResult>(run: (input: TInput) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: listsQueryKey }),
  });
}

export function useCreateList() {
  return useListMutation(async (input: CreateListInput): Promise<ContactList> => {
    const res = await apiRequest('POST', '/api/lists', input);
    return (await res.json()) as ContactList;
  });
}

export function useUpdateList() {
  return useListMutation(async ({ id, ...input }: UpdateListInput & { id: string }): Promise<ContactList> => {
    const res = await apiRequest('PATCH', listPath(id), input);
    return (await res.json()) as ContactList;
  });
}

export function useDeleteList() {
  return useListMutation(async (id: string): Promise<void> => {
    await apiRequest('DELETE', listPath(id));
  });
}

export function useRestoreList() {
  return useListMutation(async (id: string): Promise<ContactList> => {
    const res = await apiRequest('POST', `${listPath(id)}/restore`);
    return (await res.json()) as ContactList;
  });
}

export function useDeleteListForever() {
  return useListMutation(async (id: string): Promise<void> => {
    await apiRequest('DELETE', `${listPath(id)}/permanent`);
  });
}

export function useAddListContact(listId: string) {
  return useListMutation(async (input: ListContactInput): Promise<ListContact> => {
    const res = await apiRequest('POST', `${listPath(listId)}/contacts`, input);
    return (await res.json()) as ListContact;
  });
}

export function useUpdateListContact(listId: string) {
  return useListMutation(
    async ({ id, ...input }: Partial<ListContactInput> & { id: number }): Promise<ListContact> => {
      const res = await apiRequest('PATCH', `${listPath(listId)}/contacts/${id}`, input);
      return (await res.json()) as ListContact;
    },
  );
}

export function useRemoveListContacts(listId: string) {
  return useListMutation(async (ids: number[]): Promise<{ removed: number }> => {
    const res = await apiRequest('DELETE', `${listPath(listId)}/contacts`, { ids });
    return (await res.json()) as { removed: number };
  });
}

export const listExportUrl = (id: string) => `${listPath(id)}/export.csv`;
