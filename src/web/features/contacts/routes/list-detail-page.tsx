import type { ListContact } from '@shared/lists';
import type { ColumnDef } from '@tanstack/react-table';
import {
  ArrowLeft,
  Download,
  FileUp,
  MoreHorizontal,
  Pencil,
  Search,
  Trash2,
  UserPlus,
  UserRoundX,
  Users,
} from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { CursorPagination } from '@/components/cursor-pagination';
import { DataTable } from '@/components/data-table/data-table';
import { QueryError } from '@/components/query-error';
import { SearchInput } from '@/components/search-input';
import { Badge } from '@/components/ui/badge';
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
import { useCursorPages } from '@/hooks/use-cursor-pages';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { useCountries } from '@/hooks/use-reference';
import { toast } from '@/hooks/use-toast';
import { rowRange } from '@/lib/cursor-pages';
import { getErrorMessage, getErrorStatus } from '@/lib/errors';
import { formatDate, formatNumber } from '@/lib/format';
import { listExportUrl, useList, useListContacts, useRemoveListContacts } from '../api/lists';
import { ListContactDialog } from '../components/list-contact-dialog';
import { ListFormDialog } from '../components/list-form-dialog';
import { ListVerificationCard } from '../components/list-verification-card';
import { SegmentsCard } from '../components/segments-card';
import { SignupFormCard } from '../components/signup-form-card';
import { useDeleteListWithUndo } from '../components/use-delete-list';

const PAGE_SIZE = 50;

const SOURCE_LABELS: Record<ListContact['source'], string> = {
  import: 'CSV import',
  lead_discovery: 'Directory',
  manual: 'Added by hand',
  signup_form: 'Subscribe form',
};

function contactName(contact: ListContact): string {
  return [contact.firstName, contact.lastName].filter(Boolean).join(' ');
}

type CountryLookup = ReadonlyMap<string, { name: string }>;

/**
 * Email, name and company stay at every width; location, date, job title, phone and source join as the
 * screen widens. The edit button sticks to the right edge while the table scrolls sideways.
 */
function memberColumns(
  customFields: readonly string[],
  byCode: CountryLookup,
  onEdit: (contact: ListContact) => void,
): ColumnDef<ListContact>[] {
  return [
    {
      id: 'email',
      header: 'Email',
      meta: { cellClassName: 'max-w-60' },
      cell: ({ row: { original: contact } }) => (
        <span className="flex items-center gap-2">
          <span className="truncate" title={contact.email}>
            {contact.email}
          </span>
          {contact.roleAddress && (
            <Badge
              variant="outline"
              className="text-muted-foreground"
              title="A shared mailbox (info@, sales@…), not a person"
            >
              Role
            </Badge>
          )}
        </span>
      ),
    },
    {
      id: 'name',
      header: 'Name',
      meta: { cellClassName: 'max-w-40 truncate' },
      cell: ({ row: { original: contact } }) => contactName(contact) || '—',
    },
    {
      id: 'company',
      header: 'Company',
      meta: { cellClassName: 'max-w-44 truncate' },
      cell: ({ row: { original: contact } }) => contact.company ?? '—',
    },
    {
      id: 'jobTitle',
      header: 'Job title',
      meta: { className: 'hidden xl:table-cell', cellClassName: 'max-w-40 truncate' },
      cell: ({ row: { original: contact } }) => contact.jobTitle ?? '—',
    },
    {
      id: 'phone',
      header: 'Phone',
      meta: { className: 'hidden 2xl:table-cell', cellClassName: 'whitespace-nowrap' },
      cell: ({ row: { original: contact } }) => contact.phone ?? '—',
    },
    {
      id: 'location',
      header: 'Location',
      meta: { className: 'hidden md:table-cell', cellClassName: 'max-w-40 truncate' },
      cell: ({ row: { original: contact } }) => {
        const country = contact.countryCode ? byCode.get(contact.countryCode) : undefined;
        return [contact.city, country?.name ?? contact.countryCode].filter(Boolean).join(', ') || '—';
      },
    },
    ...customFields.map(
      (name): ColumnDef<ListContact> => ({
        id: `field:${name}`,
        header: name,
        meta: { headerClassName: 'font-mono text-xs', cellClassName: 'max-w-40 truncate' },
        cell: ({ row: { original: contact } }) => contact.customFields[name] || '—',
      }),
    ),
    {
      id: 'source',
      header: 'Source',
      meta: {
        className: 'hidden 2xl:table-cell',
        cellClassName: 'whitespace-nowrap text-muted-foreground',
      },
      cell: ({ row: { original: contact } }) => SOURCE_LABELS[contact.source],
    },
    {
      id: 'added',
      header: 'Added',
      meta: { className: 'hidden sm:table-cell', cellClassName: 'whitespace-nowrap text-muted-foreground' },
      cell: ({ row: { original: contact } }) => formatDate(contact.createdAt),
    },
    {
      id: 'edit',
      header: () => <span className="sr-only">Edit</span>,
      meta: { className: 'sticky right-0 w-12 bg-card' },
      cell: ({ row: { original: contact } }) => (
        <Button
          variant="ghost"
          size="icon-sm"
          onClick={() => onEdit(contact)}
          aria-label={`Edit ${contact.email}`}
          data-testid="edit-list-contact"
        >
          <Pencil aria-hidden="true" />
        </Button>
      ),
    },
  ];
}

