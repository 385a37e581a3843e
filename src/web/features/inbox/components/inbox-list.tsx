import { INBOX_CATEGORY_LABELS, type InboxCategory } from '@shared/inbox';
import { Inbox } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { formatRelative } from '@/lib/format';
import { cn } from '@/lib/utils';
import type { InboxItem } from '../api/inbox';

export function CategoryBadge({ category }: { category: InboxCategory | null }) {
  if (!category) return <Badge variant="outline">Uncategorised</Badge>;
  const tone =
    category === 'interested' || category === 'meeting_request'
      ? 'success'
      : category === 'bounce' || category === 'unsubscribe_request' || category === 'not_interested'
        ? 'destructive'
        : 'secondary';
  return (
    <Badge variant={tone} data-testid="inbox-category">
      {INBOX_CATEGORY_LABELS[category]}
    </Badge>
  );
}

/** The messages, newest first: who, what about, when, the category; unread ones in bold. */
export function InboxList({
  items,
  selectedId,
  onSelect,
}: {
  items: InboxItem[];
  selectedId: string | null;
  onSelect: (id: string) => void;
}) {
  if (items.length === 0) {
    return (
      <div
        className="flex flex-col items-center gap-2 rounded-lg border border-dashed px-6 py-12 text-center text-sm text-muted-foreground"
        data-testid="inbox-empty"
      >
        <Inbox className="size-8" aria-hidden="true" />
        Nothing here. Answers to your campaigns, newsletters and bulk emails arrive here.
      </div>
    );
  }
  return (
    <ul className="divide-y rounded-lg border" data-testid="inbox-list">
      {items.map((item) => {
        const unread = item.readAt === null;
        return (
          <li key={item.id}>
            <button
              type="button"
              onClick={() => onSelect(item.id)}
              className={cn(
                'flex w-full flex-col gap-1 px-3 py-3 text-left hover:bg-accent focus-visible:bg-accent focus-visible:outline-none',
                selectedId === item.id && 'bg-accent',
              )}
              aria-current={selectedId === item.id ? 'true' : undefined}
              data-testid="inbox-item"
              data-unread={unread ? 'true' : 'false'}
            >
              <span className="flex items-center justify-between gap-2">
                <span className={cn('truncate text-sm', unread ? 'font-semibold' : 'font-normal')}>
                  {unread && (
                    <span className="mr-1.5 inline-block size-2 rounded-full bg-primary" aria-hidden="true" />
                  )}
                  {unread && <span className="sr-only">Unread: </span>}
                  {item.contactName || item.fromAddress || 'Unknown sender'}
                </span>
                <span className="shrink-0 text-xs text-muted-foreground">
                  {formatRelative(item.receivedAt)}
                </span>
              </span>
              <span className={cn('truncate text-sm', unread && 'font-medium')}>
                {item.subject || '(no subject)'}
              </span>
              <span className="line-clamp-1 text-xs text-muted-foreground">{item.snippet}</span>
              <span className="flex flex-wrap items-center gap-1.5">
                <CategoryBadge category={item.category} />
                {item.campaignName && (
                  <span className="truncate text-xs text-muted-foreground">{item.campaignName}</span>
                )}
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
