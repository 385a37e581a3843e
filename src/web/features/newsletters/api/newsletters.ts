import type { AdminNewsletterDetail, AdminNewsletterListItem } from '@shared/admin-campaigns';
import type {
  NewsletterProgress,
  NewsletterRecipientPage,
  NewsletterReport,
} from '@shared/newsletter-report';
import type {
  Newsletter,
  NewsletterArchive,
  NewsletterCreateInput,
  NewsletterKind,
  NewsletterUpdateInput,
} from '@shared/newsletters';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, throwIfResNotOk } from '@/lib/api';

export const newslettersKey = ['/api/newsletters'] as const;
const path = (id: string) => `/api/newsletters/${encodeURIComponent(id)}`;

export function useNewsletters(kind: NewsletterKind) {
  return useQuery<Newsletter[]>({
    queryKey: [...newslettersKey, { kind }],
    queryFn: async ({ signal }) => {
      const res = await fetch(`/api/newsletters?kind=${kind}`, { credentials: 'include', signal });
      await throwIfResNotOk(res);
      return (await res.json()) as Newsletter[];
    },
  });
}

export function useNewsletter(id: string | undefined) {
  return useQuery<Newsletter>({ queryKey: [...newslettersKey, id ?? ''], enabled: Boolean(id) });
}

async function json<T>(method: string, url: string, body?: unknown): Promise<T> {
  const res = await apiRequest(method, url, body);
  return (await res.json()) as T;
}

function useNewsletterMutation<TInput, TResult>(run: (input: TInput) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: newslettersKey }),
  });
}

export const useCreateNewsletter = () =>
  useNewsletterMutation((input: NewsletterCreateInput) =>
    json<Newsletter>('POST', '/api/newsletters', input),
  );

export function useUpdateNewsletter() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...input }: NewsletterUpdateInput & { id: string }) =>
      json<Newsletter>('PATCH', path(id), input),
    onSuccess: (saved) => {
      // The editor reloads from this right away: give it the saved version, not the one before.
      queryClient.setQueryData([...newslettersKey, saved.id], saved);
      return queryClient.invalidateQueries({ queryKey: newslettersKey });
    },
  });
}

export const useDeleteNewsletter = () =>
  useNewsletterMutation(async (id: string) => {
    await apiRequest('DELETE', path(id));
  });

export const useDuplicateNewsletter = () =>
  useNewsletterMutation((id: string) => json<Newsletter>('POST', `${path(id)}/duplicate`));

export interface SendTargets {
  listIds: string[];
  /** At most one per list, narrowing it. */
  segmentIds: string[];
  senderAccountIds: string[];
}

export const useSendNewsletter = () =>
  useNewsletterMutation(({ id, ...body }: SendTargets & { id: string }) =>
    json<Newsletter>('POST', `${path(id)}/send`, body),
  );

export const useScheduleNewsletter = () =>
  useNewsletterMutation(({ id, ...body }: SendTargets & { id: string; scheduledAt: string }) =>
    json<Newsletter>('POST', `${path(id)}/schedule`, body),
  );

export const useUnscheduleNewsletter = () =>
  useNewsletterMutation((id: string) => json<Newsletter>('POST', `${path(id)}/unschedule`));

/** A send paused for the user: on again, or ended (POST /api/newsletters/:id/resume | stop). */
export function useNewsletterSendAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: 'resume' | 'stop' }) =>
      json<Newsletter>('POST', `${path(id)}/${action}`),
    onSuccess: (saved) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: newslettersKey }),
        queryClient.invalidateQueries({ queryKey: ['newsletter-progress', saved.id] }),
        queryClient.invalidateQueries({ queryKey: ['newsletter-report', saved.id] }),
      ]),
  });
}

export const useTestSendNewsletter = () =>
  useMutation({
    mutationFn: ({ id, ...body }: { id: string; senderAccountId: string; to?: string; asContact?: string }) =>
      json<{ ok: true; warnings: string[] }>('POST', `${path(id)}/test-send`, body),
  });

/** Uploads an image for an image block; answers its public URL. */
export async function uploadNewsletterImage(file: File): Promise<string> {
  const form = new FormData();
  form.append('file', file);
  const res = await fetch('/api/newsletters/images', { method: 'POST', body: form, credentials: 'include' });
  await throwIfResNotOk(res);
  return ((await res.json()) as { url: string }).url;
}

// Super admin twins (served by the admin campaigns feature).
export const adminNewslettersKey = ['/api/admin/newsletters'] as const;

