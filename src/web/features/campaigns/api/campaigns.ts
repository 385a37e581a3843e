import type {
  AdminCampaignDetail,
  AdminCampaignListItem,
  adminCampaignListSchema,
} from '@shared/admin-campaigns';
import type {
  CampaignContactItem,
  CampaignContactPage,
  CampaignReply,
  CampaignStats,
  Counts,
  TimelineEntry,
} from '@shared/campaign-stats';
import type { Campaign, CampaignListItem, CampaignSettingsInput, CampaignStep } from '@shared/campaigns';
import { CURRENCY_CODES, type CurrencyCode } from '@shared/currency';
import type { PrelaunchItem, PrelaunchReport } from '@shared/personalize';
import type { CampaignContactStatus, CampaignStatus } from '@shared/sending';
import {
  keepPreviousData,
  type QueryClient,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '@/lib/api';
import { buildQueryString, getJson } from '@/lib/http';

/*
 * The campaigns API as the browser reads it (issue #5 contract: [CORE] campaigns, [STATS] the campaign
 * page's numbers, [PERS] the pre-launch report). The steps screens add their own hooks in ./steps.ts and
 * share the query keys below, so a change on one screen refreshes the others.
 */

export type {
  AdminCampaignDetail,
  AdminCampaignListItem,
  Campaign,
  CampaignListItem,
  CampaignReply,
  CampaignStats,
  CampaignStep,
  Counts,
  PrelaunchItem,
  PrelaunchReport,
  TimelineEntry,
};
export type CampaignVariant = CampaignStep['variants'][number];
export type CampaignContactRow = CampaignContactItem;
export type CampaignContactsPage = CampaignContactPage;
export type AdminCampaignsPage = z.infer<typeof adminCampaignListSchema>;

export const DEAL_CURRENCIES = CURRENCY_CODES;
export type DealCurrency = CurrencyCode;

/** What a template gives a new campaign (GET /api/templates/:id, [TPL]). */
export interface TemplateSummary {
  id: string;
  name: string;
  subject: string;
  bodyHtml: string;
  category: string;
  kind: string;
}

// ---------------------------------------------------------------------------------------------------
// Query keys (shared with the steps screens)

export const campaignsQueryKey = ['/api/campaigns'] as const;
export const campaignQueryKey = (id: string) => ['/api/campaigns', id] as const;
export const adminCampaignsQueryKey = ['/api/admin/campaigns'] as const;

export const campaignPath = (id: string) => `/api/campaigns/${encodeURIComponent(id)}`;
const adminCampaignPath = (id: string) => `/api/admin/campaigns/${encodeURIComponent(id)}`;

// ---------------------------------------------------------------------------------------------------
// Reads

export function useCampaigns(params: { archived: boolean }) {
  return useQuery<CampaignListItem[]>({
    queryKey: [...campaignsQueryKey, 'list', params],
    queryFn: ({ signal }) =>
      getJson(`/api/campaigns${buildQueryString({ archived: params.archived ? 'true' : 'false' })}`, signal),
    placeholderData: keepPreviousData,
  });
}

/** A running campaign changes under the user's eyes; its page refreshes while it sends. */
const LIVE_REFRESH_MS = 15_000;
const isLive = (status: CampaignStatus | undefined) => status === 'active' || status === 'scheduled';

export function useCampaign(id: string) {
  return useQuery<Campaign>({
    queryKey: campaignQueryKey(id),
    enabled: Boolean(id),
    refetchInterval: (query) => (isLive(query.state.data?.status) ? LIVE_REFRESH_MS : false),
  });
}

export function useCampaignStats(id: string, live: boolean, enabled = true) {
  return useQuery<CampaignStats>({
    queryKey: [...campaignQueryKey(id), 'stats'],
    enabled: Boolean(id) && enabled,
    refetchInterval: live ? LIVE_REFRESH_MS : false,
  });
}

export function useCampaignContacts(
  id: string,
  params: { status?: CampaignContactStatus; q: string; cursor: string | null; limit: number },
  enabled = true,
) {
  const query = { status: params.status, q: params.q.trim(), cursor: params.cursor, limit: params.limit };
  return useQuery<CampaignContactsPage>({
    queryKey: [...campaignQueryKey(id), 'contacts', query],
    queryFn: ({ signal }) => getJson(`${campaignPath(id)}/contacts${buildQueryString(query)}`, signal),
    placeholderData: keepPreviousData,
    enabled: Boolean(id) && enabled,
  });
}

export function useContactTimeline(id: string, contactId: string | null) {
  return useQuery<TimelineEntry[]>({
    queryKey: [...campaignQueryKey(id), 'contacts', contactId ?? '', 'timeline'],
    enabled: Boolean(id && contactId),
  });
}

export function useCampaignReplies(id: string, enabled = true) {
  return useQuery<CampaignReply[]>({
    queryKey: [...campaignQueryKey(id), 'replies'],
    enabled: Boolean(id) && enabled,
  });
}

export function usePrelaunchReport(id: string, enabled: boolean) {
  return useQuery<PrelaunchReport>({
    queryKey: [...campaignQueryKey(id), 'prelaunch'],
    enabled: Boolean(id) && enabled,
    // The report reads the steps, the audience and the senders' DNS: always fresh when opened.
    staleTime: 0,
  });
}

export function useTemplate(id: string | null) {
  return useQuery<TemplateSummary>({
    queryKey: ['/api/templates', id ?? ''],
    enabled: Boolean(id),
    staleTime: 5 * 60_000,
  });
}

// ---------------------------------------------------------------------------------------------------
// Writes

function refreshCampaigns(queryClient: QueryClient, id?: string) {
  void queryClient.invalidateQueries({ queryKey: campaignsQueryKey });
  void queryClient.invalidateQueries({ queryKey: adminCampaignsQueryKey });
  // The dashboard's counters and recent campaigns.
  void queryClient.invalidateQueries({
    predicate: (query) => typeof query.queryKey[0] === 'string' && query.queryKey[0].startsWith('/api/user/'),
  });
  if (id) void queryClient.invalidateQueries({ queryKey: campaignQueryKey(id) });
}

function storeCampaign(queryClient: QueryClient, campaign: Campaign) {
  queryClient.setQueryData(campaignQueryKey(campaign.id), campaign);
}

/**
 * Creates a campaign and, when it starts from a template, its first step from the template's subject
 * and body. Should the step fail, the campaign stays a draft the user can finish on the steps page.
 */
export function useCreateCampaign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      settings,
      template,
    }: {
      settings: CampaignSettingsInput;
      template?: Pick<TemplateSummary, 'subject' | 'bodyHtml'> | null;
    }): Promise<{ campaign: Campaign; stepError: unknown }> => {
      const campaign = (await (await apiRequest('POST', '/api/campaigns', settings)).json()) as Campaign;
      let stepError: unknown = null;
      if (template) {
        try {
          await apiRequest('POST', `${campaignPath(campaign.id)}/steps`, {
            delayDays: 0,
            delayHours: 0,
            businessDays: false,
            condition: 'always',
            winnerRule: null,
            variants: [
              { key: 'A', subject: template.subject, bodyHtml: template.bodyHtml, splitPercent: 100 },
            ],
          });
        } catch (error) {
          stepError = error;
        }
      }
      return { campaign, stepError };
    },
    onSuccess: ({ campaign }) => {
      refreshCampaigns(queryClient, campaign.id);
    },
  });
}

