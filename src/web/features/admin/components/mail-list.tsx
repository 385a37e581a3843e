import type { DevMailSummary } from '@shared/admin';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDateTime, formatRelative } from '@/lib/format';
import { cn } from '@/lib/utils';

export function MailList({
  messages,
  loading,
  selectedId,
  onSelect,
}: {
  messages: DevMailSummary[] | undefined;
  loading: boolean;
  selectedId: string | null;
  onSelect: (id: string) => void;
}) {
  if (loading || !messages) {
    return (
      <div className="space-y-1 p-2" role="status" aria-label="Loading messages">
        {[0, 1, 2, 3, 4].map((key) => (
          <div key={key} className="space-y-2 rounded-md p-3">
            <Skeleton className="h-4 w-40" />
            <Skeleton className="h-4 w-56" />
            <Skeleton className="h-3 w-32" />
          </div>
        ))}
      </div>
    );
  }

  return (
    <ul className="divide-y" data-testid="mail-list" aria-label="Messages, newest first">
      {messages.map((message) => {
        const selected = message.id === selectedId;
        return (
          <li key={message.id}>
            <button
              type="button"
              onClick={() => onSelect(message.id)}
              aria-current={selected ? 'true' : undefined}
              className={cn(
                'flex w-full flex-col gap-0.5 border-l-2 border-transparent px-4 py-3 text-left outline-none transition-colors hover:bg-muted/60 focus-visible:bg-muted focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:ring-inset',
                selected && 'border-primary bg-secondary hover:bg-secondary',
              )}
              data-testid="mail-list-item"
              data-mail-id={message.id}
            >
              <span className="flex items-baseline justify-between gap-3">
                <span className="truncate text-sm font-medium" title={message.from}>
                  {message.from || '(no sender)'}
                </span>
                <time
                  dateTime={message.receivedAt}
                  title={formatDateTime(message.receivedAt)}
                  className="shrink-0 text-xs text-muted-foreground"
                >
                  {formatRelative(message.receivedAt)}
                </time>
              </span>
              <span className="truncate text-sm" title={message.subject}>
                {message.subject || '(no subject)'}
              </span>
              <span className="truncate text-xs text-muted-foreground" title={message.to}>
                To: {message.to || '(no recipient)'}
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
