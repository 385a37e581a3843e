import { LIST_FLAG_LIMITS, type UserListRow } from '@shared/admin-data';
import { AlertTriangle, ListX, Lock, Unlock } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { PagerPagination } from '@/components/cursor-pagination';
import { FilterSelect } from '@/components/filter-select';
import { QueryError } from '@/components/query-error';
import { SearchInput } from '@/components/search-input';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { Textarea } from '@/components/ui/textarea';
import { useCursorPages } from '@/hooks/use-cursor-pages';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/errors';
import { formatDate, formatNumber } from '@/lib/format';
import { DATA_REFRESH_MS, PAGE_SIZE, useListFreeze, useUserLists } from '../api/admin-data';
import { CardField, SkeletonRows } from '../components/card-parts';
import { MonitorFreshness } from '../components/monitor-freshness';
import { useConfirmedAction } from '../hooks/use-confirmed-action';

function percent(rate: number): string {
  return `${(rate * 100).toFixed(rate > 0 && rate < 0.1 ? 1 : 0)}%`;
}

function Rates({ row }: { row: UserListRow }) {
  if (row.sent === 0) return <span className="text-sm text-muted-foreground">Never sent</span>;
  const risky =
    row.bounceRate >= LIST_FLAG_LIMITS.bounceRate || row.complaintRate >= LIST_FLAG_LIMITS.complaintRate;
  return (
    <div className="text-sm tabular-nums whitespace-nowrap" data-testid="list-rates">
      <div className={risky ? 'text-destructive' : ''}>
        {percent(row.bounceRate)} bounce
        <br />
        {percent(row.complaintRate)} compl.
      </div>
      <div className="text-xs text-muted-foreground">
        {formatNumber(row.sent)} sent · {row.campaigns} send{row.campaigns === 1 ? '' : 's'}
      </div>
    </div>
  );
}

function Sample({ row }: { row: UserListRow }) {
  if (row.sampleSize === 0) return <span className="text-sm text-muted-foreground">Empty</span>;
  return (
    <div className="text-sm tabular-nums whitespace-nowrap" title={`Of the first ${row.sampleSize} members`}>
      {percent(row.roleShare)} role
      <br />
      {percent(row.disposableShare)} disposable
      <div className="text-xs text-muted-foreground">
        {Object.entries(row.sources)
          .map(([source, n]) => `${source.replace('_', ' ')} ${formatNumber(n)}`)
          .join(' · ')}
      </div>
    </div>
  );
}

function Imports({ row }: { row: UserListRow }) {
  if (row.imports.count === 0) return <span className="text-sm text-muted-foreground">No imports</span>;
  return (
    <div className="max-w-48 text-sm">
      <div className="truncate" title={row.imports.files.join(', ')}>
        {row.imports.files.join(', ')}
      </div>
      <div className="text-xs text-muted-foreground">
        {row.imports.count} import{row.imports.count === 1 ? '' : 's'} ·{' '}
        {formatNumber(row.imports.invalidRows)} of {formatNumber(row.imports.processedRows)} rows invalid
      </div>
    </div>
  );
}

function Flag({ row }: { row: UserListRow }) {
  return (
    <div className="space-y-1">
      {row.frozen && (
        <Badge variant="destructive" data-testid="frozen-badge">
          <Lock aria-hidden="true" /> Frozen
        </Badge>
      )}
      {row.frozen && row.frozenReason && <p className="text-xs text-muted-foreground">{row.frozenReason}</p>}
      {row.flagReasons.length > 0 ? (
        <div data-testid="flag-reasons">
          <Badge variant="warning">
            <AlertTriangle aria-hidden="true" /> Looks bought or scraped
          </Badge>
          <ul className="mt-1 list-disc pl-4 text-xs text-muted-foreground">
            {row.flagReasons.map((reason) => (
              <li key={reason}>{reason}</li>
            ))}
          </ul>
        </div>
      ) : (
        !row.frozen && <span className="text-sm text-muted-foreground">No warning signs</span>
      )}
    </div>
  );
}

function Action({
  row,
  onFreeze,
  onUnfreeze,
}: {
  row: UserListRow;
  onFreeze: () => void;
  onUnfreeze: () => void;
}) {
  return row.frozen ? (
    <Button variant="outline" size="sm" onClick={onUnfreeze} data-testid="unfreeze-list">
      <Unlock aria-hidden="true" /> Unfreeze
    </Button>
  ) : (
    <Button variant="outline" size="sm" onClick={onFreeze} data-testid="freeze-list">
      <Lock aria-hidden="true" /> Freeze
    </Button>
  );
}

