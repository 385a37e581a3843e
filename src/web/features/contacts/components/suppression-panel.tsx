import { CONTACT_MESSAGES, emailSchema, SUPPRESSION_REASONS, type SuppressionReason } from '@shared/contacts';
import type { Suppression } from '@shared/suppression';
import type { ColumnDef } from '@tanstack/react-table';
import { FileUp, Lock, Plus, ShieldBan, Trash2 } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { CursorPagination } from '@/components/cursor-pagination';
import { DataTable } from '@/components/data-table/data-table';
import { FilterSelect } from '@/components/filter-select';
import { QueryError } from '@/components/query-error';
import { SearchInput } from '@/components/search-input';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { useCursorPages } from '@/hooks/use-cursor-pages';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { toast } from '@/hooks/use-toast';
import { rowRange } from '@/lib/cursor-pages';
import { getErrorMessage } from '@/lib/errors';
import { formatDate, formatNumber } from '@/lib/format';
import { useAddSuppressions, useRemoveSuppression, useSuppressions } from '../api/suppressions';
import { parseEmailList } from '../lib/email-list';

const PAGE_SIZE = 50;

export const SUPPRESSION_REASON_LABELS: Record<SuppressionReason, string> = {
  unsubscribed: 'Unsubscribed',
  bounced: 'Bounced',
  complained: 'Spam complaint',
  manual: 'Added manually',
  erased: 'Erased on request',
};

function ReasonBadge({ reason }: { reason: SuppressionReason }) {
  const variant = reason === 'manual' ? 'outline' : reason === 'bounced' ? 'warning' : 'secondary';
  return <Badge variant={variant}>{SUPPRESSION_REASON_LABELS[reason]}</Badge>;
}

function AddSuppressionsDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const id = useId();
  const add = useAddSuppressions();
  const [text, setText] = useState('');
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: clear on open
  useEffect(() => {
    if (open) {
      setText('');
      setNote('');
      setProblem(null);
      add.reset();
    }
  }, [open]);

  const parsed = parseEmailList(text, (value) => emailSchema.safeParse(value).success);
  const submit = () => {
    if (parsed.valid.length === 0) {
      setProblem(
        parsed.invalid.length
          ? `${CONTACT_MESSAGES.invalidEmail}: ${parsed.invalid[0]}`
          : 'Enter at least one email address.',
      );
      return;
    }
    if (parsed.invalid.length > 0) {
      setProblem(`${CONTACT_MESSAGES.invalidEmail}: ${parsed.invalid.slice(0, 3).join(', ')}`);
      return;
    }
    if (parsed.valid.length > 1000) {
      setProblem('Add at most 1,000 addresses at once, or import a CSV file.');
      return;
    }
    add.mutate(
      { emails: parsed.valid, reason: 'manual', note: note.trim() || null },
      {
        onSuccess: (result) => {
          onOpenChange(false);
          toast({
            title: 'Suppression list updated',
            description:
              result.alreadySuppressed > 0
                ? `${formatNumber(result.added)} added; ${formatNumber(result.alreadySuppressed)} already suppressed.`
                : `${formatNumber(result.added)} ${result.added === 1 ? 'address' : 'addresses'} added.`,
          });
        },
      },
    );
  };

  return (
    <Dialog open={open} onOpenChange={(next) => !add.isPending && onOpenChange(next)}>
      <DialogContent data-testid="add-suppressions-dialog">
        <DialogHeader>
          <DialogTitle>Suppress addresses</DialogTitle>
          <DialogDescription>
            Campaigns and newsletters never send to a suppressed address. Only a fingerprint of each address
            is kept.
          </DialogDescription>
        </DialogHeader>
        <form
          className="grid gap-4"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <div className="grid gap-2">
            <Label htmlFor={`${id}-emails`}>Email addresses</Label>
            <Textarea
              id={`${id}-emails`}
              value={text}
              onChange={(event) => {
                setText(event.target.value);
                setProblem(null);
              }}
              rows={5}
              placeholder={'one@example.com\ntwo@example.com'}
              aria-describedby={`${id}-hint`}
              aria-invalid={Boolean(problem) || undefined}
              data-testid="suppression-emails"
            />
            <p id={`${id}-hint`} className="text-xs text-muted-foreground">
              One per line, or separated by commas.
              {parsed.valid.length > 0 && ` ${formatNumber(parsed.valid.length)} to add.`}
            </p>
          </div>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-note`}>
              Note <span className="font-normal text-muted-foreground">(optional)</span>
            </Label>
            <Input
              id={`${id}-note`}
              value={note}
              onChange={(event) => setNote(event.target.value)}
              maxLength={500}
              placeholder="e.g. Asked by phone not to be emailed"
            />
          </div>
          {(problem || add.isError) && (
            <Alert variant="destructive">
              <AlertDescription role="alert">
                {problem ?? getErrorMessage(add.error, 'The addresses could not be added.')}
              </AlertDescription>
            </Alert>
          )}
          <DialogFooter>
            <Button
              type="button"
              variant="ghost"
              onClick={() => onOpenChange(false)}
              disabled={add.isPending}
            >
              Cancel
            </Button>
            <Button type="submit" disabled={add.isPending} data-testid="add-suppressions-submit">
              {add.isPending ? 'Adding…' : 'Suppress'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** Note and date give way on narrow screens; the address, reason and remove action stay. */
function suppressionColumns(onRemove: (entry: Suppression) => void): ColumnDef<Suppression>[] {
  return [
    {
      id: 'address',
      header: 'Address',
      meta: { cellClassName: 'font-mono text-xs' },
      cell: ({ row: { original: entry } }) => entry.emailHint,
    },
    {
      id: 'reason',
      header: 'Reason',
      cell: ({ row: { original: entry } }) => <ReasonBadge reason={entry.reason} />,
    },
    {
      id: 'note',
      header: 'Note',
      meta: { className: 'hidden md:table-cell', cellClassName: 'max-w-64 truncate text-muted-foreground' },
      cell: ({ row: { original: entry } }) => entry.note ?? '—',
    },
    {
      id: 'added',
      header: 'Added',
      meta: { className: 'hidden sm:table-cell', cellClassName: 'whitespace-nowrap text-muted-foreground' },
      cell: ({ row: { original: entry } }) => formatDate(entry.createdAt),
    },
    {
      id: 'actions',
      header: () => <span className="sr-only">Actions</span>,
      meta: { className: 'w-12' },
      cell: ({ row: { original: entry } }) =>
        entry.removable ? (
          <Button
            variant="ghost"
            size="icon-sm"
            onClick={() => onRemove(entry)}
            aria-label={`Remove ${entry.emailHint} from the suppression list`}
            data-testid="remove-suppression"
          >
            <Trash2 aria-hidden="true" />
          </Button>
        ) : (
          <span
            className="inline-flex size-8 items-center justify-center text-muted-foreground"
            title={CONTACT_MESSAGES.suppressionPermanent}
          >
            <Lock className="size-4" aria-hidden="true" />
            <span className="sr-only">{CONTACT_MESSAGES.suppressionPermanent}</span>
          </span>
        ),
    },
  ];
}

/** The "Suppression" tab: addresses this account never emails (unsubscribes, bounces, manual). */
export function SuppressionPanel() {
  const [lookup, setLookup] = useState('');
  const debounced = useDebouncedValue(lookup, 300);
  // The server finds one exact address (it compares fingerprints), so only a whole address searches.
  const email = emailSchema.safeParse(debounced).success ? debounced.trim() : '';
  const [reason, setReason] = useState<SuppressionReason | undefined>();
  const pager = useCursorPages(JSON.stringify([email, reason]));
  const suppressions = useSuppressions({ email, reason, cursor: pager.cursor, limit: PAGE_SIZE });
  const remove = useRemoveSuppression();
  const [removing, setRemoving] = useState<Suppression | null>(null);
  const [addOpen, setAddOpen] = useState(false);
  const items = suppressions.data?.items;
  const range = rowRange(pager.pages, PAGE_SIZE, items?.length ?? 0);
  const filtered = Boolean(email || reason);

  return (
    <Card data-testid="suppression-panel">
      <CardHeader>
        <CardTitle>
          <h2>Suppression list</h2>
        </CardTitle>
        <CardDescription>
          Nothing is ever sent to these addresses. Unsubscribes and spam complaints are permanent.
        </CardDescription>
        <CardAction className="flex flex-wrap gap-2">
          <Button variant="outline" asChild>
            <Link to="/lead-discovery/import?target=suppression" data-testid="import-suppressions">
              <FileUp aria-hidden="true" />
              Import CSV
            </Link>
          </Button>
          <Button onClick={() => setAddOpen(true)} data-testid="add-suppressions">
            <Plus aria-hidden="true" />
            Add addresses
          </Button>
        </CardAction>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="flex flex-col gap-3 sm:flex-row">
          <SearchInput
            className="flex-1 sm:max-w-sm"
            value={lookup}
            onChange={setLookup}
            placeholder="Look up an exact address"
            aria-label="Look up an exact email address"
            data-testid="suppression-lookup"
          />
          <FilterSelect
            value={reason}
            onChange={setReason}
            allLabel="All reasons"
            options={SUPPRESSION_REASONS}
            optionLabel={(value) => SUPPRESSION_REASON_LABELS[value]}
            className="w-full sm:w-48"
            aria-label="Filter by reason"
          />
        </div>
        {suppressions.isError && !items ? (
          <QueryError
            title="The suppression list could not be loaded"
            error={suppressions.error}
            onRetry={() => suppressions.refetch()}
          />
        ) : (
          <>
            <DataTable
              columns={suppressionColumns(setRemoving)}
              rows={items}
              getRowId={(entry) => entry.id}
              loading={suppressions.isPending}
              stale={suppressions.isPlaceholderData}
              skeletonRows={5}
              empty={{
                icon: ShieldBan,
                title: filtered ? 'Not on your suppression list' : 'No suppressed addresses yet',
                description: filtered
                  ? 'No entry matches this address or reason.'
                  : 'Unsubscribes and bounces from your campaigns land here automatically. You can also add addresses yourself.',
                testId: 'suppressions-empty',
              }}
              testId="suppressions-table"
              rowTestId="suppression-row"
            />
            {items && items.length > 0 && (
              <CursorPagination
                from={range.from}
                to={range.to}
                hasPrevious={pager.hasPrevious}
                hasNext={Boolean(suppressions.data?.nextCursor)}
                onPrevious={pager.goPrevious}
                onNext={() => pager.goNext(suppressions.data?.nextCursor)}
                busy={suppressions.isPlaceholderData && suppressions.isFetching}
                noun="addresses"
              />
            )}
          </>
        )}
      </CardContent>
      <AddSuppressionsDialog open={addOpen} onOpenChange={setAddOpen} />
      <ConfirmDialog
        open={Boolean(removing)}
        onOpenChange={(open) => !open && setRemoving(null)}
        title="Remove from the suppression list?"
        description={<p>Campaigns may email {removing?.emailHint} again.</p>}
        confirmLabel="Remove"
        pendingLabel="Removing…"
        destructive
        pending={remove.isPending}
        onConfirm={() =>
          removing &&
          remove.mutate(removing.id, {
            onSuccess: () => {
              toast({ title: 'Address removed', description: `${removing.emailHint} can be emailed again.` });
              setRemoving(null);
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
    </Card>
  );
}
