import {
  RECYCLE_BIN_TYPE_LABELS,
  RECYCLE_BIN_TYPES,
  type RecycleBinItem,
  type RecycleBinType,
} from '@shared/recycle-bin';
import { RotateCcw, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { PagerPagination } from '@/components/cursor-pagination';
import { QueryError } from '@/components/query-error';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { Tabs, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useCursorPages } from '@/hooks/use-cursor-pages';
import { formatDate, formatDateTime, formatNumber, formatRelative } from '@/lib/format';
import {
  RECYCLE_BIN_REFRESH_MS,
  type RecycleBinAction,
  useRecycleBin,
  useRecycleBinAction,
} from '../api/recycle-bin';
import { EmptyState } from '../components/empty-state';
import { MonitorFreshness } from '../components/monitor-freshness';
import { useConfirmedAction } from '../hooks/use-confirmed-action';

const PAGE_SIZE = 25;

/** How each type reads in the table: its name column, and what the second column shows. */
const COLUMNS: Record<RecycleBinType, { name: string; plural: string; owned: boolean }> = {
  list: { name: 'List', plural: 'lists', owned: true },
  campaign: { name: 'Campaign', plural: 'campaigns', owned: true },
  newsletter: { name: 'Newsletter', plural: 'newsletters or bulk emails', owned: true },
  template: { name: 'Template', plural: 'templates', owned: true },
  directory_contact: { name: 'Business', plural: 'directory records', owned: false },
};

/** What restoring and purging do, in the confirmation. */
const OUTCOMES: Record<RecycleBinType, { restore: string; purge: string }> = {
  list: {
    restore: 'goes back to its owner’s lists.',
    purge: 'and all its contacts will be deleted for good. This cannot be undone.',
  },
  campaign: {
    restore: 'goes back to its owner’s campaigns as a draft.',
    purge: 'and its steps will be deleted for good. This cannot be undone.',
  },
  newsletter: {
    restore: 'goes back to its owner’s newsletters.',
    purge: 'will be deleted for good. This cannot be undone.',
  },
  template: {
    restore: 'goes back to its owner’s templates.',
    purge: 'will be deleted for good. This cannot be undone.',
  },
  directory_contact: {
    restore: 'goes back into the directory.',
    purge: 'will be deleted from the directory for good. This cannot be undone.',
  },
};

interface PendingAction {
  target: RecycleBinAction;
  name: string;
}

function Actions({ item, onAction }: { item: RecycleBinItem; onAction: (action: PendingAction) => void }) {
  const ask = (action: 'restore' | 'purge') =>
    onAction({ target: { action, type: item.type, id: item.id }, name: item.name });
  return (
    <div className="flex items-center justify-end gap-2">
      <Button
        variant="outline"
        size="sm"
        onClick={() => ask('restore')}
        aria-label={`Restore ${item.name}`}
        data-testid="restore"
      >
        <RotateCcw aria-hidden="true" />
        Restore
      </Button>
      <Button
        variant="ghost"
        size="sm"
        className="text-destructive hover:text-destructive"
        onClick={() => ask('purge')}
        aria-label={`Delete ${item.name} for good`}
        data-testid="purge"
      >
        <Trash2 aria-hidden="true" />
        Delete
      </Button>
    </div>
  );
}

function Deleted({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {formatRelative(iso)}
    </time>
  );
}

function ItemsTable({
  type,
  items,
  onAction,
}: {
  type: RecycleBinType;
  items: RecycleBinItem[];
  onAction: (a: PendingAction) => void;
}) {
  const isList = type === 'list';
  const { owned } = COLUMNS[type];
  return (
    <>
      <div className="hidden overflow-x-auto rounded-lg border md:block">
        <Table data-testid="recycle-bin-table">
          <TableHeader>
            <TableRow>
              <TableHead>{COLUMNS[type].name}</TableHead>
              <TableHead>{owned ? 'Owner' : 'Record'}</TableHead>
              {owned && !isList && <TableHead>Details</TableHead>}
              {isList && <TableHead className="text-right">Contacts</TableHead>}
              <TableHead>Deleted</TableHead>
              <TableHead>Purged on</TableHead>
              <TableHead className="sr-only">Actions</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {items.map((item) => (
              <TableRow key={item.id} data-testid="recycle-bin-row">
                <TableCell className="max-w-56 truncate font-medium" title={item.name}>
                  {item.name}
                </TableCell>
                <TableCell
                  className="max-w-64 truncate"
                  title={(owned ? item.ownerEmail : item.detail) ?? ''}
                >
                  {(owned ? item.ownerEmail : item.detail) ?? '—'}
                </TableCell>
                {owned && !isList && (
                  <TableCell className="max-w-64 truncate" title={item.detail ?? ''}>
                    {item.detail ?? '—'}
                  </TableCell>
                )}
                {isList && (
                  <TableCell className="text-right tabular-nums">{formatNumber(item.size ?? 0)}</TableCell>
                )}
                <TableCell className="whitespace-nowrap">
                  <Deleted iso={item.deletedAt} />
                </TableCell>
                <TableCell className="whitespace-nowrap">{formatDate(item.purgeAt)}</TableCell>
                <TableCell>
                  <Actions item={item} onAction={onAction} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
      <ul className="space-y-3 md:hidden">
        {items.map((item) => (
          <li
            key={item.id}
            className="space-y-2 rounded-lg border bg-card p-4 text-sm"
            data-testid="recycle-bin-card"
          >
            <p className="font-medium break-words">{item.name}</p>
            <dl className="space-y-1">
              <div className="grid grid-cols-[6rem_1fr] gap-2">
                <dt className="text-muted-foreground">{owned ? 'Owner' : 'Record'}</dt>
                <dd className="min-w-0 break-words">{(owned ? item.ownerEmail : item.detail) ?? '—'}</dd>
              </div>
              {owned && !isList && item.detail && (
                <div className="grid grid-cols-[6rem_1fr] gap-2">
                  <dt className="text-muted-foreground">Details</dt>
                  <dd className="min-w-0 break-words">{item.detail}</dd>
                </div>
              )}
              {isList && (
                <div className="grid grid-cols-[6rem_1fr] gap-2">
                  <dt className="text-muted-foreground">Contacts</dt>
                  <dd>{formatNumber(item.size ?? 0)}</dd>
                </div>
              )}
              <div className="grid grid-cols-[6rem_1fr] gap-2">
                <dt className="text-muted-foreground">Deleted</dt>
                <dd>
                  <Deleted iso={item.deletedAt} />
                </dd>
              </div>
              <div className="grid grid-cols-[6rem_1fr] gap-2">
                <dt className="text-muted-foreground">Purged on</dt>
                <dd>{formatDate(item.purgeAt)}</dd>
              </div>
            </dl>
            <Actions item={item} onAction={onAction} />
          </li>
        ))}
      </ul>
    </>
  );
}

/** Everything soft-deleted across the platform: restore it, or delete it for good. */
export default function RecycleBinPage() {
  const [type, setType] = useState<RecycleBinType>('list');
  const pager = useCursorPages(type);
  const bin = useRecycleBin(type, pager.cursor ?? undefined, PAGE_SIZE);
  const action = useConfirmedAction(useRecycleBinAction(), (pending: PendingAction) => pending.target);
  const { pending } = action;
  const purging = pending?.target.action === 'purge';
  const data = bin.data;

  return (
    <div className="mx-auto flex w-full max-w-7xl flex-1 flex-col gap-6" data-testid="recycle-bin-page">
      <header className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold tracking-tight">Recycle Bin</h1>
          <p className="text-muted-foreground">
            Deleted lists, campaigns, newsletters, templates and directory records stay here{' '}
            {data?.retentionDays ?? 30} days, then a daily job deletes them for good.
          </p>
        </div>
        <MonitorFreshness
          updatedAt={bin.dataUpdatedAt}
          fetching={bin.isFetching}
          onRefresh={() => bin.refetch()}
          intervalSeconds={RECYCLE_BIN_REFRESH_MS / 1000}
        />
      </header>

      <Tabs value={type} onValueChange={(value) => setType(value as RecycleBinType)}>
        <TabsList aria-label="What was deleted" className="h-auto max-w-full flex-wrap justify-start">
          {RECYCLE_BIN_TYPES.map((t) => (
            <TabsTrigger key={t} value={t} className="h-8 flex-none" data-testid={`bin-tab-${t}`}>
              {RECYCLE_BIN_TYPE_LABELS[t]}
              {data && (
                <Badge variant="secondary" className="ml-1.5 tabular-nums">
                  {formatNumber(data.counts[t])}
                </Badge>
              )}
            </TabsTrigger>
          ))}
        </TabsList>
      </Tabs>

      {bin.isError ? (
        <QueryError
          title="The recycle bin could not be loaded"
          error={bin.error}
          onRetry={() => bin.refetch()}
        />
      ) : !data ? (
        <Skeleton className="h-48 w-full" />
      ) : data.items.length === 0 && !pager.hasPrevious ? (
        <EmptyState icon={Trash2} testId="recycle-bin-empty">
          No deleted {COLUMNS[type].plural}.
        </EmptyState>
      ) : (
        <ItemsTable type={type} items={data.items} onAction={action.ask} />
      )}

      {data && (
        <PagerPagination
          pager={pager}
          pageSize={PAGE_SIZE}
          rows={data.items.length}
          nextCursor={data.nextCursor}
          total={data.counts[type]}
          busy={bin.isFetching}
          noun="items"
        />
      )}

      <p className="text-xs text-muted-foreground">
        User accounts and single list contacts are deleted at once when their owner deletes them, so they
        never reach the recycle bin.
      </p>

      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => !open && action.dismiss()}
        title={purging ? 'Delete for good?' : 'Restore?'}
        description={
          <>
            <strong>{pending?.name}</strong>{' '}
            {pending && OUTCOMES[pending.target.type][purging ? 'purge' : 'restore']} The audit log records
            that you did it.
          </>
        }
        confirmLabel={purging ? 'Delete for good' : 'Restore'}
        pendingLabel={purging ? 'Deleting…' : 'Restoring…'}
        destructive={purging}
        pending={action.busy}
        onConfirm={action.confirm}
        testId="recycle-bin-dialog"
      />
    </div>
  );
}
