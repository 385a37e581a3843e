import { categoryName } from '@shared/categories';
import type { LeadSort } from '@shared/contacts';
import type { DirectoryContact } from '@shared/directory';
import { useMutation } from '@tanstack/react-query';
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
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { VerificationBadge } from '@/components/contacts/contact-badges';
import { DirectoryContactDialog } from '@/components/contacts/directory-contact-dialog';
import { CategoryPicker } from '@/components/contacts/reference-pickers';
import { CursorPagination } from '@/components/cursor-pagination';
import { QueryError } from '@/components/query-error';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
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
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { useCursorPages } from '@/hooks/use-cursor-pages';
import { useCountries } from '@/hooks/use-reference';
import { toast } from '@/hooks/use-toast';
import { apiRequest } from '@/lib/api';
import { rowRange } from '@/lib/cursor-pages';
import { getErrorMessage } from '@/lib/errors';
import { formatDate, formatNumber } from '@/lib/format';
import { cn } from '@/lib/utils';
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
import {
  emptySelection,
  isRowSelected,
  pageCheckState,
  type Selection,
  selectedCount,
  togglePage,
  toggleRow,
} from '../lib/selection';

const PAGE_SIZE = 50;

const SORT_LABELS: Record<LeadSort, string> = {
  newest: 'Newest first',
  company_asc: 'Company A–Z',
  company_desc: 'Company Z–A',
};

type BulkDialog = 'invalid' | 'recategorize' | 'delete' | null;

function describeBulk(result: BulkResult, verb: string): string {
  const done = `${formatNumber(result.updated)} ${result.updated === 1 ? 'contact' : 'contacts'} ${verb}.`;
  return result.skipped > 0 ? `${done} ${formatNumber(result.skipped)} skipped.` : done;
}

/** Spec §2: /admin/contact-database, the super admin's view of the whole directory. */
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

  const [selectionState, setSelectionState] = useState<{ key: string; selection: Selection }>({
    key,
    selection: emptySelection(),
  });
  const selection = selectionState.key === key ? selectionState.selection : emptySelection<string>();
  const setSelection = (next: Selection) => setSelectionState({ key, selection: next });
  const [editing, setEditing] = useState<string | null>(null);
  const [dialog, setDialog] = useState<BulkDialog>(null);
  const [reason, setReason] = useState('');
  const [category, setCategory] = useState('');

  const items = directory.data?.items;
  const pageIds = useMemo(() => items?.map((contact) => contact.id) ?? [], [items]);
  const chosen = selectedCount(selection, undefined);
  const ids = selection.mode === 'ids' ? [...selection.ids] : [];
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
          setSelection(emptySelection());
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
          ) : items && items.length === 0 && !directory.isPlaceholderData ? (
            <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed px-6 py-14 text-center">
              <SearchX className="size-8 text-muted-foreground" aria-hidden="true" />
              <p className="font-medium">No contacts match these filters</p>
              <Button variant="outline" size="sm" onClick={() => setFilters(EMPTY_ADMIN_FILTERS)}>
                Clear filters
              </Button>
            </div>
          ) : (
            <>
              <div
                className={cn(
                  'overflow-hidden rounded-lg border transition-opacity',
                  directory.isPlaceholderData && 'opacity-60',
                )}
              >
                <Table data-testid="admin-directory-table" aria-busy={directory.isFetching}>
                  <TableHeader>
                    <TableRow className="bg-muted/40 hover:bg-muted/40">
                      <TableHead className="w-10 pl-3">
                        <Checkbox
                          checked={pageCheckState(selection, pageIds)}
                          onCheckedChange={(value) =>
                            setSelection(togglePage(selection, pageIds, value === true))
                          }
                          aria-label="Select every contact on this page"
                          disabled={!items?.length}
                        />
                      </TableHead>
                      <TableHead>Company</TableHead>
                      <TableHead className="hidden md:table-cell">Email</TableHead>
                      <TableHead>Location</TableHead>
                      <TableHead className="hidden lg:table-cell">Category</TableHead>
                      <TableHead className="hidden 2xl:table-cell">Source</TableHead>
                      <TableHead>Status</TableHead>
                      <TableHead className="hidden 2xl:table-cell">Updated</TableHead>
                      <TableHead className="sticky right-0 w-12 bg-card">
                        <span className="sr-only">Edit</span>
                      </TableHead>
                    </TableRow>
                  </TableHeader>
                  <TableBody>
                    {!items
                      ? Array.from({ length: 10 }, (_, index) => (
                          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders
                          <TableRow key={index}>
                            {Array.from({ length: 9 }, (_, cell) => (
                              // biome-ignore lint/suspicious/noArrayIndexKey: placeholders
                              <TableCell key={cell}>
                                <Skeleton className="h-4 w-full max-w-28" />
                              </TableCell>
                            ))}
                          </TableRow>
                        ))
                      : items.map((contact) => {
                          const country = byCode.get(contact.countryCode);
                          const selected = isRowSelected(selection, contact.id);
                          return (
                            <TableRow
                              key={contact.id}
                              data-state={selected ? 'selected' : undefined}
                              data-testid="directory-row"
                              className={cn(contact.deletedAt && 'text-muted-foreground')}
                            >
                              <TableCell className="pl-3">
                                <Checkbox
                                  checked={selected}
                                  onCheckedChange={(value) =>
                                    setSelection(toggleRow(selection, contact.id, value === true, pageIds))
                                  }
                                  aria-label={`Select ${contact.companyName}`}
                                />
                              </TableCell>
                              <TableCell className="max-w-56">
                                <p className="truncate font-medium">{contact.companyName}</p>
                                <p className="truncate text-xs text-muted-foreground">
                                  {[contact.contactName, contact.jobTitle].filter(Boolean).join(' · ') || '—'}
                                </p>
                              </TableCell>
                              <TableCell className="hidden max-w-56 truncate md:table-cell">
                                {contact.email}
                              </TableCell>
                              <TableCell className="max-w-40 truncate">
                                <span aria-hidden="true">{country?.flag} </span>
                                {[contact.city, country?.name ?? contact.countryCode]
                                  .filter(Boolean)
                                  .join(', ')}
                              </TableCell>
                              <TableCell className="hidden max-w-44 truncate lg:table-cell">
                                {categoryName(contact.category)}
                              </TableCell>
                              <TableCell className="hidden whitespace-nowrap 2xl:table-cell">
                                {SOURCE_LABELS[contact.source]}
                              </TableCell>
                              <TableCell>
                                <div className="flex flex-wrap gap-1">
                                  <VerificationBadge status={contact.verificationStatus} />
                                  {contact.deletedAt && <Badge variant="destructive">Deleted</Badge>}
                                </div>
                              </TableCell>
                              <TableCell className="hidden whitespace-nowrap text-muted-foreground 2xl:table-cell">
                                {formatDate(contact.updatedAt)}
                              </TableCell>
                              <TableCell className="sticky right-0 bg-card">
                                <Button
                                  variant="ghost"
                                  size="icon-sm"
                                  onClick={() => setEditing(contact.id)}
                                  aria-label={`Edit ${contact.companyName}`}
                                  data-testid="edit-directory-contact"
                                >
                                  <Pencil aria-hidden="true" />
                                </Button>
                              </TableCell>
                            </TableRow>
                          );
                        })}
                  </TableBody>
                </Table>
              </div>
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
