import { CAMPAIGN_CONTACT_STATUSES, type CampaignContactStatus } from '@shared/sending';
import { formatPausedUntil } from '@shared/zoned-time';
import { Trophy } from 'lucide-react';
import { useState } from 'react';
import { CursorPagination } from '@/components/cursor-pagination';
import { QueryError } from '@/components/query-error';
import { SearchInput } from '@/components/search-input';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from '@/components/ui/sheet';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { useCursorPages } from '@/hooks/use-cursor-pages';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { rowRange } from '@/lib/cursor-pages';
import { formatDateTime, formatNumber, formatRelative } from '@/lib/format';
import { cn } from '@/lib/utils';
import {
  type CampaignContactRow,
  type CampaignStats,
  useCampaignContacts,
  useContactTimeline,
} from '../api/campaigns';
import { CONTACT_STATUS_LABELS, contactDisplayName } from '../lib/campaign-display';
import { formatMoney } from '../lib/deal-value';
import { ContactStatusBadge } from './campaign-status-badge';

const PAGE_SIZE = 50;

const EVENT_LABELS: Record<string, string> = {
  queued: 'Queued',
  sent: 'Sent',
  delivered: 'Delivered',
  opened: 'Opened',
  clicked: 'Clicked a link',
  replied: 'Replied',
  bounced: 'Bounced',
  unsubscribed: 'Unsubscribed',
  complained: 'Marked as spam',
  failed: 'Failed to send',
  suppressed: 'Not sent (suppressed)',
  out_of_office: 'Out-of-office reply',
  sender_changed: 'Mailbox changed',
  deferred: 'Delayed; will try again',
};

const EVENT_DOT: Record<string, string> = {
  sent: 'bg-primary',
  opened: 'bg-sky-500',
  clicked: 'bg-violet-500',
  replied: 'bg-success',
  bounced: 'bg-destructive',
  failed: 'bg-destructive',
  complained: 'bg-destructive',
  unsubscribed: 'bg-muted-foreground',
};

/** A contact's events in this campaign, oldest first, in a side drawer. */
function TimelineSheet({
  campaignId,
  timeZone,
  contact,
  onClose,
}: {
  campaignId: string;
  timeZone: string;
  contact: CampaignContactRow | null;
  onClose: () => void;
}) {
  const timeline = useContactTimeline(campaignId, contact?.id ?? null);
  return (
    <Sheet open={Boolean(contact)} onOpenChange={(open) => !open && onClose()}>
      <SheetContent className="w-full overflow-y-auto sm:max-w-md" data-testid="contact-timeline">
        <SheetHeader>
          <SheetTitle>{contact ? contactDisplayName(contact) : 'Contact'}</SheetTitle>
          <SheetDescription>
            {contact?.email}
            {contact?.company ? ` · ${contact.company}` : ''}
          </SheetDescription>
        </SheetHeader>
        <div className="space-y-4 px-4 pb-6">
          {contact && (
            <div className="flex flex-wrap items-center gap-2 text-sm">
              <ContactStatusBadge status={contact.status} />
              {contact.pausedUntil && (
                <span className="text-muted-foreground" data-testid="timeline-paused-until">
                  {formatPausedUntil(contact.pausedUntil, timeZone)}
                </span>
              )}
              <span className="text-muted-foreground">Step {contact.currentStep || 1}</span>
              {contact.wonAt && (
                <Badge variant="success">
                  <Trophy aria-hidden="true" />
                  Won
                  {contact.dealValue !== null
                    ? ` · ${formatMoney(Number(contact.dealValue), contact.dealCurrency ?? 'NGN')}`
                    : ''}
                </Badge>
              )}
            </div>
          )}
          {timeline.isPending ? (
            <div className="space-y-3">
              <Skeleton className="h-10 w-full" />
              <Skeleton className="h-10 w-full" />
              <Skeleton className="h-10 w-full" />
            </div>
          ) : timeline.isError ? (
            <QueryError
              title="The timeline could not be loaded"
              error={timeline.error}
              onRetry={() => timeline.refetch()}
            />
          ) : timeline.data.length === 0 ? (
            <p className="text-sm text-muted-foreground">Nothing has happened for this contact yet.</p>
          ) : (
            <ol className="relative space-y-4 border-l pl-5" data-testid="timeline-events">
              {timeline.data.map((event, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: events have no id here; order is fixed
                <li key={index} className="relative" data-testid="timeline-event" data-type={event.type}>
                  <span
                    className={cn(
                      'absolute top-1.5 -left-[25px] size-2.5 rounded-full ring-4 ring-background',
                      EVENT_DOT[event.type] ?? 'bg-muted-foreground',
                    )}
                    aria-hidden="true"
                  />
                  <p className="text-sm font-medium">
                    {EVENT_LABELS[event.type] ?? event.type}
                    {event.stepPosition ? (
                      <span className="font-normal text-muted-foreground">
                        {' '}
                        · step {event.stepPosition}
                        {event.variantKey ? ` (${event.variantKey})` : ''}
                      </span>
                    ) : null}
                    {event.machine && (
                      <span className="font-normal text-muted-foreground"> · by a mail privacy proxy</span>
                    )}
                  </p>
                  <p className="text-xs text-muted-foreground">{formatDateTime(event.occurredAt)}</p>
                  {event.detail && (
                    <p className="mt-1 break-words text-sm text-muted-foreground">{event.detail}</p>
                  )}
                </li>
              ))}
            </ol>
          )}
        </div>
      </SheetContent>
    </Sheet>
  );
}

