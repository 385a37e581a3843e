import {
  type NewsletterRecipientRow,
  type NewsletterReportHour,
  type NewsletterReportLink,
  type RecipientReportStatus,
  reportPercent,
} from '@shared/newsletter-report';
import { readableSubject } from '@shared/subject-text';
import type { ColumnDef } from '@tanstack/react-table';
import { ArrowLeft, Download, Link2, Users } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { CartesianGrid, Line, LineChart, XAxis, YAxis } from 'recharts';
import { DataTable } from '@/components/data-table/data-table';
import { QueryError } from '@/components/query-error';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { type ChartConfig, ChartContainer, ChartTooltip, ChartTooltipContent } from '@/components/ui/chart';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDateTime, formatNumber } from '@/lib/format';
import {
  newsletterReportCsvUrl,
  useNewsletterProgress,
  useNewsletterRecipients,
  useNewsletterReport,
} from '../api/newsletters';
import { ArchiveSwitch } from '../components/archive-switch';
import { NewsletterStatusBadge } from '../components/newsletter-status-badge';
import { SendPausedAlert } from '../components/send-paused-alert';
import { SendProgress } from '../components/send-progress';

const chartConfig = {
  opens: { label: 'Opens', color: 'var(--chart-1)' },
  clicks: { label: 'Clicks', color: 'var(--chart-2)' },
} satisfies ChartConfig;

const STATUS_LABELS: Record<RecipientReportStatus, string> = {
  queued: 'Queued',
  sent: 'Delivered',
  opened: 'Opened',
  clicked: 'Clicked',
  bounced: 'Bounced',
  failed: 'Failed',
  unsubscribed: 'Unsubscribed',
  complained: 'Complained',
};

function Stat({
  label,
  value,
  note,
  testId,
}: {
  label: string;
  value: string;
  note?: string;
  testId: string;
}) {
  return (
    <Card className="gap-1 py-4" data-testid={testId}>
      <CardContent className="px-4">
        <p className="text-xs text-muted-foreground">{label}</p>
        <p className="text-2xl font-semibold tabular-nums" data-testid={`${testId}-value`}>
          {value}
        </p>
        {note && <p className="text-xs text-muted-foreground">{note}</p>}
      </CardContent>
    </Card>
  );
}

const linkColumns: ColumnDef<NewsletterReportLink, unknown>[] = [
  {
    accessorKey: 'url',
    header: 'Link',
    meta: { cellClassName: 'max-w-[16rem] truncate sm:max-w-md' },
    cell: ({ row }) => (
      <a
        href={row.original.url}
        target="_blank"
        rel="noreferrer"
        className="underline"
        title={row.original.url}
      >
        {row.original.url}
      </a>
    ),
  },
  {
    accessorKey: 'clicks',
    header: 'Clicks',
    meta: { className: 'text-right' },
    cell: ({ row }) => formatNumber(row.original.clicks),
  },
  {
    accessorKey: 'unique',
    header: 'Unique',
    meta: { className: 'text-right' },
    cell: ({ row }) => formatNumber(row.original.unique),
  },
];

const recipientColumns: ColumnDef<NewsletterRecipientRow, unknown>[] = [
  {
    accessorKey: 'email',
    header: 'Recipient',
    cell: ({ row }) => (
      <div className="min-w-0">
        <p className="truncate">{row.original.email}</p>
        {row.original.name && <p className="truncate text-xs text-muted-foreground">{row.original.name}</p>}
      </div>
    ),
  },
  {
    accessorKey: 'status',
    header: 'Status',
    cell: ({ row }) => (
      <Badge variant="outline" data-testid="recipient-status" data-status={row.original.status}>
        {STATUS_LABELS[row.original.status]}
      </Badge>
    ),
  },
  {
    id: 'sentAt',
    header: 'Sent',
    meta: { className: 'hidden md:table-cell' },
    cell: ({ row }) => (row.original.sentAt ? formatDateTime(row.original.sentAt) : '—'),
  },
  {
    accessorKey: 'opens',
    header: 'Opens',
    meta: { className: 'hidden text-right sm:table-cell' },
    cell: ({ row }) => formatNumber(row.original.opens),
  },
  {
    accessorKey: 'clicks',
    header: 'Clicks',
    meta: { className: 'hidden text-right sm:table-cell' },
    cell: ({ row }) => formatNumber(row.original.clicks),
  },
];

