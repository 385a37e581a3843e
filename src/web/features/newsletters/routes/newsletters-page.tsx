import type { Newsletter, NewsletterKind } from '@shared/newsletters';
import { readableSubject } from '@shared/subject-text';
import {
  BarChart3,
  Copy,
  ExternalLink,
  Mail,
  MoreHorizontal,
  Newspaper,
  Pencil,
  Plus,
  Trash2,
} from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { QueryError } from '@/components/query-error';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { Tabs, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/errors';
import { formatDateTime, formatNumber } from '@/lib/format';
import { useDeleteNewsletter, useDuplicateNewsletter, useNewsletters } from '../api/newsletters';
import { ArchiveCard } from '../components/archive-card';
import { NewsletterStatusBadge } from '../components/newsletter-status-badge';
import { SendProgress } from '../components/send-progress';

function hrefOf(n: Newsletter): string {
  return n.status === 'sent' ? `/newsletters/${n.id}/report` : `/newsletters/editor/${n.id}`;
}

function when(n: Newsletter): string {
  if (n.status === 'scheduled') return `Scheduled for ${formatDateTime(n.scheduledAt)}`;
  if (n.sentAt) return `Sent ${formatDateTime(n.sentAt)}`;
  return `Edited ${formatDateTime(n.updatedAt)}`;
}

function rate(part: number, whole: number): string {
  return whole > 0 ? `${((part / whole) * 100).toFixed(1)}%` : '—';
}

function RowActions({ newsletter }: { newsletter: Newsletter }) {
  const navigate = useNavigate();
  const duplicate = useDuplicateNewsletter();
  const remove = useDeleteNewsletter();
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button variant="ghost" size="icon" aria-label={`Actions for ${newsletter.name}`}>
            <MoreHorizontal className="size-4" />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end">
          <DropdownMenuItem onSelect={() => navigate(`/newsletters/editor/${newsletter.id}`)}>
            <Pencil className="size-4" />{' '}
            {newsletter.status === 'draft' || newsletter.status === 'scheduled' ? 'Edit' : 'View'}
          </DropdownMenuItem>
          {(newsletter.status === 'sending' || newsletter.status === 'sent') && (
            <DropdownMenuItem onSelect={() => navigate(`/newsletters/${newsletter.id}/report`)}>
              <BarChart3 className="size-4" /> Report
            </DropdownMenuItem>
          )}
          <DropdownMenuItem
            onSelect={async () => {
              try {
                const copy = await duplicate.mutateAsync(newsletter.id);
                navigate(`/newsletters/editor/${copy.id}`);
              } catch (err) {
                toast({
                  title: 'Could not duplicate',
                  description: getErrorMessage(err, 'Try again.'),
                  variant: 'destructive',
                });
              }
            }}
          >
            <Copy className="size-4" /> Duplicate
          </DropdownMenuItem>
          <DropdownMenuItem asChild>
            <a href={newsletter.webUrl} target="_blank" rel="noreferrer">
              <ExternalLink className="size-4" /> Web version
            </a>
          </DropdownMenuItem>
          {newsletter.status !== 'sending' && (
            <>
              <DropdownMenuSeparator />
              <DropdownMenuItem variant="destructive" onSelect={() => setConfirming(true)}>
                <Trash2 className="size-4" /> Delete
              </DropdownMenuItem>
            </>
          )}
        </DropdownMenuContent>
      </DropdownMenu>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Delete “${newsletter.name}”?`}
        description={
          newsletter.status === 'sent'
            ? 'It disappears from this list; what was already delivered stays in people’s inboxes.'
            : 'This cannot be undone.'
        }
        confirmLabel="Delete"
        destructive
        onConfirm={async () => {
          try {
            await remove.mutateAsync(newsletter.id);
            toast({ title: 'Deleted' });
          } catch (err) {
            toast({
              title: 'Could not delete',
              description: getErrorMessage(err, 'Try again.'),
              variant: 'destructive',
            });
          }
        }}
      />
    </>
  );
}

function NewsletterTable({ kind }: { kind: NewsletterKind }) {
  const query = useNewsletters(kind);
  if (query.isError)
    return (
      <QueryError title="Could not load newsletters" error={query.error} onRetry={() => query.refetch()} />
    );
  if (query.isPending) return <Skeleton className="h-48" />;
  const rows = query.data;
  if (rows.length === 0) {
    const Icon = kind === 'bulk' ? Mail : Newspaper;
    return (
      <Card>
        <CardContent className="flex flex-col items-center gap-3 py-12 text-center">
          <Icon className="size-10 text-muted-foreground" />
          <p className="font-medium">{kind === 'bulk' ? 'No bulk emails yet' : 'No newsletters yet'}</p>
          <p className="max-w-sm text-sm text-muted-foreground">
            {kind === 'bulk'
              ? 'A bulk email is one message to your lists: an announcement, an offer, a notice.'
              : 'Build a newsletter from blocks — headings, text, images, buttons — and send it to your lists.'}
          </p>
          <Button asChild>
            <Link to={kind === 'bulk' ? '/newsletter-editor?kind=bulk' : '/newsletter-editor'}>
              <Plus className="size-4" /> {kind === 'bulk' ? 'New bulk email' : 'New newsletter'}
            </Link>
          </Button>
        </CardContent>
      </Card>
    );
  }
  return (
    <Card className="py-0">
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead>Name</TableHead>
            <TableHead>Status</TableHead>
            <TableHead className="hidden text-right md:table-cell">Recipients</TableHead>
            <TableHead className="hidden text-right md:table-cell">Opened</TableHead>
            <TableHead className="hidden text-right lg:table-cell">Clicked</TableHead>
            <TableHead className="w-10" />
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map((n) => (
            <TableRow key={n.id} data-testid="newsletter-row">
              <TableCell className="max-w-[18rem]">
                <Link to={hrefOf(n)} className="block truncate font-medium hover:underline">
                  {n.name}
                </Link>
                <p className="truncate text-xs text-muted-foreground">
                  {readableSubject(n.subject) || 'No subject yet'}
                </p>
                <p className="text-xs text-muted-foreground">{when(n)}</p>
              </TableCell>
              <TableCell>
                <NewsletterStatusBadge status={n.status} paused={n.paused} />
                {n.status === 'sending' && (
                  <div className="mt-2">
                    <SendProgress id={n.id} compact />
                  </div>
                )}
              </TableCell>
              <TableCell className="hidden text-right md:table-cell">
                {formatNumber(n.recipientCount)}
              </TableCell>
              <TableCell className="hidden text-right md:table-cell">
                {n.stats ? rate(n.stats.opened, n.stats.sent) : '—'}
              </TableCell>
              <TableCell className="hidden text-right lg:table-cell">
                {n.stats ? rate(n.stats.clicked, n.stats.sent) : '—'}
              </TableCell>
              <TableCell>
                <RowActions newsletter={n} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Card>
  );
}

/** /newsletters: newsletters and bulk emails, with their status and results. */
export default function NewslettersPage() {
  const [search, setSearch] = useSearchParams();
  const kind: NewsletterKind = search.get('tab') === 'bulk' ? 'bulk' : 'newsletter';
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold">Newsletters</h1>
          <p className="text-sm text-muted-foreground">Newsletters and one-off bulk emails to your lists.</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button asChild variant="outline">
            <Link to="/newsletter-editor?kind=bulk" data-testid="new-bulk">
              <Mail className="size-4" /> New bulk email
            </Link>
          </Button>
          <Button asChild>
            <Link to="/newsletter-editor" data-testid="new-newsletter">
              <Plus className="size-4" /> New newsletter
            </Link>
          </Button>
        </div>
      </div>
      <Tabs
        value={kind}
        onValueChange={(v) => setSearch(v === 'bulk' ? { tab: 'bulk' } : {}, { replace: true })}
      >
        <TabsList>
          <TabsTrigger value="newsletter">Newsletters</TabsTrigger>
          <TabsTrigger value="bulk">Bulk emails</TabsTrigger>
        </TabsList>
      </Tabs>
      <NewsletterTable kind={kind} />
      <ArchiveCard />
    </div>
  );
}
