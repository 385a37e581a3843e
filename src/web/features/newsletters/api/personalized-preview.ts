import type { PersonalizePreview, PersonalizePreviewRequest } from '@shared/personalize';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { apiRequest } from '@/lib/api';

export const personalizedPreviewKey = ['/api/personalize/preview'] as const;

/** The pause in typing after which the preview is asked for again. */
export const PERSONALIZED_PREVIEW_DEBOUNCE_MS = 600;

/**
 * The email as one contact of the audience lists gets it (a sample contact without them), from
 * POST /api/personalize/preview. Each pause in editing is a new request: the last answer stays on screen
 * while the next one loads, and answers leave the cache soon since each holds a whole email.
 */
export function usePersonalizedPreview({
  subject,
  html,
  listIds,
  enabled,
}: {
  subject: string;
  html: string;
  listIds: readonly string[];
  enabled: boolean;
}) {
  // By value, not identity: callers pass a fresh array on every render.
  const listKey = listIds.join(',');
  const request = useMemo<PersonalizePreviewRequest>(
    () => ({ subject, html, listIds: listKey ? listKey.split(',') : [] }),
    [subject, html, listKey],
  );
  const debounced = useDebouncedValue(request, PERSONALIZED_PREVIEW_DEBOUNCE_MS);
  const query = useQuery<PersonalizePreview>({
    queryKey: [...personalizedPreviewKey, debounced],
    queryFn: async () => {
      const res = await apiRequest('POST', personalizedPreviewKey[0], debounced);
      return (await res.json()) as PersonalizePreview;
    },
    enabled,
    placeholderData: keepPreviousData,
    gcTime: 30_000,
  });
  /** The edits have not been sent yet, or their answer has not come back. */
  const updating = enabled && (debounced !== request || query.isFetching);
  return { query, updating };
}
