import type { ImportSummary } from '@shared/imports';
import { AlertCircle, CheckCircle2, Download, FileUp, Info, ListChecks } from 'lucide-react';
import { Link } from 'react-router';
import { CursorPagination } from '@/components/cursor-pagination';
import { QueryError } from '@/components/query-error';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { useCursorPages } from '@/hooks/use-cursor-pages';
import { formatDateTime, formatNumber } from '@/lib/format';
import { importReportUrl, useImportRejections } from '../../api/imports';
import { rejectedRows, unchangedMessage } from '../../lib/import-progress';
import { ImportCounts } from './progress-step';

const MAX_VALUE_COLUMNS = 4;

function RejectionsTable({ summary }: { summary: ImportSummary }) {
  const pager = useCursorPages(summary.id);
  const after = Number(pager.cursor ?? 0);
  const rejections = useImportRejections(summary.id, after, true);
  const data = rejections.data;
  const columns = (data?.columns ?? []).slice(0, MAX_VALUE_COLUMNS);
  const rows = data?.rows;

  if (rejections.isError && !data) {
    return (
      <QueryError
        title="The rejected rows could not be loaded"
        error={rejections.error}
        onRetry={() => rejections.refetch()}
      />
    );
  }
  return (
    <div className="grid gap-3">
      <div
        className={`overflow-x-auto rounded-lg border ${rejections.isPlaceholderData ? 'opacity-60' : ''}`}
      >
        <Table data-testid="import-rejections">
          <TableHeader>
            <TableRow className="bg-muted/40 hover:bg-muted/40">
              <TableHead className="w-16 text-right">Line</TableHead>
              <TableHead>Reason</TableHead>
              {columns.map((column) => (
                <TableHead key={column} className="hidden md:table-cell">
                  {column}
                </TableHead>
              ))}
            </TableRow>
          </TableHeader>
          <TableBody>
            {!rows
              ? Array.from({ length: 4 }, (_, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: placeholders
                  <TableRow key={index}>
                    <TableCell colSpan={2 + columns.length}>
                      <Skeleton className="h-4 w-full" />
                    </TableCell>
                  </TableRow>
                ))
              : rows.map((row) => (
                  <TableRow key={row.line} data-testid="rejection-row">
                    <TableCell className="text-right tabular-nums text-muted-foreground">
                      {row.line}
                    </TableCell>
                    <TableCell className="whitespace-nowrap" data-testid="rejection-reason">
                      {row.reason}
                    </TableCell>
                    {columns.map((column, index) => (
                      <TableCell
                        key={column}
                        className="hidden max-w-48 truncate md:table-cell"
                        title={row.values[index]}
                      >
                        {row.values[index] ?? ''}
                      </TableCell>
                    ))}
                  </TableRow>
                ))}
          </TableBody>
        </Table>
      </div>
      {rows && rows.length > 0 && (pager.hasPrevious || data?.nextAfter !== null) && (
        <CursorPagination
          from={0}
          to={rows.length}
          hasPrevious={pager.hasPrevious}
          hasNext={data?.nextAfter !== null && data?.nextAfter !== undefined}
          onPrevious={pager.goPrevious}
          onNext={() => pager.goNext(data?.nextAfter != null ? String(data.nextAfter) : null)}
          busy={rejections.isPlaceholderData && rejections.isFetching}
          noun="rows"
        />
      )}
    </div>
  );
}

function destinationLink(summary: ImportSummary): { to: string; label: string } {
  if (summary.target === 'suppression')
    return { to: '/lead-discovery?tab=suppression', label: 'View suppression list' };
  if (summary.target === 'directory')
    return { to: '/admin/contact-database', label: 'Open the contact database' };
  return summary.listId
    ? { to: `/lead-discovery/lists/${summary.listId}`, label: 'View list' }
    : { to: '/lead-discovery?tab=lists', label: 'View lists' };
}

/** The finished import: what came in, what did not and why, the CSV report, and the way on. */
export function ReportStep({ summary, onRestart }: { summary: ImportSummary; onRestart: () => void }) {
  const destination = destinationLink(summary);
  const rejected = rejectedRows(summary);
  const completed = summary.status === 'completed';

  return (
    <div className="grid gap-6" data-testid="import-report-step" data-status={summary.status}>
      {completed ? (
        <Alert variant="success" data-testid="import-complete">
          <CheckCircle2 aria-hidden="true" />
          <AlertTitle>Import complete</AlertTitle>
          <AlertDescription>
            {formatNumber(summary.importedRows)} of {formatNumber(summary.totalRows ?? summary.processedRows)}{' '}
            rows from {summary.fileName} were imported
            {summary.finishedAt ? ` (${formatDateTime(summary.finishedAt)})` : ''}.
          </AlertDescription>
        </Alert>
      ) : (
        <Alert variant="destructive" data-testid="import-unchanged">
          <AlertCircle aria-hidden="true" />
          <AlertTitle>{summary.status === 'cancelled' ? 'Import cancelled' : 'Import failed'}</AlertTitle>
          <AlertDescription>
            {summary.errorMessage && summary.status === 'failed' && <p>{summary.errorMessage}</p>}
            <p>{unchangedMessage(summary)}</p>
          </AlertDescription>
        </Alert>
      )}

      {completed && <ImportCounts summary={summary} />}
      {completed && summary.emptyRows > 0 && (
        <p className="flex items-start gap-2 text-sm text-muted-foreground" data-testid="import-empty-rows">
          <Info className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          {formatNumber(summary.emptyRows)} empty {summary.emptyRows === 1 ? 'row was' : 'rows were'} skipped.
        </p>
      )}
      {completed && summary.roleAddressRows > 0 && (
        <p className="flex items-start gap-2 text-sm text-muted-foreground">
          <Info className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          {formatNumber(summary.roleAddressRows)} imported{' '}
          {summary.roleAddressRows === 1 ? 'address is' : 'addresses are'} a shared mailbox (info@, sales@…).
          They are marked “Role” in the list.
        </p>
      )}

      {completed && rejected > 0 && (
        <section className="grid gap-3" aria-labelledby="rejected-heading">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h3 id="rejected-heading" className="font-semibold">
              {formatNumber(rejected)} {rejected === 1 ? 'row was' : 'rows were'} not imported
            </h3>
            <Button variant="outline" size="sm" asChild>
              <a href={importReportUrl(summary.id)} download data-testid="download-report">
                <Download aria-hidden="true" />
                Download report (CSV)
              </a>
            </Button>
          </div>
          <RejectionsTable summary={summary} />
        </section>
      )}

      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onRestart} data-testid="import-another">
          <FileUp aria-hidden="true" />
          Import another file
        </Button>
        <Button asChild>
          <Link to={destination.to} data-testid="view-destination">
            <ListChecks aria-hidden="true" />
            {destination.label}
          </Link>
        </Button>
      </div>
    </div>
  );
}