/** A list's members: search, keyset pages, edit, remove, import and export. */
export default function ListDetailPage() {
  const { listId = '' } = useParams();
  const navigate = useNavigate();
  const list = useList(listId);
  const { byCode } = useCountries();
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search, 300).trim();
  const pager = useCursorPages(q);
  const members = useListContacts(listId, { q, cursor: pager.cursor, limit: PAGE_SIZE });
  const remove = useRemoveListContacts(listId);
  const deleteList = useDeleteListWithUndo();

  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [editing, setEditing] = useState<ListContact | undefined>();
  const [contactOpen, setContactOpen] = useState(false);
  const [editListOpen, setEditListOpen] = useState(false);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);

  const items = members.data?.items;
  const chosen = selected.size;
  const customFields = list.data?.customFields ?? [];
  const range = rowRange(pager.pages, PAGE_SIZE, items?.length ?? 0);

  if (list.isError) {
    const status = getErrorStatus(list.error);
    return (
      <div className="mx-auto w-full max-w-3xl space-y-4">
        <Button variant="ghost" asChild>
          <Link to="/lead-discovery?tab=lists">
            <ArrowLeft aria-hidden="true" />
            My lists
          </Link>
        </Button>
        <QueryError
          title={status === 404 ? 'This list does not exist' : 'The list could not be loaded'}
          error={list.error}
          onRetry={status === 404 ? undefined : () => list.refetch()}
          testId="list-error"
        />
      </div>
    );
  }

  const data = list.data;

  return (
    <div className="mx-auto w-full max-w-7xl space-y-6" data-testid="list-detail-page">
      <div className="space-y-3">
        <Button variant="ghost" size="sm" className="-ml-2" asChild>
          <Link to="/lead-discovery?tab=lists">
            <ArrowLeft aria-hidden="true" />
            My lists
          </Link>
        </Button>
        <header className="flex flex-col gap-4 md:flex-row md:items-start md:justify-between">
          <div className="min-w-0 space-y-1">
            {data ? (
              <h1 className="truncate text-2xl font-semibold tracking-tight" data-testid="list-name-heading">
                {data.name}
              </h1>
            ) : (
              <Skeleton className="h-8 w-64" />
            )}
            {data ? (
              <p className="text-muted-foreground">
                <span data-testid="list-contact-count">{formatNumber(data.contactCount)}</span>{' '}
                {data.contactCount === 1 ? 'contact' : 'contacts'}
                {data.description ? ` · ${data.description}` : ''}
              </p>
            ) : (
              <Skeleton className="h-4 w-40" />
            )}
            {data?.frozen && (
              <p className="text-sm text-destructive" role="status" data-testid="list-frozen">
                Frozen by the Tambari team{data.frozenReason ? `: ${data.frozenReason}` : ''}. It cannot be
                sent to or imported into; contact support if you believe this is a mistake.
              </p>
            )}
          </div>
          {data && (
            <div className="flex flex-wrap gap-2">
              <Button variant="outline" asChild>
                <Link to={`/lead-discovery/import?listId=${data.id}`} data-testid="list-import-csv">
                  <FileUp aria-hidden="true" />
                  Import CSV
                </Link>
              </Button>
              <Button variant="outline" asChild>
                <a href={listExportUrl(data.id)} download data-testid="list-export-csv">
                  <Download aria-hidden="true" />
                  Export CSV
                </a>
              </Button>
              <Button
                onClick={() => {
                  setEditing(undefined);
                  setContactOpen(true);
                }}
                data-testid="add-list-contact"
              >
                <UserPlus aria-hidden="true" />
                Add contact
              </Button>
              <DropdownMenu>
                <DropdownMenuTrigger asChild>
                  <Button variant="ghost" size="icon" aria-label="More list actions" data-testid="list-more">
                    <MoreHorizontal aria-hidden="true" />
                  </Button>
                </DropdownMenuTrigger>
                <DropdownMenuContent align="end">
                  <DropdownMenuItem onSelect={() => setEditListOpen(true)} data-testid="rename-list">
                    <Pencil aria-hidden="true" />
                    Rename or edit fields
                  </DropdownMenuItem>
                  <DropdownMenuSeparator />
                  <DropdownMenuItem variant="destructive" onSelect={() => setConfirmDelete(true)}>
                    <Trash2 aria-hidden="true" />
                    Delete list
                  </DropdownMenuItem>
                </DropdownMenuContent>
              </DropdownMenu>
            </div>
          )}
        </header>
      </div>

      {data && <ListVerificationCard listId={data.id} />}
      {data && <SegmentsCard listId={data.id} customFields={data.customFields} />}
      {data && <SignupFormCard listId={data.id} listName={data.name} />}

      <Card className="py-4">
        <CardContent className="grid gap-4 px-4">
          <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
            <SearchInput
              className="sm:w-80"
              value={search}
              onChange={setSearch}
              placeholder="Search email, name or company"
              aria-label="Search this list"
              maxLength={100}
              busy={search.trim() !== q || (members.isFetching && members.isPlaceholderData)}
              data-testid="list-search"
            />
            {chosen > 0 && (
              <div className="flex items-center gap-2">
                <span className="text-sm text-muted-foreground" aria-live="polite">
                  {formatNumber(chosen)} selected
                </span>
                <Button variant="ghost" size="sm" onClick={() => setSelected(new Set())}>
                  Clear
                </Button>
                <Button
                  variant="destructive"
                  size="sm"
                  onClick={() => setConfirmRemove(true)}
                  data-testid="remove-selected"
                >
                  <UserRoundX aria-hidden="true" />
                  Remove from list
                </Button>
              </div>
            )}
          </div>

          {members.isError && !items ? (
            <QueryError
              title="Contacts could not be loaded"
              error={members.error}
              onRetry={() => members.refetch()}
            />
          ) : (
            <>
              <DataTable
                columns={memberColumns(customFields, byCode, (contact) => {
                  setEditing(contact);
                  setContactOpen(true);
                })}
                // An empty page kept while the next one loads is a load, not an empty list.
                rows={members.isPlaceholderData && items?.length === 0 ? undefined : items}
                getRowId={(contact) => String(contact.id)}
                loading={members.isPending}
                stale={members.isPlaceholderData}
                selection={{
                  selected,
                  onChange: setSelected,
                  rowLabel: (contact) => `Select ${contact.email}`,
                  allLabel: 'Select every contact on this page',
                }}
                empty={{
                  icon: Users,
                  title: q ? 'No contact matches this search' : 'This list is empty',
                  description: q
                    ? 'Search looks in email addresses, names and companies.'
                    : 'Import a CSV file, add contacts from Browse Contacts, or add one by hand.',
                  action: !q && data && (
                    <div className="mt-2 flex flex-wrap justify-center gap-2">
                      <Button size="sm" variant="outline" asChild>
                        <Link to={`/lead-discovery/import?listId=${data.id}`}>
                          <FileUp aria-hidden="true" />
                          Import CSV
                        </Link>
                      </Button>
                      <Button size="sm" variant="outline" asChild>
                        <Link to="/lead-discovery">
                          <Search aria-hidden="true" />
                          Browse Contacts
                        </Link>
                      </Button>
                    </div>
                  ),
                  testId: 'list-empty',
                }}
                testId="list-contacts-table"
                rowTestId="list-contact-row"
              />
              {items && items.length > 0 && (
                <CursorPagination
                  from={range.from}
                  to={range.to}
                  total={q ? undefined : data?.contactCount}
                  hasPrevious={pager.hasPrevious}
                  hasNext={Boolean(members.data?.nextCursor)}
                  onPrevious={pager.goPrevious}
                  onNext={() => pager.goNext(members.data?.nextCursor)}
                  busy={members.isPlaceholderData && members.isFetching}
                  testId="list-pagination"
                />
              )}
            </>
          )}
        </CardContent>
      </Card>

      {data && (
        <>
          <ListContactDialog list={data} contact={editing} open={contactOpen} onOpenChange={setContactOpen} />
          <ListFormDialog open={editListOpen} onOpenChange={setEditListOpen} list={data} />
        </>
      )}
      <ConfirmDialog
        open={confirmRemove}
        onOpenChange={setConfirmRemove}
        title={`Remove ${formatNumber(chosen)} ${chosen === 1 ? 'contact' : 'contacts'} from the list?`}
        description={<p>They leave this list only; other lists and the directory keep them.</p>}
        confirmLabel="Remove"
        pendingLabel="Removing…"
        destructive
        pending={remove.isPending}
        testId="confirm-remove-contacts"
        onConfirm={() =>
          remove.mutate([...selected].map(Number), {
            onSuccess: (result) => {
              setConfirmRemove(false);
              setSelected(new Set());
              toast({
                title: 'Contacts removed',
                description: `${formatNumber(result.removed)} ${result.removed === 1 ? 'contact' : 'contacts'} removed from the list.`,
              });
            },
            onError: (error) =>
              toast({
                title: 'Not removed',
                description: getErrorMessage(error, 'Please try again.'),
                variant: 'destructive',
              }),
          })
        }
      />
      <ConfirmDialog
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        title="Delete this list?"
        description={
          <p>
            <strong>{data?.name}</strong> moves to the recycle bin. You can restore it for 30 days.
          </p>
        }
        confirmLabel="Delete"
        pendingLabel="Deleting…"
        destructive
        pending={deleteList.pending}
        onConfirm={() =>
          data &&
          deleteList.run(data, () => {
            setConfirmDelete(false);
            navigate('/lead-discovery?tab=lists');
          })
        }
      />
    </div>
  );
}
