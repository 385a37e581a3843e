import { categoryName } from '@shared/categories';
import { DATA_ENTRY_QUEUE_LABELS, type OfficerRow, THROUGHPUT_DAYS } from '@shared/data-entry';
import { ClipboardCheck, Settings2, UserCog } from 'lucide-react';
import { useState } from 'react';
import { PagerPagination } from '@/components/cursor-pagination';
import { QueryError } from '@/components/query-error';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { useCursorPages } from '@/hooks/use-cursor-pages';
import { countryLabel, useCountries } from '@/hooks/use-reference';
import { formatDate, formatNumber } from '@/lib/format';
import { DATA_REFRESH_MS, PAGE_SIZE, useOfficers } from '../api/admin-data';
import { AssignmentDialog } from '../components/assignment-dialog';
import { CardField, SkeletonRows } from '../components/card-parts';
import { MonitorFreshness } from '../components/monitor-freshness';
import { ReviewSampleDialog } from '../components/review-sample-dialog';

function AssignmentCell({ row }: { row: OfficerRow }) {
  const { byCode } = useCountries();
  const a = row.assignment;
  const scope = [
    a.countryCode ? countryLabel(byCode, a.countryCode) : null,
    a.category ? categoryName(a.category) : null,
  ]
    .filter(Boolean)
    .join(' · ');
  return (
    <div className="space-y-1 text-sm" data-testid="officer-assignment">
      <div>{scope || <span className="text-muted-foreground">Any country and category</span>}</div>
      <div className="flex flex-wrap gap-1">
        <Badge variant="outline">{DATA_ENTRY_QUEUE_LABELS[a.queue]}</Badge>
        {a.strict && <Badge variant="secondary">Strict</Badge>}
      </div>
    </div>
  );
}

function QuotaCell({ row }: { row: OfficerRow }) {
  const quota = row.assignment.dailyQuota;
  const share = quota ? Math.min(1, row.enteredToday / quota) : 0;
  return (
    <div className="whitespace-nowrap" data-testid="officer-quota">
      <div className="tabular-nums">
        {formatNumber(row.enteredToday)}
        {quota ? ` / ${formatNumber(quota)}` : ''}
      </div>
      {quota ? (
        <div className="mt-1 h-1.5 w-20 rounded bg-muted" aria-hidden="true">
          <div
            className={`h-1.5 rounded ${share >= 1 ? 'bg-success' : 'bg-primary'}`}
            style={{ width: `${share * 100}%` }}
          />
        </div>
      ) : (
        <div className="text-xs text-muted-foreground">No quota</div>
      )}
    </div>
  );
}

/** Fourteen bars, one a day (UTC), oldest first: records entered. */
function ThroughputCell({ row }: { row: OfficerRow }) {
  const max = Math.max(1, ...row.daily.map((d) => d.entered));
  return (
    <div className="space-y-1">
      <div
        className="flex h-8 items-end gap-0.5"
        role="img"
        aria-label={`${row.entered14d} records entered in ${THROUGHPUT_DAYS} days`}
      >
        {row.daily.map((day) => (
          <div
            key={day.date}
            className="w-1.5 rounded-sm bg-primary/70"
            style={{
              height: `${Math.max(4, (day.entered / max) * 100)}%`,
              opacity: day.entered === 0 ? 0.25 : 1,
            }}
            title={`${formatDate(day.date)}: ${day.entered} entered, ${day.checked} checked`}
          />
        ))}
      </div>
      <div className="text-xs text-muted-foreground tabular-nums" data-testid="officer-throughput">
        {formatNumber(row.entered14d)} in {THROUGHPUT_DAYS} days · {formatNumber(row.totalEntered)} in all
      </div>
    </div>
  );
}

function QualityCell({ row }: { row: OfficerRow }) {
  const q = row.quality;
  if (q.reviewed === 0) return <span className="text-sm text-muted-foreground">Not reviewed yet</span>;
  const accuracy = q.accuracy ?? 0;
  return (
    <div className="text-sm tabular-nums" data-testid="officer-quality">
      <div className={accuracy < 0.9 ? 'text-destructive' : ''}>{Math.round(accuracy * 100)}% correct</div>
      <div className="text-xs text-muted-foreground">
        {q.reviewed} reviewed · {q.corrected} corrected · {q.invalid} invalid
      </div>
    </div>
  );
}

function Actions({ onEdit, onReview }: { onEdit: () => void; onReview: () => void }) {
  return (
    <div className="flex flex-wrap justify-end gap-2">
      <Button variant="outline" size="sm" onClick={onEdit} data-testid="edit-assignment">
        <Settings2 aria-hidden="true" /> Assignment
      </Button>
      <Button variant="outline" size="sm" onClick={onReview} data-testid="review-sample">
        <ClipboardCheck aria-hidden="true" /> Review sample
      </Button>
    </div>
  );
}

