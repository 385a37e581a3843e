import type { Segment, SegmentWithCount } from '@shared/segments';
import { useQueries, useQuery } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { formatNumber } from '@/lib/format';
import { buildQueryString, getJson } from '@/lib/http';

/*
 * Choosing a segment beside a list (newsletters, bulk email, campaigns): shared here because several
 * features pick audiences and features do not import each other. Segments are built in Contacts.
 */

/** Every segment query sits under this prefix, so saving one refreshes pickers and counts. */
export const segmentsQueryKey = ['/api/segments'] as const;

export function useSegments(listId?: string, enabled = true) {
  const query = listId ? { listId } : {};
  return useQuery<{ segments: Segment[] }>({
    queryKey: [...segmentsQueryKey, 'list', query],
    queryFn: ({ signal }) => getJson(`/api/segments${buildQueryString(query)}`, signal),
    staleTime: 30_000,
    enabled,
  });
}

/** One segment with who it reaches now (suppressed addresses left out, as a send leaves them out). */
export function useSegment(id: string | null | undefined) {
  return useQuery<SegmentWithCount>({
    queryKey: [...segmentsQueryKey, id],
    queryFn: ({ signal }) => getJson(`/api/segments/${encodeURIComponent(id!)}`, signal),
    enabled: Boolean(id),
  });
}

const WHOLE_LIST = 'whole-list';

/** "Whole list" or one of the list's segments; renders nothing while the list has none. */
export function SegmentPicker({
  listId,
  listName,
  value,
  onChange,
}: {
  listId: string;
  listName: string;
  value: string | null;
  onChange: (segmentId: string | null) => void;
}) {
  const segments = useSegments(listId);
  const chosen = useSegment(value);
  const options = segments.data?.segments ?? [];
  if (options.length === 0 && !value) return null;
  return (
    <div className="flex flex-col gap-1 pl-7 sm:flex-row sm:items-center sm:gap-2">
      <Select value={value ?? WHOLE_LIST} onValueChange={(v) => onChange(v === WHOLE_LIST ? null : v)}>
        <SelectTrigger size="sm" className="w-full sm:w-56" aria-label={`Segment of ${listName}`}>
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value={WHOLE_LIST}>Whole list</SelectItem>
          {options.map((segment) => (
            <SelectItem key={segment.id} value={segment.id}>
              {segment.name}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      {value && (
        <span className="text-xs text-muted-foreground" aria-live="polite" data-testid="segment-picker-count">
          {chosen.isPending ? (
            <Loader2 className="inline size-3 animate-spin" aria-label="Counting" />
          ) : chosen.data ? (
            `${formatNumber(chosen.data.count)} ${chosen.data.count === 1 ? 'contact' : 'contacts'} in this segment`
          ) : null}
        </span>
      )}
    </div>
  );
}

/** The counts of several chosen segments (by id), for an audience's total. */
export function useSegmentCounts(ids: readonly string[]): Map<string, number> {
  const results = useQueries({
    queries: ids.map((id) => ({
      queryKey: [...segmentsQueryKey, id],
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        getJson<SegmentWithCount>(`/api/segments/${encodeURIComponent(id)}`, signal),
    })),
  });
  const counts = new Map<string, number>();
  results.forEach((result, i) => {
    if (result.data) counts.set(ids[i]!, result.data.count);
  });
  return counts;
}