function FreezeDialog({ list, onClose }: { list: UserListRow | null; onClose: () => void }) {
  const freeze = useListFreeze();
  const [reason, setReason] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!list) return;
    freeze.mutate(
      { id: list.id, action: 'freeze', reason },
      {
        onSuccess: (result) => {
          toast({ title: 'Done', description: result.message });
          setReason('');
          onClose();
        },
      },
    );
  };
  return (
    <Dialog open={list !== null} onOpenChange={(open) => !open && !freeze.isPending && onClose()}>
      <DialogContent data-testid="freeze-dialog">
        <form onSubmit={submit} className="space-y-4">
          <DialogHeader>
            <DialogTitle>Freeze this list?</DialogTitle>
            <DialogDescription>
              <strong>{list?.name}</strong> (owner {list?.ownerEmail}) cannot be sent to, imported into or
              added to until you unfreeze it. The owner sees your reason when they try. The audit log records
              it.
            </DialogDescription>
          </DialogHeader>
          <div className="space-y-2">
            <Label htmlFor="freeze-reason">Reason shown to the owner</Label>
            <Textarea
              id="freeze-reason"
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              maxLength={300}
              placeholder="e.g. 12% of the addresses bounced: the list looks bought"
              data-testid="freeze-reason"
            />
          </div>
          {freeze.isError && (
            <p className="text-sm text-destructive" role="alert">
              {getErrorMessage(freeze.error, 'The list could not be frozen.')}
            </p>
          )}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose} disabled={freeze.isPending}>
              Cancel
            </Button>
            <Button
              type="submit"
              variant="destructive"
              disabled={reason.trim().length < 3 || freeze.isPending}
              data-testid="freeze-confirm"
            >
              {freeze.isPending ? 'Freezing…' : 'Freeze list'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** Every user's lists with their health; freeze a list that looks bought or scraped. */
export default function UserListsPage() {
  const [search, setSearch] = useState('');
  const [frozen, setFrozen] = useState<'true' | 'false' | undefined>(undefined);
  const debounced = useDebouncedValue(search.trim(), 300);
  const pager = useCursorPages(JSON.stringify([debounced, frozen]));
  const page = useUserLists({ search: debounced || undefined, frozen, cursor: pager.cursor ?? undefined });
  const [freezing, setFreezing] = useState<UserListRow | null>(null);
  const unfreeze = useConfirmedAction(useListFreeze(), (row: UserListRow) => ({
    id: row.id,
    action: 'unfreeze' as const,
  }));
  const lists = page.data?.lists;

  return (
    <div className="mx-auto flex w-full max-w-7xl flex-1 flex-col gap-6" data-testid="user-lists-page">
      <header className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold tracking-tight">User Lists</h1>
          <p className="text-muted-foreground">
            Every user's lists, biggest first: bounce and complaint rates of the sends that used them, role
            and disposable addresses among their first members, and where they were imported from. A list that
            looks bought or scraped is flagged with the figures behind it.
          </p>
          {page.data && (
            <p className="text-sm text-muted-foreground" data-testid="list-totals">
              {formatNumber(page.data.totals.lists)} lists · {formatNumber(page.data.totals.frozen)} frozen
            </p>
          )}
        </div>
        <MonitorFreshness
          updatedAt={page.dataUpdatedAt}
          fetching={page.isFetching}
          onRefresh={() => page.refetch()}
          intervalSeconds={DATA_REFRESH_MS / 1000}
        />
      </header>

      <search className="flex flex-col gap-3 sm:flex-row sm:items-center" aria-label="Filter lists">
        <SearchInput
          className="flex-1 sm:max-w-sm"
          value={search}
          onChange={setSearch}
          placeholder="Search by list name or owner email"
          aria-label="Search lists"
          maxLength={200}
          data-testid="user-lists-search"
        />
        <FilterSelect
          value={frozen}
          onChange={setFrozen}
          allLabel="All lists"
          options={['true', 'false'] as const}
          optionLabel={(value) => ({ true: 'Frozen', false: 'Not frozen' })[value]}
          className="w-full sm:w-44"
          aria-label="Filter by state"
        />
      </search>

      {page.isError && (
        <QueryError title="Lists could not be loaded" error={page.error} onRetry={() => page.refetch()} />
      )}

      {!page.isError && lists?.length === 0 ? (
        <div
          className="flex flex-col items-center gap-2 rounded-lg border border-dashed px-6 py-10 text-center"
          data-testid="user-lists-empty"
        >
          <ListX className="size-8 text-muted-foreground" aria-hidden="true" />
          <p className="font-medium">
            {debounced || frozen ? 'No list matches these filters' : 'No user has made a list yet'}
          </p>
        </div>
      ) : (
        !page.isError && (
          <>
            <div className="hidden overflow-x-auto rounded-lg border lg:block">
              <Table data-testid="user-lists-table">
                <TableHeader>
                  <TableRow>
                    <TableHead>List</TableHead>
                    <TableHead className="text-right">Size</TableHead>
                    <TableHead>Bounces · complaints</TableHead>
                    <TableHead>Members (sample)</TableHead>
                    <TableHead>Imports</TableHead>
                    <TableHead>Flag</TableHead>
                    <TableHead className="sr-only">Actions</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {lists ? (
                    lists.map((row) => (
                      <TableRow key={row.id} data-testid="user-list-row">
                        <TableCell className="max-w-56">
                          <div className="truncate font-medium" title={row.name}>
                            {row.name}
                          </div>
                          <div className="truncate text-xs text-muted-foreground" title={row.ownerEmail}>
                            {row.ownerEmail} · {formatDate(row.createdAt)}
                          </div>
                        </TableCell>
                        <TableCell className="text-right tabular-nums">{formatNumber(row.size)}</TableCell>
                        <TableCell>
                          <Rates row={row} />
                        </TableCell>
                        <TableCell>
                          <Sample row={row} />
                        </TableCell>
                        <TableCell>
                          <Imports row={row} />
                        </TableCell>
                        <TableCell className="max-w-64 whitespace-normal">
                          <Flag row={row} />
                        </TableCell>
                        <TableCell className="text-right">
                          <Action
                            row={row}
                            onFreeze={() => setFreezing(row)}
                            onUnfreeze={() => unfreeze.ask(row)}
                          />
                        </TableCell>
                      </TableRow>
                    ))
                  ) : (
                    <SkeletonRows rows={4} cells={7} />
                  )}
                </TableBody>
              </Table>
            </div>
            <ul className="space-y-3 lg:hidden" data-testid="user-lists-cards">
              {lists
                ? lists.map((row) => (
                    <li
                      key={row.id}
                      className="space-y-3 rounded-lg border bg-card p-4"
                      data-testid="user-list-row"
                    >
                      <div className="flex items-start justify-between gap-3">
                        <div className="min-w-0">
                          <p className="truncate font-medium">{row.name}</p>
                          <p className="truncate text-xs text-muted-foreground">
                            {row.ownerEmail} · {formatNumber(row.size)} contacts
                          </p>
                        </div>
                        <Action
                          row={row}
                          onFreeze={() => setFreezing(row)}
                          onUnfreeze={() => unfreeze.ask(row)}
                        />
                      </div>
                      <dl className="grid grid-cols-2 gap-3">
                        <CardField label="Bounces · complaints">
                          <Rates row={row} />
                        </CardField>
                        <CardField label="Members (sample)">
                          <Sample row={row} />
                        </CardField>
                        <CardField label="Imports" className="col-span-2">
                          <Imports row={row} />
                        </CardField>
                      </dl>
                      <Flag row={row} />
                    </li>
                  ))
                : [0, 1, 2].map((index) => <Skeleton key={index} className="h-40 w-full" />)}
            </ul>
          </>
        )
      )}

      {page.data && (
        <PagerPagination
          pager={pager}
          pageSize={PAGE_SIZE}
          rows={page.data.lists.length}
          nextCursor={page.data.nextCursor}
          busy={page.isFetching}
          noun="lists"
        />
      )}

      <FreezeDialog list={freezing} onClose={() => setFreezing(null)} />
      <ConfirmDialog
        open={unfreeze.pending !== null}
        onOpenChange={(open) => !open && unfreeze.dismiss()}
        title="Unfreeze this list?"
        description={
          unfreeze.pending && (
            <>
              <strong>{unfreeze.pending.name}</strong> (owner {unfreeze.pending.ownerEmail}) can be sent to
              and imported into again. The audit log records that you did it.
            </>
          )
        }
        confirmLabel="Unfreeze"
        pendingLabel="Unfreezing…"
        pending={unfreeze.busy}
        onConfirm={unfreeze.confirm}
        testId="unfreeze-dialog"
      />
    </div>
  );
}