function HoursChart({ hours }: { hours: NewsletterReportHour[] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>First 48 hours</h2>
        </CardTitle>
        <CardDescription>Opens and clicks by people, hour by hour after the send started.</CardDescription>
      </CardHeader>
      <CardContent>
        <ChartContainer
          config={chartConfig}
          className="aspect-auto h-56 w-full"
          data-testid="report-hours-chart"
          aria-label="Opens and clicks by hour over the first 48 hours"
        >
          <LineChart data={hours} margin={{ top: 4, right: 8, left: -16, bottom: 0 }}>
            <CartesianGrid vertical={false} strokeDasharray="3 3" />
            <XAxis
              dataKey="hour"
              tickLine={false}
              axisLine={false}
              tickMargin={6}
              interval={5}
              tickFormatter={(hour: number) => `${hour}h`}
            />
            <YAxis allowDecimals={false} tickLine={false} axisLine={false} width={40} />
            <ChartTooltip
              content={
                <ChartTooltipContent
                  labelFormatter={(_, payload) => {
                    const hour = (payload[0]?.payload as NewsletterReportHour | undefined)?.hour;
                    return hour === undefined ? '' : `Hour ${hour + 1}`;
                  }}
                />
              }
            />
            <Line dataKey="opens" stroke="var(--color-opens)" strokeWidth={2} dot={false} />
            <Line dataKey="clicks" stroke="var(--color-clicks)" strokeWidth={2} dot={false} />
          </LineChart>
        </ChartContainer>
      </CardContent>
    </Card>
  );
}

/** `version` changes as the send moves on (status, delivered), so the statuses follow the report. */
function Recipients({ id, version }: { id: string; version: string }) {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(25);
  const [q, setQ] = useState('');
  // Where each page reached so far starts (the server's `next`), so Next and Previous read the index
  // from there instead of counting past every recipient before; reset with the search or the page size.
  const [starts, setStarts] = useState<Record<number, string>>({});
  const query = useNewsletterRecipients(id, { page, pageSize, q, after: starts[page], version });
  const next = query.data?.next;
  useEffect(() => {
    if (next && !query.isPlaceholderData) {
      setStarts((known) => (known[page + 1] === next ? known : { ...known, [page + 1]: next }));
    }
  }, [next, page, query.isPlaceholderData]);
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Recipients</h2>
        </CardTitle>
        <CardDescription>Each recipient with the furthest their copy got.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        <Input
          type="search"
          placeholder="Search by email"
          value={q}
          onChange={(e) => {
            setQ(e.target.value);
            setStarts({});
            setPage(1);
          }}
          className="max-w-xs"
          aria-label="Search recipients by email"
        />
        {query.isError ? (
          <QueryError title="Could not load recipients" error={query.error} onRetry={() => query.refetch()} />
        ) : (
          <DataTable
            columns={recipientColumns}
            rows={query.data?.items}
            getRowId={(row) => row.id}
            loading={query.isPending}
            stale={query.isPlaceholderData}
            pagination={{
              page,
              pageSize,
              total: query.data?.total,
              onPageChange: setPage,
              onPageSizeChange: (size) => {
                setPageSize(size);
                setStarts({});
                setPage(1);
              },
              noun: 'recipients',
            }}
            empty={{ icon: Users, title: q ? 'No recipient matches' : 'No recipients yet' }}
            testId="report-recipients"
            rowTestId="report-recipient"
          />
        )}
      </CardContent>
    </Card>
  );
}