export function useUpdateCampaign(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (patch: Partial<CampaignSettingsInput>): Promise<Campaign> =>
      (await (await apiRequest('PATCH', campaignPath(id), patch)).json()) as Campaign,
    onSuccess: (campaign) => {
      storeCampaign(queryClient, campaign);
      refreshCampaigns(queryClient, id);
    },
  });
}

export const CAMPAIGN_ACTIONS = [
  'launch',
  'pause',
  'resume',
  'stop',
  'archive',
  'unarchive',
  'duplicate',
] as const;
export type CampaignAction = (typeof CAMPAIGN_ACTIONS)[number];

/** pause / resume / stop / archive / unarchive / launch answer the campaign; duplicate answers the copy. */
export function useCampaignAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, action }: { id: string; action: CampaignAction }): Promise<Campaign> =>
      (await (await apiRequest('POST', `${campaignPath(id)}/${action}`)).json()) as Campaign,
    onSuccess: (campaign, { id, action }) => {
      if (action !== 'duplicate') storeCampaign(queryClient, campaign);
      refreshCampaigns(queryClient, id);
    },
  });
}

export function useDeleteCampaign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string): Promise<void> => {
      await apiRequest('DELETE', campaignPath(id));
    },
    onSuccess: (_, id) => {
      queryClient.removeQueries({ queryKey: campaignQueryKey(id) });
      refreshCampaigns(queryClient);
    },
  });
}

export function useMarkWon(campaignId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      contactId,
      won,
    }: {
      contactId: string;
      won: { dealValue: number; currency: DealCurrency } | null;
    }): Promise<void> => {
      const path = `${campaignPath(campaignId)}/contacts/${encodeURIComponent(contactId)}/won`;
      if (won) await apiRequest('POST', path, won);
      else await apiRequest('DELETE', path);
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: campaignQueryKey(campaignId) });
    },
  });
}

// ---------------------------------------------------------------------------------------------------
// Admin twins

export function useAdminCampaigns(params: {
  q: string;
  status?: CampaignStatus;
  userId?: string;
  cursor: string | null;
}) {
  const query = { q: params.q.trim(), status: params.status, userId: params.userId, cursor: params.cursor };
  return useQuery<AdminCampaignsPage>({
    queryKey: [...adminCampaignsQueryKey, 'list', query],
    queryFn: ({ signal }) => getJson(`/api/admin/campaigns${buildQueryString(query)}`, signal),
    placeholderData: keepPreviousData,
  });
}

export function useAdminCampaign(id: string) {
  return useQuery<AdminCampaignDetail>({
    queryKey: [...adminCampaignsQueryKey, id],
    enabled: Boolean(id),
    refetchInterval: (query) => (isLive(query.state.data?.status) ? LIVE_REFRESH_MS : false),
  });
}

export function useAdminCampaignAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, action }: { id: string; action: 'pause' | 'stop' }): Promise<unknown> =>
      (await apiRequest('POST', `${adminCampaignPath(id)}/${action}`)).json(),
    onSuccess: (_, { id }) => {
      void queryClient.invalidateQueries({ queryKey: adminCampaignsQueryKey });
      void queryClient.invalidateQueries({ queryKey: campaignQueryKey(id) });
    },
  });
}
