import { INBOX_CATEGORIES, INBOX_CATEGORY_LABELS, INBOX_STATUSES, type InboxStatus } from '@shared/inbox';
import { Loader2, Search } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { QueryError } from '@/components/query-error';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { usePageMeta } from '@/hooks/use-page-meta';
import { formatNumber } from '@/lib/format';
import { cn } from '@/lib/utils';
import { type InboxListParams, useInboxCounts, useInboxFilters, useInboxList } from '../api/inbox';
import { InboxList } from '../components/inbox-list';
import { PausedCampaignsAlert } from '../components/paused-campaigns-alert';
import { ThreadPane } from '../components/thread-pane';

const STATUS_LABELS: Record<InboxStatus, string> = {
  all: 'All',
  unread: 'Unread',
  read: 'Read',
  snoozed: 'Snoozed',
};

const ALL = 'all';

/** /inbox: every answer to what the user sent, across their accounts, with the conversation beside it. */
export default function InboxPage() {
  usePageMeta({
    title: 'Inbox | Tambari',
    description: 'Replies to your campaigns, newsletters and bulk emails in one place.',
    robots: 'noindex, nofollow',
  });
  const [searchParams, setSearchParams] = useSearchParams();
  const selected = searchParams.get('m');
  const read = (key: string) => searchParams.get(key) || undefined;
  const statusParam = read('status');
  const params: InboxListParams = {
    status: (INBOX_STATUSES as readonly string[]).includes(statusParam ?? '')
      ? (statusParam as InboxStatus)
      : 'all',
    category: read('category') as InboxListParams['category'],
    accountId: read('accountId'),
    campaignId: read('campaignId'),
    from: read('from'),
    to: read('to'),
    q: read('q'),
    cursor: read('cursor'),
  };
  const list = useInboxList(params);
  const counts = useInboxCounts();
  const filters = useInboxFilters();
  const [search, setSearch] = useState(params.q ?? '');
  useEffect(() => setSearch(params.q ?? ''), [params.q]);

  const setParam = (key: string, value: string | undefined) => {
    setSearchParams(
      (current) => {
        const copy = new URLSearchParams(current);
        if (value && value !== ALL) copy.set(key, value);
        else copy.delete(key);
        if (key !== 'm' && key !== 'cursor') copy.delete('cursor');
        return copy;
      },
      { replace: key !== 'm' },
    );
  };

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-2xl font-semibold tracking-tight">Inbox</h1>
        {counts.data && (
          <p className="text-sm text-muted-foreground" data-testid="inbox-unread-count">
            {formatNumber(counts.data.unread)} unread
          </p>
        )}
      </div>

      <PausedCampaignsAlert />

      <div className={cn('grid gap-4 lg:grid-cols-[minmax(0,24rem)_minmax(0,1fr)]')}>
        <section className={cn('min-w-0 space-y-3', selected && 'hidden lg:block')} aria-label="Messages">
          <form
            className="flex gap-2"
            role="search"
            onSubmit={(event) => {
              event.preventDefault();
              setParam('q', search.trim() || undefined);
            }}
          >
            <Input
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              placeholder="Search replies"
              aria-label="Search replies"
              data-testid="inbox-search"
            />
            <Button type="submit" variant="outline" size="icon" aria-label="Search">
              <Search aria-hidden="true" />
            </Button>
          </form>
          <div className="grid grid-cols-2 gap-2">
            <Select value={params.status ?? ALL} onValueChange={(next) => setParam('status', next)}>
              <SelectTrigger aria-label="Status" data-testid="inbox-filter-status" className="w-full">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {INBOX_STATUSES.map((status) => (
                  <SelectItem key={status} value={status}>
                    {STATUS_LABELS[status]}
                    {status === 'snoozed' && counts.data?.snoozed ? ` (${counts.data.snoozed})` : ''}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
            <Select value={params.category ?? ALL} onValueChange={(next) => setParam('category', next)}>
              <SelectTrigger aria-label="Category" data-testid="inbox-filter-category" className="w-full">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value={ALL}>All categories</SelectItem>
                {INBOX_CATEGORIES.map((category) => (
                  <SelectItem key={category} value={category}>
                    {INBOX_CATEGORY_LABELS[category]}
                    {counts.data?.byCategory[category] ? ` (${counts.data.byCategory[category]})` : ''}
                  </SelectItem>
                ))}
                <SelectItem value="none">Uncategorised</SelectItem>
              </SelectContent>
            </Select>
            <Select value={params.accountId ?? ALL} onValueChange={(next) => setParam('accountId', next)}>
              <SelectTrigger aria-label="Sender account" className="w-full">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value={ALL}>All accounts</SelectItem>
                {filters.data?.accounts.map((account) => (
                  <SelectItem key={account.id} value={account.id}>
                    {account.label}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
            <Select value={params.campaignId ?? ALL} onValueChange={(next) => setParam('campaignId', next)}>
              <SelectTrigger aria-label="Campaign" className="w-full">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value={ALL}>All campaigns</SelectItem>
                {filters.data?.campaigns.map((campaign) => (
                  <SelectItem key={campaign.id} value={campaign.id}>
                    {campaign.name}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
            <div className="grid gap-1">
              <Label htmlFor="inbox-from" className="text-xs text-muted-foreground">
                From
              </Label>
              <Input
                id="inbox-from"
                type="date"
                value={params.from ?? ''}
                onChange={(event) => setParam('from', event.target.value || undefined)}
              />
            </div>
            <div className="grid gap-1">
              <Label htmlFor="inbox-to" className="text-xs text-muted-foreground">
                To
              </Label>
              <Input
                id="inbox-to"
                type="date"
                value={params.to ?? ''}
                onChange={(event) => setParam('to', event.target.value || undefined)}
              />
            </div>
          </div>

          {list.isPending ? (
            <div className="space-y-2">
              <Skeleton className="h-20 w-full" />
              <Skeleton className="h-20 w-full" />
            </div>
          ) : list.isError ? (
            <QueryError
              title="The inbox could not be loaded"
              error={list.error}
              onRetry={() => list.refetch()}
            />
          ) : (
            <>
              <InboxList items={list.data.items} selectedId={selected} onSelect={(id) => setParam('m', id)} />
              <div className="flex justify-between gap-2">
                {params.cursor ? (
                  <Button variant="ghost" size="sm" onClick={() => setParam('cursor', undefined)}>
                    Newest
                  </Button>
                ) : (
                  <span />
                )}
                {list.data.nextCursor && (
                  <Button
                    variant="outline"
                    size="sm"
                    onClick={() => setParam('cursor', list.data.nextCursor ?? undefined)}
                    data-testid="inbox-older"
                  >
                    {list.isFetching && <Loader2 className="animate-spin" aria-hidden="true" />}
                    Older
                  </Button>
                )}
              </div>
            </>
          )}
        </section>

        <section className={cn('min-w-0', !selected && 'hidden lg:block')} aria-label="Conversation">
          {selected ? (
            <ThreadPane key={selected} id={selected} onBack={() => setParam('m', undefined)} />
          ) : (
            <div className="flex h-full min-h-48 items-center justify-center rounded-lg border border-dashed p-6 text-sm text-muted-foreground">
              Choose a message to read the conversation and reply.
            </div>
          )}
        </section>
      </div>
    </div>
  );
}
