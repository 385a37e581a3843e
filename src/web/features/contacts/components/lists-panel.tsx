import type { ContactList } from '@shared/lists';
import {
  ArchiveRestore,
  ArrowLeft,
  Download,
  FileUp,
  ListPlus,
  ListTodo,
  MoreHorizontal,
  Pencil,
  Trash2,
} from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { QueryError } from '@/components/query-error';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/errors';
import { formatDate, formatNumber, formatRelative } from '@/lib/format';
import {
  type DeletedList,
  listExportUrl,
  useDeleteListForever,
  useLists,
  useRecycleBin,
  useRestoreList,
} from '../api/lists';
import { ListFormDialog } from './list-form-dialog';
import { useDeleteListWithUndo } from './use-delete-list';

function ListRowActions({
  list,
  onEdit,
  onDelete,
}: {
  list: ContactList;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const navigate = useNavigate();
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button
          variant="ghost"
          size="icon-sm"
          aria-label={`Actions for ${list.name}`}
          data-testid="list-actions"
        >
          <MoreHorizontal aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuItem onSelect={onEdit}>
          <Pencil aria-hidden="true" />
          Rename or edit
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => navigate(`/lead-discovery/import?listId=${list.id}`)}>
          <FileUp aria-hidden="true" />
          Import CSV
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <a href={listExportUrl(list.id)} download>
            <Download aria-hidden="true" />
            Export CSV
          </a>
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem variant="destructive" onSelect={onDelete} data-testid="delete-list">
          <Trash2 aria-hidden="true" />
          Delete
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

function ListsTable({
  lists,
  loading,
  onEdit,
  onDelete,
}: {
  lists: ContactList[] | undefined;
  loading: boolean;
  onEdit: (list: ContactList) => void;
  onDelete: (list: ContactList) => void;
}) {
  return (
    <div className="overflow-hidden rounded-lg border">
      <Table data-testid="lists-table">
        <TableHeader>
          <TableRow className="bg-muted/40 hover:bg-muted/40">
            <TableHead>Name</TableHead>
            <TableHead className="text-right">Contacts</TableHead>
            <TableHead className="hidden md:table-cell">Custom fields</TableHead>
            <TableHead className="hidden sm:table-cell">Updated</TableHead>
            <TableHead className="w-12">
              <span className="sr-only">Actions</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {loading || !lists
            ? Array.from({ length: 4 }, (_, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: placeholders
                <TableRow key={index}>
                  {Array.from({ length: 5 }, (_, cell) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: placeholders
                    <TableCell key={cell}>
                      <Skeleton className="h-4 w-full max-w-32" />
                    </TableCell>
                  ))}
                </TableRow>
              ))
            : lists.map((list) => (
                <TableRow key={list.id} data-testid="list-row" data-list-id={list.id}>
                  <TableCell className="max-w-72">
                    <Link
                      to={`/lead-discovery/lists/${list.id}`}
                      className="block truncate font-medium hover:underline focus-visible:underline focus-visible:outline-none"
                      data-testid="open-list"
                    >
                      {list.name}
                    </Link>
                    {list.description && (
                      <p className="truncate text-xs text-muted-foreground">{list.description}</p>
                    )}
                    {list.frozen && (
                      <Badge variant="destructive" title={list.frozenReason ?? undefined}>
                        Frozen by the Tambari team
                      </Badge>
                    )}
                  </TableCell>
                  <TableCell className="text-right tabular-nums" data-testid="list-count">
                    {formatNumber(list.contactCount)}
                  </TableCell>
                  <TableCell className="hidden md:table-cell">
                    <div className="flex max-w-64 flex-wrap gap-1">
                      {list.customFields.length === 0 ? (
                        <span className="text-muted-foreground">—</span>
                      ) : (
                        list.customFields.slice(0, 4).map((name) => (
                          <Badge key={name} variant="outline" className="font-mono">
                            {name}
                          </Badge>
                        ))
                      )}
                      {list.customFields.length > 4 && (
                        <Badge variant="outline">+{list.customFields.length - 4}</Badge>
                      )}
                    </div>
                  </TableCell>
                  <TableCell className="hidden whitespace-nowrap text-muted-foreground sm:table-cell">
                    <time dateTime={list.updatedAt} title={formatDate(list.updatedAt)}>
                      {formatRelative(list.updatedAt)}
                    </time>
                  </TableCell>
                  <TableCell>
                    <ListRowActions list={list} onEdit={() => onEdit(list)} onDelete={() => onDelete(list)} />
                  </TableCell>
                </TableRow>
              ))}
        </TableBody>
      </Table>
    </div>
  );
}