/** /newsletters/:id/report: what became of a sent (or sending) newsletter or bulk email. */
export default function NewsletterReportPage() {
  const { id } = useParams();
  const query = useNewsletterReport(id);
  const report = query.data;
  // The same query as the pause alert and the progress bar below (shared by its key): the badge reads
  // "Paused" while the send is paused for the user, as the editor's does.
  const progress = useNewsletterProgress(id ?? '', Boolean(id) && report?.status === 'sending');
  const cards = useMemo(() => {
    if (!report) return [];
    const s = report.summary;
    return [
      {
        testId: 'report-delivered',
        label: 'Delivered',
        value: formatNumber(s.delivered),
        note: `of ${formatNumber(s.recipients)} recipients`,
      },
      {
        testId: 'report-opens',
        label: 'Opened',
        value: reportPercent(s.uniqueOpens, s.delivered),
        note: `${formatNumber(s.uniqueOpens)} people, ${formatNumber(s.opens)} opens; ${formatNumber(s.machineOpens)} by machines`,
      },
      {
        testId: 'report-clicks',
        label: 'Clicked',
        value: reportPercent(s.uniqueClickers, s.delivered),
        note: `${formatNumber(s.uniqueClickers)} people, ${formatNumber(s.clicks)} clicks; ${formatNumber(s.machineClicks)} by scanners`,
      },
      {
        testId: 'report-bounces',
        label: 'Bounced',
        value: formatNumber(s.bounces),
        note: `${formatNumber(s.failed)} not sent`,
      },
      { testId: 'report-unsubscribes', label: 'Unsubscribed', value: formatNumber(s.unsubscribes) },
      { testId: 'report-complaints', label: 'Complaints', value: formatNumber(s.complaints) },
    ];
  }, [report]);

  if (query.isError) {
    return (
      <QueryError title="Could not load this report" error={query.error} onRetry={() => query.refetch()} />
    );
  }
  if (!report || !id) {
    return (
      <div className="space-y-4 p-1">
        <Skeleton className="h-10 w-1/2" />
        <Skeleton className="h-64" />
      </div>
    );
  }
  return (
    <div className="space-y-4" data-testid="newsletter-report">
      <div className="flex flex-wrap items-center gap-2">
        <Button asChild variant="ghost" size="sm">
          <Link to={report.kind === 'bulk' ? '/newsletters?tab=bulk' : '/newsletters'}>
            <ArrowLeft className="size-4" /> Newsletters
          </Link>
        </Button>
        <NewsletterStatusBadge status={report.status} paused={progress.data?.paused ?? false} />
        <Button asChild variant="outline" size="sm" className="ml-auto">
          <a href={newsletterReportCsvUrl(id)} download data-testid="report-export">
            <Download className="size-4" /> Export CSV
          </a>
        </Button>
      </div>
      <div className="min-w-0">
        <h1 className="truncate text-2xl font-semibold">{report.name}</h1>
        <p className="truncate text-sm text-muted-foreground">{readableSubject(report.subject)}</p>
        {report.sentAt && (
          <p className="text-xs text-muted-foreground">Sent {formatDateTime(report.sentAt)}</p>
        )}
        <div className="mt-2">
          <ArchiveSwitch id={id} />
        </div>
      </div>
      {report.status === 'sending' && (
        <>
          <SendPausedAlert id={id} name={report.name} />
          <SendProgress id={id} />
        </>
      )}
      <div className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6">
        {cards.map((card) => (
          <Stat key={card.testId} {...card} />
        ))}
      </div>
      <HoursChart hours={report.hours} />
      <Card>
        <CardHeader>
          <CardTitle>
            <h2>Links</h2>
          </CardTitle>
          <CardDescription>Clicks by people on each link (scanners apart).</CardDescription>
        </CardHeader>
        <CardContent>
          <DataTable
            columns={linkColumns}
            rows={report.links}
            getRowId={(row) => row.url}
            empty={{ icon: Link2, title: 'No clicks yet' }}
            testId="report-links"
            rowTestId="report-link"
          />
        </CardContent>
      </Card>
      <Recipients id={id} version={`${report.status}:${report.summary.delivered}`} />
    </div>
  );
}
