import { categoryName } from '@shared/categories';
import type { LeadSort } from '@shared/contacts';
import type { DirectoryContact } from '@shared/directory';
import { useMutation } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import {
  ArchiveRestore,
  BadgeCheck,
  CircleSlash,
  Database,
  FileUp,
  MoreHorizontal,
  Pencil,
  RefreshCw,
  SearchX,
  Shuffle,
  Tags,
  Trash2,
} from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { VerificationBadge } from '@/components/contacts/contact-badges';
import { DirectoryContactDialog } from '@/components/contacts/directory-contact-dialog';
import { CategoryPicker } from '@/components/contacts/reference-pickers';
import { CursorPagination } from '@/components/cursor-pagination';
import { DataTable } from '@/components/data-table/data-table';
import { QueryError } from '@/components/query-error';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { useCursorPages } from '@/hooks/use-cursor-pages';
import { useCountries } from '@/hooks/use-reference';
import { toast } from '@/hooks/use-toast';
import { apiRequest } from '@/lib/api';
import { rowRange } from '@/lib/cursor-pages';
import { getErrorMessage } from '@/lib/errors';
import { formatDate, formatNumber } from '@/lib/format';
import type { ListSort } from '@/lib/url-list-state';
import {
  type AdminDirectoryFilters,
  adminDirectoryKey,
  type BulkResult,
  useAdminDirectory,
  useAdminDirectoryCount,
  useBulkDirectoryAction,
} from '../api/admin-directory';
import { leadsQueryKey } from '../api/leads';
import {
  AdminDirectoryFiltersBar,
  EMPTY_ADMIN_FILTERS,
  SOURCE_LABELS,
} from '../components/admin-directory-filters';

const PAGE_SIZE = 50;

const SORT_LABELS: Record<LeadSort, string> = {
  newest: 'Newest first',
  company_asc: 'Company A–Z',
  company_desc: 'Company Z–A',
};

/** The Company header sorts too: A–Z, Z–A, then back to newest first (the server's three orders). */
const COLUMN_SORT: Record<LeadSort, ListSort | undefined> = {
  newest: undefined,
  company_asc: { id: 'company', desc: false },
  company_desc: { id: 'company', desc: true },
};

function sortFromColumn(sort: ListSort | undefined): LeadSort {
  if (sort?.id !== 'company') return 'newest';
  return sort.desc ? 'company_desc' : 'company_asc';
}

const NONE: ReadonlySet<string> = new Set();

type CountryLookup = ReadonlyMap<string, { name: string; flag?: string }>;

/**
 * Company, location and status stay at every width; email, category, source and date join as the screen
 * widens. The edit button sticks to the right edge while the table scrolls sideways.
 */
function directoryColumns(
  byCode: CountryLookup,
  onEdit: (id: string) => void,
): ColumnDef<DirectoryContact>[] {
  return [
    {
      id: 'company',
      header: 'Company',
      enableSorting: true,
      meta: { cellClassName: 'max-w-56' },
      cell: ({ row: { original: contact } }) => (
        <>
          <p className="truncate font-medium">{contact.companyName}</p>
          <p className="truncate text-xs text-muted-foreground">
            {[contact.contactName, contact.jobTitle].filter(Boolean).join(' · ') || '—'}
          </p>
        </>
      ),
    },
    {
      id: 'email',
      header: 'Email',
      meta: { className: 'hidden md:table-cell', cellClassName: 'max-w-56 truncate' },
      cell: ({ row: { original: contact } }) => contact.email,
    },
    {
      id: 'location',
      header: 'Location',
      meta: { cellClassName: 'max-w-40 truncate' },
      cell: ({ row: { original: contact } }) => {
        const country = byCode.get(contact.countryCode);
        return (
          <>
            <span aria-hidden="true">{country?.flag} </span>
            {[contact.city, country?.name ?? contact.countryCode].filter(Boolean).join(', ')}
          </>
        );
      },
    },
    {
      id: 'category',
      header: 'Category',
      meta: { className: 'hidden lg:table-cell', cellClassName: 'max-w-44 truncate' },
      cell: ({ row: { original: contact } }) => categoryName(contact.category),
    },
    {
      id: 'source',
      header: 'Source',
      meta: { className: 'hidden 2xl:table-cell', cellClassName: 'whitespace-nowrap' },
      cell: ({ row: { original: contact } }) => SOURCE_LABELS[contact.source],
    },
    {
      id: 'status',
      header: 'Status',
      cell: ({ row: { original: contact } }) => (
        <div className="flex flex-wrap gap-1">
          <VerificationBadge status={contact.verificationStatus} />
          {contact.deletedAt && <Badge variant="destructive">Deleted</Badge>}
        </div>
      ),
    },
    {
      id: 'updated',
      header: 'Updated',
      meta: {
        className: 'hidden 2xl:table-cell',
        cellClassName: 'whitespace-nowrap text-muted-foreground',
      },
      cell: ({ row: { original: contact } }) => formatDate(contact.updatedAt),
    },
    {
      id: 'edit',
      header: () => <span className="sr-only">Edit</span>,
      meta: { className: 'sticky right-0 w-12 bg-card' },
      cell: ({ row: { original: contact } }) => (
        <Button
          variant="ghost"
          size="icon-sm"
          onClick={() => onEdit(contact.id)}
          aria-label={`Edit ${contact.companyName}`}
          data-testid="edit-directory-contact"
        >
          <Pencil aria-hidden="true" />
        </Button>
      ),
    },
  ];
}