/** The campaign's contacts, filtered by state, searchable, each opening its timeline. */
export function ContactsPanel({
  campaignId,
  timeZone,
  stats,
}: {
  campaignId: string;
  /** The campaign's zone: resume dates of paused contacts are read in it. */
  timeZone: string;
  stats: CampaignStats | undefined;
}) {
  const [status, setStatus] = useState<CampaignContactStatus | 'all'>('all');
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search, 300).trim();
  const pager = useCursorPages(`${status}|${q}`);
  const contacts = useCampaignContacts(campaignId, {
    status: status === 'all' ? undefined : status,
    q,
    cursor: pager.cursor,
    limit: PAGE_SIZE,
  });
  const [open, setOpen] = useState<CampaignContactRow | null>(null);
  const items = contacts.data?.items;
  const range = rowRange(pager.pages, PAGE_SIZE, items?.length ?? 0);
  const total = status === 'all' ? stats?.contacts.total : stats?.contacts[status];

  return (
    <Card data-testid="contacts-panel">
      <CardHeader>
        <CardTitle>
          <h2>Contacts</h2>
        </CardTitle>
        <CardDescription>
          Where each contact is in the sequence. Select one to see everything that happened.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <div className="flex flex-col gap-3 sm:flex-row">
          <SearchInput
            className="flex-1"
            value={search}
            onChange={setSearch}
            placeholder="Search by email, name or company"
            aria-label="Search contacts"
            maxLength={100}
            data-testid="contacts-search"
          />
          <Select value={status} onValueChange={(value) => setStatus(value as CampaignContactStatus | 'all')}>
            <SelectTrigger
              className="w-full sm:w-52"
              aria-label="Filter by state"
              data-testid="contacts-status-filter"
            >
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value="all">
                All states{stats ? ` (${formatNumber(stats.contacts.total)})` : ''}
              </SelectItem>
              {CAMPAIGN_CONTACT_STATUSES.map((s) => (
                <SelectItem key={s} value={s}>
                  {CONTACT_STATUS_LABELS[s]}
                  {stats ? ` (${formatNumber(stats.contacts[s] ?? 0)})` : ''}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>

        {contacts.isError && !contacts.data ? (
          <QueryError
            title="Contacts could not be loaded"
            error={contacts.error}
            onRetry={() => contacts.refetch()}
          />
        ) : (
          <>
            <div
              className={cn('overflow-x-auto rounded-lg border', contacts.isPlaceholderData && 'opacity-60')}
            >
              <Table data-testid="campaign-contacts-table">
                <TableHeader>
                  <TableRow>
                    <TableHead>Contact</TableHead>
                    <TableHead>Company</TableHead>
                    <TableHead>State</TableHead>
                    <TableHead className="text-right">Step</TableHead>
                    <TableHead>Last activity</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {contacts.isPending || !items ? (
                    Array.from({ length: 5 }, (_, index) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows
                      <TableRow key={index}>
                        <TableCell colSpan={5}>
                          <Skeleton className="h-6 w-full" />
                        </TableCell>
                      </TableRow>
                    ))
                  ) : items.length === 0 ? (
                    <TableRow>
                      <TableCell colSpan={5} className="py-10 text-center text-sm text-muted-foreground">
                        {q || status !== 'all'
                          ? 'No contact matches.'
                          : 'No contacts yet: they are copied in when the campaign is launched.'}
                      </TableCell>
                    </TableRow>
                  ) : (
                    items.map((contact) => (
                      <TableRow
                        key={contact.id}
                        className="cursor-pointer"
                        onClick={() => setOpen(contact)}
                        data-testid="campaign-contact-row"
                      >
                        <TableCell className="max-w-64">
                          <button
                            type="button"
                            className="block max-w-full truncate text-left font-medium hover:underline"
                            onClick={(event) => {
                              event.stopPropagation();
                              setOpen(contact);
                            }}
                          >
                            {contactDisplayName(contact)}
                          </button>
                          {(contact.firstName || contact.lastName) && (
                            <span className="block truncate text-xs text-muted-foreground">
                              {contact.email}
                            </span>
                          )}
                        </TableCell>
                        <TableCell className="max-w-48 truncate text-sm">{contact.company ?? '—'}</TableCell>
                        <TableCell>
                          <span className="inline-flex items-center gap-1.5">
                            <ContactStatusBadge status={contact.status} />
                            {contact.wonAt && <Trophy className="size-3.5 text-success" aria-label="Won" />}
                          </span>
                          {contact.pausedUntil && (
                            <span
                              className="block text-xs text-muted-foreground"
                              data-testid="contact-paused-until"
                            >
                              {formatPausedUntil(contact.pausedUntil, timeZone)}
                            </span>
                          )}
                        </TableCell>
                        <TableCell className="text-right tabular-nums">
                          {contact.currentStep || '—'}
                        </TableCell>
                        <TableCell className="text-sm text-muted-foreground">
                          {formatRelative(contact.lastEventAt)}
                        </TableCell>
                      </TableRow>
                    ))
                  )}
                </TableBody>
              </Table>
            </div>
            {items && (items.length > 0 || pager.hasPrevious) && (
              <CursorPagination
                from={range.from}
                to={range.to}
                total={total}
                hasPrevious={pager.hasPrevious}
                hasNext={Boolean(contacts.data?.nextCursor)}
                onPrevious={pager.goPrevious}
                onNext={() => pager.goNext(contacts.data?.nextCursor)}
                busy={contacts.isPlaceholderData}
                testId="contacts-pagination"
              />
            )}
          </>
        )}
      </CardContent>
      <TimelineSheet
        campaignId={campaignId}
        timeZone={timeZone}
        contact={open}
        onClose={() => setOpen(null)}
      />
    </Card>
  );
}
