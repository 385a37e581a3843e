import type { DatabaseDownloadSummary } from '@shared/database-download';
import { Download, Info, Search } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { QueryError } from '@/components/query-error';
import { SubscriptionBlocked } from '@/components/subscription-blocked';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Progress } from '@/components/ui/progress';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { useAuth } from '@/hooks/use-auth';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/errors';
import { formatDate, formatDateTime, formatNumber } from '@/lib/format';
import { useDatabaseDownloadSummary, useStartDatabaseDownload } from '../api/database-download';

/**
 * /database-download: the directory contacts a subscriber added to their lists, as a spreadsheet-safe
 * CSV with each record's source and verification. The plan's monthly allowance is counted in rows.
 */
export default function DatabaseDownloadPage() {
  const { user } = useAuth();
  const summary = useDatabaseDownloadSummary();

  if (summary.isPending) {
    return (
      <div className="mx-auto w-full max-w-4xl space-y-4">
        <Skeleton className="h-8 w-64" />
        <Skeleton className="h-40 w-full" />
      </div>
    );
  }
  if (summary.isError)
    return (
      <QueryError
        title="Could not load your downloads"
        error={summary.error}
        onRetry={() => summary.refetch()}
      />
    );
  if (summary.data.allowance.limit === 0 && user) {
    return <SubscriptionBlocked issue="free_plan" user={user} />;
  }
  return <DownloadScreen summary={summary.data} />;
}