type BulkDialog = 'invalid' | 'recategorize' | 'delete' | null;

function describeBulk(result: BulkResult, verb: string): string {
  const done = `${formatNumber(result.updated)} ${result.updated === 1 ? 'contact' : 'contacts'} ${verb}.`;
  return result.skipped > 0 ? `${done} ${formatNumber(result.skipped)} skipped.` : done;
}

/** /admin/contact-database, the super admin's view of the whole directory. */
export default function AdminContactDatabasePage() {
  const [filters, setFilters] = useState<AdminDirectoryFilters>(EMPTY_ADMIN_FILTERS);
  const [sort, setSort] = useState<LeadSort>('newest');
  const key = JSON.stringify([filters, sort]);
  const pager = useCursorPages(key);
  const directory = useAdminDirectory({ filters, sort, cursor: pager.cursor, limit: PAGE_SIZE });
  const count = useAdminDirectoryCount(filters);
  const bulk = useBulkDirectoryAction();
  const { byCode } = useCountries();
  const rebuild = useMutation({
    mutationFn: async () =>
      (await (await apiRequest('POST', '/api/admin/directory/rebuild-facets')).json()) as {
        message: string;
      },
  });

  // A new filter or sort starts with nothing selected.
  const [selectionState, setSelectionState] = useState<{ key: string; ids: ReadonlySet<string> }>({
    key,
    ids: new Set(),
  });
  const selected = selectionState.key === key ? selectionState.ids : NONE;
  const setSelected = (ids: ReadonlySet<string>) => setSelectionState({ key, ids });
  const [editing, setEditing] = useState<string | null>(null);
  const [dialog, setDialog] = useState<BulkDialog>(null);
  const [reason, setReason] = useState('');
  const [category, setCategory] = useState('');

  const items = directory.data?.items;
  const chosen = selected.size;
  const ids = [...selected];
  const range = rowRange(pager.pages, PAGE_SIZE, items?.length ?? 0);
  const deletedView = filters.deleted !== 'live';

  const runBulk = (
    action: Parameters<typeof bulk.mutate>[0]['action'],
    extra: { status?: DirectoryContact['verificationStatus']; reason?: string | null; category?: string },
    verb: string,
  ) =>
    bulk.mutate(
      { action, ids, ...extra },
      {
        onSuccess: (result) => {
          setDialog(null);
          setSelected(NONE);
          toast({ title: 'Directory updated', description: describeBulk(result, verb) });
        },
        onError: (error) =>
          toast({
            title: 'Not updated',
            description: getErrorMessage(error, 'Please try again.'),
            variant: 'destructive',
          }),
      },
    );

  return (
    <div className="mx-auto w-full max-w-7xl space-y-6" data-testid="admin-contact-database-page">
      <header className="flex flex-col gap-4 md:flex-row md:items-end md:justify-between">
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold tracking-tight">Contact Database</h1>
          <p className="text-muted-foreground">
            The shared directory subscribers search: review, correct, verify, recategorise and import.
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <Button variant="ghost" size="icon" aria-label="More directory actions">
                <MoreHorizontal aria-hidden="true" />
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent align="end">
              <DropdownMenuItem
                disabled={rebuild.isPending}
                onSelect={() =>
                  rebuild.mutate(undefined, {
                    onSuccess: (answer) => toast({ title: 'Audience counts', description: answer.message }),
                    onError: (error) =>
                      toast({
                        title: 'Not started',
                        description: getErrorMessage(error, 'Please try again.'),
                        variant: 'destructive',
                      }),
                  })
                }
              >
                <RefreshCw aria-hidden="true" />
                Rebuild audience counts
              </DropdownMenuItem>
            </DropdownMenuContent>
          </DropdownMenu>
          <Button variant="outline" asChild>
            <Link to="/admin/recategorization" data-testid="recategorize-by-rule">
              <Shuffle aria-hidden="true" />
              Recategorize by rule
            </Link>
          </Button>
          <Button asChild>
            <Link to="/admin/contact-database/import" data-testid="bulk-import">
              <FileUp aria-hidden="true" />
              Bulk import
            </Link>
          </Button>
        </div>
      </header>

      <Card className="py-4">
        <CardContent className="grid gap-4 px-4">
          <AdminDirectoryFiltersBar filters={filters} onChange={setFilters} />
          <div className="flex flex-col gap-3 border-t pt-4 sm:flex-row sm:items-center sm:justify-between">
            <div
              className="flex items-center gap-2 text-sm"
              aria-live="polite"
              data-testid="admin-directory-count"
            >
              <Database className="size-4 text-muted-foreground" aria-hidden="true" />
              {count.data ? (
                <span>
                  <strong className="tabular-nums">
                    {formatNumber(count.data.count)}
                    {count.data.capped ? '+' : ''}
                  </strong>{' '}
                  {count.data.count === 1 ? 'contact' : 'contacts'}
                </span>
              ) : (
                <Skeleton className="h-4 w-24" />
              )}
            </div>
            <div className="flex flex-wrap items-center gap-2">
              {chosen > 0 && (
                <div className="flex flex-wrap items-center gap-2" data-testid="bulk-actions">
                  <span className="text-sm text-muted-foreground">{formatNumber(chosen)} selected</span>
                  {filters.deleted === 'deleted' ? (
                    <Button
                      size="sm"
                      variant="outline"
                      disabled={bulk.isPending}
                      onClick={() => runBulk('bulk-restore', {}, 'restored')}
                      data-testid="bulk-restore"
                    >
                      <ArchiveRestore aria-hidden="true" />
                      Restore
                    </Button>
                  ) : (
                    <>
                      <Button
                        size="sm"
                        variant="outline"
                        disabled={bulk.isPending}
                        onClick={() => runBulk('bulk-verify', { status: 'verified' }, 'verified')}
                        data-testid="bulk-verify"
                      >
                        <BadgeCheck aria-hidden="true" />
                        Verify
                      </Button>
                      <Button
                        size="sm"
                        variant="outline"
                        onClick={() => {
                          setReason('');
                          setDialog('invalid');
                        }}
                      >
                        <CircleSlash aria-hidden="true" />
                        Mark invalid
                      </Button>
                      <Button
                        size="sm"
                        variant="outline"
                        onClick={() => {
                          setCategory('');
                          setDialog('recategorize');
                        }}
                        data-testid="bulk-recategorize"
                      >
                        <Tags aria-hidden="true" />
                        Recategorize
                      </Button>
                      <Button
                        size="sm"
                        variant="outline"
                        className="text-destructive"
                        onClick={() => setDialog('delete')}
                        data-testid="bulk-delete"
                      >
                        <Trash2 aria-hidden="true" />
                        Delete
                      </Button>
                      {filters.deleted === 'all' && (
                        <Button
                          size="sm"
                          variant="outline"
                          onClick={() => runBulk('bulk-restore', {}, 'restored')}
                        >
                          <ArchiveRestore aria-hidden="true" />
                          Restore
                        </Button>
                      )}
                    </>
                  )}
                </div>
              )}
              <Select value={sort} onValueChange={(value) => setSort(value as LeadSort)}>
                <SelectTrigger className="w-40" aria-label="Sort by">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {(Object.keys(SORT_LABELS) as LeadSort[]).map((value) => (
                    <SelectItem key={value} value={value}>
                      {SORT_LABELS[value]}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </div>
          </div>

          {directory.isError && !items ? (
            <QueryError
              title="The directory could not be loaded"
              error={directory.error}
              onRetry={() => directory.refetch()}
            />
          ) : (
            <>
              <DataTable
                columns={directoryColumns(byCode, setEditing)}
                // An empty page kept while the next one loads is a load, not an empty result.
                rows={directory.isPlaceholderData && items?.length === 0 ? undefined : items}
                getRowId={(contact) => contact.id}
                loading={directory.isPending}
                stale={directory.isPlaceholderData}
                skeletonRows={10}
                sort={COLUMN_SORT[sort]}
                onSortChange={(next) => setSort(sortFromColumn(next))}
                selection={{
                  selected,
                  onChange: setSelected,
                  rowLabel: (contact) => `Select ${contact.companyName}`,
                  allLabel: 'Select every contact on this page',
                }}
                rowProps={(contact) => ({
                  className: contact.deletedAt ? 'text-muted-foreground' : undefined,
                })}
                empty={{
                  icon: SearchX,
                  title: 'No contacts match these filters',
                  action: (
                    <Button variant="outline" size="sm" onClick={() => setFilters(EMPTY_ADMIN_FILTERS)}>
                      Clear filters
                    </Button>
                  ),
                }}
                testId="admin-directory-table"
                rowTestId="directory-row"
              />
              {items && items.length > 0 && (
                <CursorPagination
                  from={range.from}
                  to={range.to}
                  total={count.data?.count}
                  totalCapped={count.data?.capped}
                  hasPrevious={pager.hasPrevious}
                  hasNext={Boolean(directory.data?.nextCursor)}
                  onPrevious={pager.goPrevious}
                  onNext={() => pager.goNext(directory.data?.nextCursor)}
                  busy={directory.isPlaceholderData && directory.isFetching}
                  testId="admin-directory-pagination"
                />
              )}
            </>
          )}
          {deletedView && (
            <p className="text-xs text-muted-foreground">
              Deleted contacts are hidden from subscribers. Restoring one whose email now belongs to a live
              contact is skipped.
            </p>
          )}
        </CardContent>
      </Card>

      <DirectoryContactDialog
        contactId={editing}
        basePath="/api/admin/directory"
        onOpenChange={(open) => !open && setEditing(null)}
        invalidateKeys={[adminDirectoryKey, leadsQueryKey]}
        editStatus
      />

      <Dialog open={dialog === 'invalid'} onOpenChange={(open) => !open && setDialog(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Mark {formatNumber(chosen)} contacts invalid</DialogTitle>
            <DialogDescription>Invalid contacts are hidden from subscribers' searches.</DialogDescription>
          </DialogHeader>
          <form
            className="grid gap-4"
            onSubmit={(event) => {
              event.preventDefault();
              if (reason.trim())
                runBulk('bulk-verify', { status: 'invalid', reason: reason.trim() }, 'marked invalid');
            }}
          >
            <div className="grid gap-2">
              <Label htmlFor="bulk-invalid-reason">Reason</Label>
              <Input
                id="bulk-invalid-reason"
                value={reason}
                onChange={(event) => setReason(event.target.value)}
                placeholder="e.g. Business closed"
                maxLength={300}
                autoFocus
              />
            </div>
            <DialogFooter>
              <Button type="button" variant="ghost" onClick={() => setDialog(null)}>
                Cancel
              </Button>
              <Button type="submit" variant="destructive" disabled={!reason.trim() || bulk.isPending}>
                {bulk.isPending ? 'Saving…' : 'Mark invalid'}
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>

      <Dialog open={dialog === 'recategorize'} onOpenChange={(open) => !open && setDialog(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Recategorize {formatNumber(chosen)} contacts</DialogTitle>
            <DialogDescription>Move the selected contacts to another category.</DialogDescription>
          </DialogHeader>
          <form
            className="grid gap-4"
            onSubmit={(event) => {
              event.preventDefault();
              if (category) runBulk('bulk-recategorize', { category }, `moved to ${categoryName(category)}`);
            }}
          >
            <CategoryPicker
              multiple={false}
              value={category ? [category] : []}
              onChange={(next) => setCategory(next[0] ?? '')}
              placeholder="Choose a category"
              testId="bulk-category"
            />
            <DialogFooter>
              <Button type="button" variant="ghost" onClick={() => setDialog(null)}>
                Cancel
              </Button>
              <Button
                type="submit"
                disabled={!category || bulk.isPending}
                data-testid="bulk-recategorize-submit"
              >
                {bulk.isPending ? 'Saving…' : 'Recategorize'}
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>

      <ConfirmDialog
        open={dialog === 'delete'}
        onOpenChange={(open) => !open && setDialog(null)}
        title={`Delete ${formatNumber(chosen)} ${chosen === 1 ? 'contact' : 'contacts'}?`}
        description={
          <p>
            They disappear from subscribers' searches at once. You can restore them from the Deleted view.
            Copies already in users' lists stay there.
          </p>
        }
        confirmLabel="Delete"
        pendingLabel="Deleting…"
        destructive
        pending={bulk.isPending}
        onConfirm={() => runBulk('bulk-delete', {}, 'deleted')}
        testId="confirm-bulk-delete"
      />
    </div>
  );
}