export function useAdminNewsletters(params: { q: string; status: string; kind: string }) {
  return useQuery<{ items: AdminNewsletterListItem[]; nextCursor: string | null }>({
    queryKey: [...adminNewslettersKey, params],
    queryFn: async ({ signal }) => {
      const search = new URLSearchParams();
      if (params.q.trim()) search.set('q', params.q.trim());
      if (params.status) search.set('status', params.status);
      if (params.kind) search.set('kind', params.kind);
      search.set('limit', '100');
      const res = await fetch(`/api/admin/newsletters?${search}`, { credentials: 'include', signal });
      await throwIfResNotOk(res);
      return (await res.json()) as { items: AdminNewsletterListItem[]; nextCursor: string | null };
    },
  });
}

export function useAdminNewsletter(id: string | undefined) {
  return useQuery<AdminNewsletterDetail>({
    queryKey: [...adminNewslettersKey, id ?? ''],
    enabled: Boolean(id),
  });
}

export function useCancelScheduledNewsletter() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      json<AdminNewsletterDetail>('POST', `/api/admin/newsletters/${encodeURIComponent(id)}/cancel`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminNewslettersKey }),
  });
}

/**
 * Sending progress, polled every 1.5 s while `active` (a send request in flight, or the newsletter is
 * 'sending'); the newsletter itself is refreshed once it turns 'sent'.
 */
export function useNewsletterProgress(id: string, active: boolean) {
  const queryClient = useQueryClient();
  return useQuery<NewsletterProgress>({
    // Outside newslettersKey: refreshing the newsletters must not refetch this in a loop.
    queryKey: ['newsletter-progress', id],
    queryFn: async ({ signal }) => {
      const res = await fetch(`${path(id)}/progress`, { credentials: 'include', signal });
      await throwIfResNotOk(res);
      const progress = (await res.json()) as NewsletterProgress;
      const before = queryClient.getQueryData<NewsletterProgress>(['newsletter-progress', id]);
      const paused = before !== undefined && progress.paused !== before.paused;
      if ((progress.status === 'sent' && before?.status !== 'sent') || paused) {
        void queryClient.invalidateQueries({ queryKey: newslettersKey });
      }
      return progress;
    },
    enabled: active,
    // A paused send moves only when it is resumed (here or elsewhere): looked at less often.
    refetchInterval: (query) => {
      const data = query.state.data;
      if (data?.status === 'sent') return false;
      return data?.paused ? 10_000 : 1500;
    },
  });
}

export function useNewsletterReport(id: string | undefined) {
  return useQuery<NewsletterReport>({
    queryKey: ['newsletter-report', id ?? ''],
    queryFn: async ({ signal }) => {
      const res = await fetch(`${path(id!)}/report`, { credentials: 'include', signal });
      await throwIfResNotOk(res);
      return (await res.json()) as NewsletterReport;
    },
    enabled: Boolean(id),
    // Figures grow while it goes out.
    refetchInterval: (query) => (query.state.data?.status === 'sending' ? 5000 : false),
  });
}

export function useNewsletterRecipients(
  id: string | undefined,
  params: { page: number; pageSize: number; q: string; after?: string; version?: string },
) {
  return useQuery<NewsletterRecipientPage>({
    queryKey: ['newsletter-report', id ?? '', 'recipients', params],
    queryFn: async ({ signal }) => {
      const search = new URLSearchParams({ page: String(params.page), pageSize: String(params.pageSize) });
      if (params.q.trim()) search.set('q', params.q.trim());
      if (params.after !== undefined) search.set('after', params.after);
      const res = await fetch(`${path(id!)}/report/recipients?${search}`, { credentials: 'include', signal });
      await throwIfResNotOk(res);
      return (await res.json()) as NewsletterRecipientPage;
    },
    enabled: Boolean(id),
    placeholderData: keepPreviousData,
  });
}

export const newsletterReportCsvUrl = (id: string) => `${path(id)}/report.csv`;

export const newsletterArchiveKey = ['/api/newsletter-archive'] as const;

export function useNewsletterArchive() {
  return useQuery<NewsletterArchive>({ queryKey: newsletterArchiveKey });
}

function useArchiveMutation<TInput>(run: (input: TInput) => Promise<NewsletterArchive>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: (saved) => queryClient.setQueryData(newsletterArchiveKey, saved),
  });
}

export const useSetNewsletterArchive = () =>
  useArchiveMutation((enabled: boolean) =>
    json<NewsletterArchive>('PUT', '/api/newsletter-archive', { enabled }),
  );

export const useRegenerateNewsletterArchive = () =>
  useArchiveMutation(() => json<NewsletterArchive>('POST', '/api/newsletter-archive/regenerate'));
