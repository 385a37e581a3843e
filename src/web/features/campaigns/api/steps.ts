import type { StepInput, VariantKey } from '@shared/campaigns';
import type { ContactList, ListContact } from '@shared/lists';
import type { PersonalizePreview, TestSendResult } from '@shared/personalize';
import type { SenderAccount } from '@shared/sending';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { buildQueryString, getJson } from '@/lib/http';
import {
  type Campaign,
  type CampaignStep,
  campaignPath,
  campaignQueryKey,
  campaignsQueryKey,
} from './campaigns';

/*
 * The steps page and the step editor ([SWEB] of issue #5): step writes ([CORE]), the preview as a
 * contact and the test send ([PERS]), and what the editor reads from other features over HTTP (the
 * audience lists' custom fields and members, the sender accounts).
 */

/** [PERS] the step rendered for one contact: subject, HTML, text part and what could not be filled. */
export type StepPreview = PersonalizePreview;

export interface PreviewRequest {
  stepId: string;
  variantKey: VariantKey;
  /** A contact of the audience by address; none: the sample contact. */
  email?: string;
  campaignContactId?: string;
  sample?: boolean;
}

const stepPath = (campaignId: string, stepId: string) =>
  `${campaignPath(campaignId)}/steps/${encodeURIComponent(stepId)}`;

/** Writes answer a step or the steps; the campaign (which holds them) and its lists refresh. */
function refreshSteps(queryClient: QueryClient, campaignId: string) {
  void queryClient.invalidateQueries({ queryKey: campaignQueryKey(campaignId) });
  void queryClient.invalidateQueries({ queryKey: campaignsQueryKey, exact: false });
}

/** Puts a saved step into the cached campaign at once, so a navigation shows it without a flash. */
function storeStep(queryClient: QueryClient, campaignId: string, step: CampaignStep) {
  queryClient.setQueryData<Campaign>(campaignQueryKey(campaignId), (campaign) => {
    if (!campaign) return campaign;
    const others = campaign.steps.filter((s) => s.id !== step.id);
    return { ...campaign, steps: [...others, step].sort((a, b) => a.position - b.position) };
  });
}

export function useCreateStep(campaignId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: StepInput): Promise<CampaignStep> =>
      (await (await apiRequest('POST', `${campaignPath(campaignId)}/steps`, input)).json()) as CampaignStep,
    onSuccess: (step) => {
      storeStep(queryClient, campaignId, step);
      refreshSteps(queryClient, campaignId);
    },
  });
}

export function useUpdateStep(campaignId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ stepId, input }: { stepId: string; input: StepInput }): Promise<CampaignStep> =>
      (await (await apiRequest('PUT', stepPath(campaignId, stepId), input)).json()) as CampaignStep,
    onSuccess: (step) => {
      storeStep(queryClient, campaignId, step);
      refreshSteps(queryClient, campaignId);
    },
  });
}

export function useDeleteStep(campaignId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (stepId: string): Promise<void> => {
      await apiRequest('DELETE', stepPath(campaignId, stepId));
    },
    onSuccess: () => refreshSteps(queryClient, campaignId),
  });
}

export function useReorderSteps(campaignId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (stepIds: string[]): Promise<CampaignStep[]> =>
      (await (
        await apiRequest('POST', `${campaignPath(campaignId)}/steps/reorder`, { stepIds })
      ).json()) as CampaignStep[],
    // Show the new order at once; the server's answer (or a refetch after a failure) settles it.
    onMutate: async (stepIds) => {
      await queryClient.cancelQueries({ queryKey: campaignQueryKey(campaignId) });
      const previous = queryClient.getQueryData<Campaign>(campaignQueryKey(campaignId));
      if (previous) {
        const byId = new Map(previous.steps.map((s) => [s.id, s]));
        const steps = stepIds.flatMap((id, i) => {
          const step = byId.get(id);
          return step ? [{ ...step, position: i + 1 }] : [];
        });
        queryClient.setQueryData<Campaign>(campaignQueryKey(campaignId), { ...previous, steps });
      }
      return { previous };
    },
    onError: (_error, _ids, context) => {
      if (context?.previous) queryClient.setQueryData(campaignQueryKey(campaignId), context.previous);
    },
    onSettled: () => refreshSteps(queryClient, campaignId),
  });
}

export function usePreviewStep(campaignId: string) {
  return useMutation({
    mutationFn: async (request: PreviewRequest): Promise<StepPreview> =>
      (await (
        await apiRequest('POST', `${campaignPath(campaignId)}/preview`, request)
      ).json()) as StepPreview,
  });
}

export function useTestSendStep(campaignId: string) {
  return useMutation({
    mutationFn: async (request: {
      stepId: string;
      variantKey: VariantKey;
      senderAccountId: string;
      to?: string;
    }): Promise<TestSendResult> =>
      (await (
        await apiRequest('POST', `${campaignPath(campaignId)}/test-send`, request)
      ).json()) as TestSendResult,
  });
}

export function useSenderAccounts(enabled = true) {
  return useQuery<SenderAccount[]>({ queryKey: ['/api/sender-accounts'], enabled, staleTime: 60_000 });
}

/** The user's lists (for the audience's custom fields). */
export function useContactLists(enabled = true) {
  return useQuery<{ lists: ContactList[] }>({ queryKey: ['/api/lists'], enabled, staleTime: 60_000 });
}

/** A few members of one audience list, to preview the email as a real contact. */
export function useListSample(listId: string | null, limit = 25) {
  return useQuery<{ items: ListContact[] }>({
    queryKey: ['/api/lists', listId ?? '', 'contacts', { q: '', cursor: null, limit }],
    queryFn: ({ signal }) =>
      getJson(
        `/api/lists/${encodeURIComponent(listId ?? '')}/contacts${buildQueryString({ limit })}`,
        signal,
      ),
    enabled: Boolean(listId),
    staleTime: 60_000,
  });
}