/** Data entry officers: assignments, quotas, throughput and quality from sampled second reviews. */
export default function DataEntryManagementPage() {
  const pager = useCursorPages('officers');
  const list = useOfficers(pager.cursor ?? undefined);
  const [editing, setEditing] = useState<OfficerRow | null>(null);
  const [reviewing, setReviewing] = useState<OfficerRow | null>(null);
  const officers = list.data?.officers;

  return (
    <div
      className="mx-auto flex w-full max-w-7xl flex-1 flex-col gap-6"
      data-testid="data-entry-management-page"
    >
      <header className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold tracking-tight">Data Entry Management</h1>
          <p className="text-muted-foreground">
            Data entry officers, what they are assigned to, today's records against their quota, the records
            they entered each day for two weeks, and their quality: the share of a random sample found correct
            on a second review.
          </p>
        </div>
        <MonitorFreshness
          updatedAt={list.dataUpdatedAt}
          fetching={list.isFetching}
          onRefresh={() => list.refetch()}
          intervalSeconds={DATA_REFRESH_MS / 1000}
        />
      </header>

      {list.isError && (
        <QueryError title="Officers could not be loaded" error={list.error} onRetry={() => list.refetch()} />
      )}

      {!list.isError && officers?.length === 0 ? (
        <div
          className="flex flex-col items-center gap-2 rounded-lg border border-dashed px-6 py-10 text-center"
          data-testid="officers-empty"
        >
          <UserCog className="size-8 text-muted-foreground" aria-hidden="true" />
          <p className="font-medium">No data entry officers yet</p>
          <p className="max-w-md text-sm text-muted-foreground">
            Give a user the Data Entry Officer role on the Users screen; they appear here with their work.
          </p>
        </div>
      ) : (
        !list.isError && (
          <>
            <div className="hidden overflow-x-auto rounded-lg border lg:block">
              <Table data-testid="officers-table">
                <TableHeader>
                  <TableRow>
                    <TableHead>Officer</TableHead>
                    <TableHead>Assignment</TableHead>
                    <TableHead>Today / quota</TableHead>
                    <TableHead>Entered per day</TableHead>
                    <TableHead>Quality</TableHead>
                    <TableHead className="sr-only">Actions</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {officers ? (
                    officers.map((row) => (
                      <TableRow key={row.id} data-testid="officer-row">
                        <TableCell className="max-w-56">
                          <div className="truncate font-medium">{row.name || row.email}</div>
                          <div className="truncate text-xs text-muted-foreground">{row.email}</div>
                          {row.suspended && <Badge variant="destructive">Suspended</Badge>}
                        </TableCell>
                        <TableCell>
                          <AssignmentCell row={row} />
                        </TableCell>
                        <TableCell>
                          <QuotaCell row={row} />
                        </TableCell>
                        <TableCell>
                          <ThroughputCell row={row} />
                        </TableCell>
                        <TableCell>
                          <QualityCell row={row} />
                        </TableCell>
                        <TableCell>
                          <Actions onEdit={() => setEditing(row)} onReview={() => setReviewing(row)} />
                        </TableCell>
                      </TableRow>
                    ))
                  ) : (
                    <SkeletonRows rows={3} cells={6} />
                  )}
                </TableBody>
              </Table>
            </div>
            <ul className="space-y-3 lg:hidden" data-testid="officers-cards">
              {officers
                ? officers.map((row) => (
                    <li
                      key={row.id}
                      className="space-y-3 rounded-lg border bg-card p-4"
                      data-testid="officer-row"
                    >
                      <div className="min-w-0">
                        <p className="truncate font-medium">{row.name || row.email}</p>
                        <p className="truncate text-xs text-muted-foreground">{row.email}</p>
                      </div>
                      <dl className="grid grid-cols-2 gap-3">
                        <CardField label="Assignment" className="col-span-2">
                          <AssignmentCell row={row} />
                        </CardField>
                        <CardField label="Today / quota">
                          <QuotaCell row={row} />
                        </CardField>
                        <CardField label="Quality">
                          <QualityCell row={row} />
                        </CardField>
                        <CardField label="Entered per day" className="col-span-2">
                          <ThroughputCell row={row} />
                        </CardField>
                      </dl>
                      <Actions onEdit={() => setEditing(row)} onReview={() => setReviewing(row)} />
                    </li>
                  ))
                : [0, 1].map((index) => <Skeleton key={index} className="h-48 w-full" />)}
            </ul>
          </>
        )
      )}

      {list.data && (
        <PagerPagination
          pager={pager}
          pageSize={PAGE_SIZE}
          rows={list.data.officers.length}
          nextCursor={list.data.nextCursor}
          busy={list.isFetching}
          noun="officers"
        />
      )}

      <AssignmentDialog officer={editing} onClose={() => setEditing(null)} />
      <ReviewSampleDialog officer={reviewing} onClose={() => setReviewing(null)} />
    </div>
  );
}
