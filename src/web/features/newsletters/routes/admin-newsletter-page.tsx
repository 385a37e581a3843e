import { renderNewsletterHtml } from '@shared/newsletter-render';
import { NEWSLETTER_KIND_LABELS } from '@shared/newsletters';
import { ArrowLeft, ExternalLink } from 'lucide-react';
import { Link, Navigate, useParams } from 'react-router';
import { QueryError } from '@/components/query-error';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDateTime, formatNumber } from '@/lib/format';
import { useAdminNewsletter } from '../api/newsletters';
import { CancelScheduleButton } from '../components/cancel-schedule-button';
import { EmailPreview } from '../components/email-preview';
import { NewsletterStatusBadge } from '../components/newsletter-status-badge';
import { validBlocks } from '../lib/blocks';
import { bulkPreviewHtml } from '../lib/preview';

/** /admin/newsletters/editor/:id — a user's newsletter, read-only, with "cancel send" while scheduled. */
export default function AdminNewsletterPage() {
  const { id } = useParams();
  const query = useAdminNewsletter(id);
  if (!id) return <Navigate to="/admin/newsletters" replace />;
  if (query.isError)
    return (
      <QueryError title="Could not load newsletters" error={query.error} onRetry={() => query.refetch()} />
    );
  if (query.isPending) return <Skeleton className="h-96" />;
  const n = query.data;
  const blocks = validBlocks(n.blocks);
  const html =
    n.kind === 'bulk'
      ? bulkPreviewHtml(n.html, n.subject)
      : blocks
        ? renderNewsletterHtml({ subject: n.subject, preheader: n.preheader, blocks })
        : n.html;
  const facts: [string, string][] = [
    ['Owner', n.owner.email],
    ['Kind', NEWSLETTER_KIND_LABELS[n.kind]],
    ['Recipients', formatNumber(n.recipientCount)],
    ['Created', formatDateTime(n.createdAt)],
    ...(n.scheduledAt ? ([['Scheduled for', formatDateTime(n.scheduledAt)]] as [string, string][]) : []),
    ...(n.sentAt ? ([['Sent', formatDateTime(n.sentAt)]] as [string, string][]) : []),
    ...(n.stats
      ? ([
          ['Delivered', formatNumber(n.stats.sent)],
          ['Opened', formatNumber(n.stats.opened)],
          ['Clicked', formatNumber(n.stats.clicked)],
          ['Unsubscribed', formatNumber(n.stats.unsubscribed)],
        ] as [string, string][])
      : []),
  ];
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-2">
        <Button asChild variant="ghost" size="sm">
          <Link to="/admin/newsletters">
            <ArrowLeft className="size-4" /> All newsletters
          </Link>
        </Button>
        <NewsletterStatusBadge status={n.status} paused={n.paused} />
        <a
          href={n.webUrl}
          target="_blank"
          rel="noreferrer"
          className="inline-flex items-center gap-1 text-sm underline"
        >
          Web version <ExternalLink className="size-3.5" />
        </a>
        {n.status === 'scheduled' && (
          <span className="ml-auto">
            <CancelScheduleButton id={n.id} name={n.name} />
          </span>
        )}
      </div>
      <h1 className="text-2xl font-semibold">{n.name}</h1>
      <div className="grid gap-6 xl:grid-cols-[20rem_minmax(0,1fr)]">
        <Card>
          <CardContent>
            <dl className="grid grid-cols-2 gap-x-3 gap-y-2 text-sm">
              {facts.map(([label, value]) => (
                <div key={label} className="contents">
                  <dt className="text-muted-foreground">{label}</dt>
                  <dd className="truncate">{value}</dd>
                </div>
              ))}
            </dl>
          </CardContent>
        </Card>
        <EmailPreview html={html} subject={n.subject} />
      </div>
    </div>
  );
}