function DownloadScreen({ summary }: { summary: DatabaseDownloadSummary }) {
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const start = useStartDatabaseDownload();
  const { allowance } = summary;
  const withContacts = summary.lists.filter((l) => l.directoryContacts > 0);
  const picked = chosen.size > 0 ? withContacts.filter((l) => chosen.has(l.id)) : withContacts;
  // A record in two lists is one row in the file, so the sum is an upper bound.
  const upTo = picked.reduce((sum, l) => sum + l.directoryContacts, 0);
  const remaining = allowance.remaining;
  const tooMany = remaining !== null && upTo > remaining;

  const toggle = (id: string, on: boolean) =>
    setChosen((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const download = (maxRows?: number) =>
    start.mutate(
      { listIds: [...chosen], ...(maxRows ? { maxRows } : {}) },
      {
        onSuccess: ({ rows, fileName }) =>
          toast({
            title: 'Download ready',
            description: `${formatNumber(rows)} ${rows === 1 ? 'contact' : 'contacts'} saved as ${fileName}.`,
          }),
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: 'Download refused',
            description: getErrorMessage(error, 'Please try again.'),
          }),
      },
    );

  return (
    <div className="mx-auto w-full max-w-4xl space-y-6" data-testid="database-download-page">
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">Database Download</h1>
        <p className="text-muted-foreground">
          Download the Tambari database contacts you added to your lists as a CSV that opens safely in Excel,
          Google Sheets or your CRM, with where each record came from and when it was verified.
        </p>
      </header>

      <Card data-testid="download-allowance">
        <CardHeader>
          <CardTitle>This month’s allowance</CardTitle>
          <CardDescription>
            {allowance.limit < 0
              ? `Your ${allowance.planName} plan has unlimited downloads.`
              : `Your ${allowance.planName} plan includes ${formatNumber(allowance.limit)} contacts a month. It renews on ${formatDate(allowance.renewsAt)}.`}
          </CardDescription>
        </CardHeader>
        {allowance.limit > 0 && (
          <CardContent className="space-y-2">
            <Progress
              value={Math.min(100, (allowance.usedThisMonth / allowance.limit) * 100)}
              aria-label="Allowance used this month"
            />
            <p className="text-sm" data-testid="download-allowance-used">
              {formatNumber(allowance.usedThisMonth)} of {formatNumber(allowance.limit)} used ·{' '}
              {formatNumber(remaining ?? 0)} left
            </p>
          </CardContent>
        )}
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Choose lists</CardTitle>
          <CardDescription>
            Only contacts you added from Browse Contacts are downloaded; contacts you imported yourself are
            already yours. With no list ticked, every list is included.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          {withContacts.length === 0 ? (
            <div className="rounded-lg border border-dashed p-6 text-center" data-testid="download-empty">
              <p className="font-medium">None of your lists holds database contacts yet.</p>
              <p className="mt-1 text-sm text-muted-foreground">
                Find businesses in Browse Contacts and add them to a list; they can be downloaded here.
              </p>
              <Button asChild variant="outline" className="mt-4">
                <Link to="/lead-discovery">
                  <Search aria-hidden="true" />
                  Browse Contacts
                </Link>
              </Button>
            </div>
          ) : (
            <ul className="divide-y rounded-lg border" data-testid="download-lists">
              {summary.lists.map((list) => {
                const id = `download-list-${list.id}`;
                const empty = list.directoryContacts === 0;
                return (
                  <li key={list.id} className="flex items-center gap-3 px-4 py-3">
                    <Checkbox
                      id={id}
                      checked={chosen.has(list.id)}
                      disabled={empty}
                      onCheckedChange={(value) => toggle(list.id, value === true)}
                    />
                    <label htmlFor={id} className="min-w-0 flex-1 truncate text-sm font-medium">
                      {list.name}
                    </label>
                    <span className="shrink-0 text-sm text-muted-foreground">
                      {empty ? 'No database contacts' : `${formatNumber(list.directoryContacts)} contacts`}
                    </span>
                  </li>
                );
              })}
            </ul>
          )}

          {withContacts.length > 0 && tooMany && remaining !== null && (
            <Alert data-testid="download-over-allowance">
              <Info aria-hidden="true" />
              <AlertTitle>
                {remaining === 0 ? 'No downloads left this month' : 'More contacts than your allowance left'}
              </AlertTitle>
              <AlertDescription>
                {remaining === 0
                  ? `Your allowance renews on ${formatDate(allowance.renewsAt)}, or upgrade for more.`
                  : `You chose up to ${formatNumber(upTo)} contacts and have ${formatNumber(remaining)} left this month. Download the first ${formatNumber(remaining)}, or upgrade for more.`}
              </AlertDescription>
            </Alert>
          )}

          {withContacts.length > 0 && (
            <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
              {tooMany && remaining !== null ? (
                <>
                  <Button
                    onClick={() => download(remaining)}
                    disabled={remaining === 0 || start.isPending}
                    data-testid="download-first-n"
                  >
                    <Download aria-hidden="true" />
                    Download the first {formatNumber(remaining)}
                  </Button>
                  <Button asChild variant="outline">
                    <Link to="/pricing">Upgrade</Link>
                  </Button>
                </>
              ) : (
                <Button onClick={() => download()} disabled={start.isPending} data-testid="download-start">
                  <Download aria-hidden="true" />
                  {start.isPending ? 'Preparing…' : `Download up to ${formatNumber(upTo)} contacts`}
                </Button>
              )}
            </div>
          )}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Your downloads</CardTitle>
          <CardDescription>Every download is recorded, with the lists it came from.</CardDescription>
        </CardHeader>
        <CardContent>
          {summary.history.length === 0 ? (
            <p className="text-sm text-muted-foreground">No downloads yet.</p>
          ) : (
            <div className="overflow-x-auto">
              <Table data-testid="download-history">
                <TableHeader>
                  <TableRow>
                    <TableHead>When</TableHead>
                    <TableHead className="text-right">Contacts</TableHead>
                    <TableHead>Lists</TableHead>
                    <TableHead>File</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {summary.history.map((entry) => (
                    <TableRow key={entry.id}>
                      <TableCell className="whitespace-nowrap">{formatDateTime(entry.createdAt)}</TableCell>
                      <TableCell className="text-right">{formatNumber(entry.rowCount)}</TableCell>
                      <TableCell>{entry.lists.length > 0 ? entry.lists.join(', ') : 'All lists'}</TableCell>
                      <TableCell className="whitespace-nowrap text-muted-foreground">
                        {entry.fileName}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </div>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