function RecycleBinView({ onBack }: { onBack: () => void }) {
  const bin = useRecycleBin();
  const restore = useRestoreList();
  const purge = useDeleteListForever();
  const [purging, setPurging] = useState<DeletedList | null>(null);
  const lists = bin.data?.lists;

  return (
    <Card data-testid="recycle-bin">
      <CardHeader>
        <CardTitle>
          <h2>Recycle bin</h2>
        </CardTitle>
        <CardDescription>
          Deleted lists stay here for 30 days, then they are removed for good.
        </CardDescription>
        <CardAction>
          <Button variant="outline" onClick={onBack}>
            <ArrowLeft aria-hidden="true" />
            Back to lists
          </Button>
        </CardAction>
      </CardHeader>
      <CardContent>
        {bin.isError ? (
          <QueryError
            title="The recycle bin could not be loaded"
            error={bin.error}
            onRetry={() => bin.refetch()}
          />
        ) : lists && lists.length === 0 ? (
          <div className="rounded-lg border border-dashed px-6 py-12 text-center text-sm text-muted-foreground">
            The recycle bin is empty.
          </div>
        ) : (
          <div className="overflow-hidden rounded-lg border">
            <Table>
              <TableHeader>
                <TableRow className="bg-muted/40 hover:bg-muted/40">
                  <TableHead>Name</TableHead>
                  <TableHead className="text-right">Contacts</TableHead>
                  <TableHead className="hidden sm:table-cell">Deleted</TableHead>
                  <TableHead className="hidden sm:table-cell">Removed for good</TableHead>
                  <TableHead className="text-right">
                    <span className="sr-only">Actions</span>
                  </TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {(lists ?? []).map((list) => (
                  <TableRow key={list.id} data-testid="deleted-list-row">
                    <TableCell className="max-w-64 truncate font-medium">{list.name}</TableCell>
                    <TableCell className="text-right tabular-nums">
                      {formatNumber(list.contactCount)}
                    </TableCell>
                    <TableCell className="hidden text-muted-foreground sm:table-cell">
                      {formatRelative(list.deletedAt)}
                    </TableCell>
                    <TableCell className="hidden text-muted-foreground sm:table-cell">
                      {formatDate(list.purgeAt)}
                    </TableCell>
                    <TableCell>
                      <div className="flex justify-end gap-2">
                        <Button
                          size="sm"
                          variant="outline"
                          disabled={restore.isPending}
                          onClick={() =>
                            restore.mutate(list.id, {
                              onSuccess: (restored) =>
                                toast({ title: 'List restored', description: restored.name }),
                              onError: (error) =>
                                toast({
                                  title: 'List not restored',
                                  description: getErrorMessage(error, 'Please try again.'),
                                  variant: 'destructive',
                                }),
                            })
                          }
                          data-testid="restore-list"
                        >
                          <ArchiveRestore aria-hidden="true" />
                          Restore
                        </Button>
                        <Button
                          size="sm"
                          variant="ghost"
                          className="text-destructive hover:text-destructive"
                          onClick={() => setPurging(list)}
                        >
                          <Trash2 aria-hidden="true" />
                          <span className="sr-only sm:not-sr-only">Delete forever</span>
                        </Button>
                      </div>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        )}
      </CardContent>
      <ConfirmDialog
        open={Boolean(purging)}
        onOpenChange={(open) => !open && setPurging(null)}
        title="Delete this list for good?"
        description={
          <p>
            <strong>{purging?.name}</strong> and its {formatNumber(purging?.contactCount ?? 0)} contacts will
            be removed permanently. This cannot be undone.
          </p>
        }
        confirmLabel="Delete forever"
        pendingLabel="Deleting…"
        destructive
        pending={purge.isPending}
        onConfirm={() =>
          purging &&
          purge.mutate(purging.id, {
            onSuccess: () => {
              toast({ title: 'List deleted for good', description: purging.name });
              setPurging(null);
            },
            onError: (error) =>
              toast({
                title: 'List not deleted',
                description: getErrorMessage(error, 'Please try again.'),
                variant: 'destructive',
              }),
          })
        }
      />
    </Card>
  );
}

/** The "My lists" tab: the user's lists, new list, import, and the recycle bin. */
export function ListsPanel() {
  const lists = useLists();
  const [view, setView] = useState<'lists' | 'bin'>('lists');
  const [editing, setEditing] = useState<ContactList | undefined>();
  const [formOpen, setFormOpen] = useState(false);
  const [deleting, setDeleting] = useState<ContactList | null>(null);
  const deleteList = useDeleteListWithUndo();
  const navigate = useNavigate();

  if (view === 'bin') return <RecycleBinView onBack={() => setView('lists')} />;
  const data = lists.data?.lists;

  return (
    <Card data-testid="lists-panel">
      <CardHeader>
        <CardTitle>
          <h2>My lists</h2>
        </CardTitle>
        <CardDescription>
          Your own contacts: imported from CSV files or added from the directory.
        </CardDescription>
        <CardAction className="flex flex-wrap gap-2">
          <Button variant="ghost" onClick={() => setView('bin')} data-testid="open-recycle-bin">
            <Trash2 aria-hidden="true" />
            Recycle bin
          </Button>
          <Button variant="ghost" asChild>
            <Link to="/database-download" data-testid="open-database-download">
              <Download aria-hidden="true" />
              Database download
            </Link>
          </Button>
          <Button variant="outline" asChild>
            <Link to="/lead-discovery/import" data-testid="import-csv">
              <FileUp aria-hidden="true" />
              Import CSV
            </Link>
          </Button>
          <Button
            onClick={() => {
              setEditing(undefined);
              setFormOpen(true);
            }}
            data-testid="new-list"
          >
            <ListPlus aria-hidden="true" />
            New list
          </Button>
        </CardAction>
      </CardHeader>
      <CardContent>
        {lists.isError ? (
          <QueryError
            title="Your lists could not be loaded"
            error={lists.error}
            onRetry={() => lists.refetch()}
          />
        ) : data && data.length === 0 ? (
          <div
            className="flex flex-col items-center gap-2 rounded-lg border border-dashed px-6 py-14 text-center"
            data-testid="lists-empty"
          >
            <ListTodo className="size-8 text-muted-foreground" aria-hidden="true" />
            <p className="font-medium">No lists yet</p>
            <p className="max-w-sm text-sm text-muted-foreground">
              Import your contacts from a CSV file, or add contacts from Browse Contacts to a new list.
            </p>
            <div className="mt-2 flex gap-2">
              <Button variant="outline" size="sm" asChild>
                <Link to="/lead-discovery/import">
                  <FileUp aria-hidden="true" />
                  Import CSV
                </Link>
              </Button>
              <Button size="sm" onClick={() => setFormOpen(true)}>
                <ListPlus aria-hidden="true" />
                New list
              </Button>
            </div>
          </div>
        ) : (
          <ListsTable
            lists={data}
            loading={lists.isPending}
            onEdit={(list) => {
              setEditing(list);
              setFormOpen(true);
            }}
            onDelete={setDeleting}
          />
        )}
      </CardContent>
      <ListFormDialog
        open={formOpen}
        onOpenChange={setFormOpen}
        list={editing}
        onSaved={(saved) => {
          if (!editing) navigate(`/lead-discovery/lists/${saved.id}`);
        }}
      />
      <ConfirmDialog
        open={Boolean(deleting)}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete this list?"
        description={
          <p>
            <strong>{deleting?.name}</strong> ({formatNumber(deleting?.contactCount ?? 0)} contacts) moves to
            the recycle bin. You can restore it for 30 days.
          </p>
        }
        confirmLabel="Delete"
        pendingLabel="Deleting…"
        destructive
        pending={deleteList.pending}
        onConfirm={() => deleting && deleteList.run(deleting, () => setDeleting(null))}
        testId="confirm-delete-list"
      />
    </Card>
  );
}
