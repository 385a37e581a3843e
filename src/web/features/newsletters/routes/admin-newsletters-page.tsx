import { NEWSLETTER_STATUSES } from '@shared/campaigns';
import { NEWSLETTER_KIND_LABELS, NEWSLETTER_STATUS_LABELS } from '@shared/newsletters';
import { readableSubject } from '@shared/subject-text';
import { Search } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { QueryError } from '@/components/query-error';
import { Card } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { formatDateTime, formatNumber } from '@/lib/format';
import { useAdminNewsletters } from '../api/newsletters';
import { CancelScheduleButton } from '../components/cancel-schedule-button';
import { NewsletterStatusBadge } from '../components/newsletter-status-badge';

/** /admin/newsletters: every user's newsletters and bulk emails; scheduled ones can be cancelled. */
export default function AdminNewslettersPage() {
  const [q, setQ] = useState('');
  const [status, setStatus] = useState('all');
  const [kind, setKind] = useState('all');
  const search = useDebouncedValue(q, 300);
  const query = useAdminNewsletters({
    q: search,
    status: status === 'all' ? '' : status,
    kind: kind === 'all' ? '' : kind,
  });

  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold">Newsletters</h1>
        <p className="text-sm text-muted-foreground">All users’ newsletters and bulk emails.</p>
      </div>
      <div className="flex flex-wrap gap-2">
        <div className="relative min-w-56 flex-1">
          <Search className="absolute top-2.5 left-2.5 size-4 text-muted-foreground" />
          <Input
            className="pl-8"
            placeholder="Search name, subject or owner email"
            value={q}
            onChange={(e) => setQ(e.target.value)}
          />
        </div>
        <Select value={status} onValueChange={setStatus}>
          <SelectTrigger className="w-40" aria-label="Status">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value="all">All statuses</SelectItem>
            {NEWSLETTER_STATUSES.map((s) => (
              <SelectItem key={s} value={s}>
                {NEWSLETTER_STATUS_LABELS[s]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <Select value={kind} onValueChange={setKind}>
          <SelectTrigger className="w-40" aria-label="Kind">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value="all">Newsletters and bulk</SelectItem>
            <SelectItem value="newsletter">Newsletters</SelectItem>
            <SelectItem value="bulk">Bulk emails</SelectItem>
          </SelectContent>
        </Select>
      </div>
      {query.isError ? (
        <QueryError title="Could not load newsletters" error={query.error} onRetry={() => query.refetch()} />
      ) : query.isPending ? (
        <Skeleton className="h-48" />
      ) : query.data.items.length === 0 ? (
        <p className="rounded-md border border-dashed p-8 text-center text-sm text-muted-foreground">
          Nothing matches.
        </p>
      ) : (
        <Card className="py-0">
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Name</TableHead>
                <TableHead className="hidden md:table-cell">Owner</TableHead>
                <TableHead>Status</TableHead>
                <TableHead className="hidden text-right md:table-cell">Recipients</TableHead>
                <TableHead className="w-32" />
              </TableRow>
            </TableHeader>
            <TableBody>
              {query.data.items.map((n) => (
                <TableRow key={n.id}>
                  <TableCell className="max-w-[16rem]">
                    <Link
                      to={`/admin/newsletters/editor/${n.id}`}
                      className="block truncate font-medium hover:underline"
                    >
                      {n.name}
                    </Link>
                    <p className="truncate text-xs text-muted-foreground">
                      {NEWSLETTER_KIND_LABELS[n.kind]} · {readableSubject(n.subject) || 'No subject'}
                    </p>
                    <p className="text-xs text-muted-foreground">
                      {n.status === 'scheduled'
                        ? `Scheduled for ${formatDateTime(n.scheduledAt)}`
                        : n.sentAt
                          ? `Sent ${formatDateTime(n.sentAt)}`
                          : `Created ${formatDateTime(n.createdAt)}`}
                    </p>
                  </TableCell>
                  <TableCell className="hidden max-w-[14rem] truncate md:table-cell">
                    {n.owner.email}
                  </TableCell>
                  <TableCell>
                    <NewsletterStatusBadge status={n.status} paused={n.paused} />
                  </TableCell>
                  <TableCell className="hidden text-right md:table-cell">
                    {formatNumber(n.recipientCount)}
                  </TableCell>
                  <TableCell className="text-right">
                    {n.status === 'scheduled' && <CancelScheduleButton id={n.id} name={n.name} />}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Card>
      )}
    </div>
  );
}
