import {
  OPERATOR_LABELS,
  SEGMENT_FIELD_LABELS,
  type Segment,
  type SegmentMatch,
  type SegmentRule,
  segmentCountSchema,
} from '@shared/segments';
import { Filter, Loader2, Pencil, Plus, Trash2, X } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { useSegment, useSegments } from '@/components/segments/segment-picker';
import { Alert, AlertDescription } from '@/components/ui/alert';
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
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import {
  Select,
  SelectContent,
  SelectGroup,
  SelectItem,
  SelectLabel,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage, parseApiError } from '@/lib/errors';
import { formatNumber } from '@/lib/format';
import { useCreateSegment, useDeleteSegment, useSegmentRulesCount, useUpdateSegment } from '../api/segments';
import {
  fieldChoices,
  newRow,
  operatorsFor,
  type RuleRow,
  toRow,
  toRule,
  valueKind,
  withField,
} from '../lib/segment-draft';

const contacts = (n: number) => `${formatNumber(n)} ${n === 1 ? 'contact' : 'contacts'}`;

/** One rule row: field, operator and value, side by side on a wide screen, stacked on a phone. */
function RuleRowFields({
  row,
  index,
  customFields,
  error,
  onChange,
  onRemove,
}: {
  row: RuleRow;
  index: number;
  customFields: readonly string[];
  error?: string;
  onChange: (row: RuleRow) => void;
  onRemove: () => void;
}) {
  const choices = fieldChoices(customFields);
  const groups = ['Contact', 'Custom fields', 'Engagement'] as const;
  const kind = valueKind(row);
  const n = index + 1;
  return (
    <div className="space-y-1 rounded-md border p-2 sm:border-0 sm:p-0" data-testid="segment-rule">
      <div className="grid grid-cols-[1fr_auto] gap-2 sm:grid-cols-[minmax(0,11rem)_minmax(0,10rem)_1fr_auto]">
        <Select value={row.what} onValueChange={(what) => onChange(withField(row, what))}>
          <SelectTrigger className="w-full" aria-label={`Rule ${n} field`}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {groups.map((group) => {
              const items = choices.filter((c) => c.group === group);
              if (items.length === 0) return null;
              return (
                <SelectGroup key={group}>
                  <SelectLabel>{group}</SelectLabel>
                  {items.map((c) => (
                    <SelectItem key={c.what} value={c.what}>
                      {c.label}
                    </SelectItem>
                  ))}
                </SelectGroup>
              );
            })}
          </SelectContent>
        </Select>
        <Button
          type="button"
          variant="ghost"
          size="icon"
          className="sm:order-last"
          onClick={onRemove}
          aria-label={`Remove rule ${n}`}
        >
          <X aria-hidden="true" />
        </Button>
        <Select value={row.operator} onValueChange={(operator) => onChange({ ...row, operator })}>
          <SelectTrigger className="col-span-2 w-full sm:col-span-1" aria-label={`Rule ${n} operator`}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {operatorsFor(row.what).map((op) => (
              <SelectItem key={op} value={op}>
                {OPERATOR_LABELS[op as keyof typeof OPERATOR_LABELS]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <div className="col-span-2 sm:col-span-1">
          {kind === 'none' ? null : kind === 'days' ? (
            <div className="flex items-center gap-2">
              <Input
                type="number"
                min={1}
                max={365}
                inputMode="numeric"
                className="w-24"
                value={row.value}
                onChange={(e) => onChange({ ...row, value: e.target.value })}
                aria-label={`Rule ${n} days`}
                aria-invalid={error ? true : undefined}
              />
              <span className="text-sm text-muted-foreground">days</span>
            </div>
          ) : (
            <Input
              type={kind === 'date' ? 'date' : 'text'}
              value={row.value}
              placeholder={kind === 'list' ? 'Lagos, Abuja, Kano' : 'Value'}
              onChange={(e) => onChange({ ...row, value: e.target.value })}
              aria-label={`Rule ${n} value`}
              aria-invalid={error ? true : undefined}
            />
          )}
        </div>
      </div>
      {error && <p className="text-sm text-destructive">{error}</p>}
    </div>
  );
}

/** The first problem of each row (by index), from the shared schema or the server's field errors. */
function rowErrors(issues: { path: string; message: string }[]): Record<number, string> {
  const byRow: Record<number, string> = {};
  for (const issue of issues) {
    const match = /^rules\.(\d+)/.exec(issue.path);
    if (match) byRow[Number(match[1])] ??= issue.message;
  }
  return byRow;
}

/** Create or edit a segment: name, all/any, rule rows and the live count of who it reaches. */
function SegmentBuilderDialog({
  open,
  onOpenChange,
  listId,
  customFields,
  segment,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  listId: string;
  customFields: readonly string[];
  segment: Segment | null;
}) {
  const id = useId();
  const [name, setName] = useState(segment?.name ?? '');
  const [match, setMatch] = useState<SegmentMatch>(segment?.match ?? 'all');
  const [rows, setRows] = useState<RuleRow[]>(() => segment?.rules.map(toRow) ?? [newRow()]);
  const [serverErrors, setServerErrors] = useState<{ path: string; message: string }[]>([]);
  const [formError, setFormError] = useState<string | null>(null);
  const create = useCreateSegment();
  const update = useUpdateSegment();
  const pending = create.isPending || update.isPending;

  const rules = useMemo(() => rows.map(toRule), [rows]);
  const parsed = segmentCountSchema.safeParse({ listId, match, rules });
  const localIssues = parsed.success
    ? []
    : parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  // The count follows the rules once typing pauses, and only rules the server would accept.
  const debounced = useDebouncedValue(parsed.success ? JSON.stringify(parsed.data.rules) : null, 400);
  const count = useSegmentRulesCount(
    listId,
    match,
    debounced === null ? null : (JSON.parse(debounced) as SegmentRule[]),
  );
  const errors = rowErrors([...serverErrors, ...localIssues.filter((i) => rowTouched(i.path))]);

  function rowTouched(path: string): boolean {
    // A new row's empty value is an unfilled field, not an error, until the user saves.
    return formError !== null || serverErrors.length > 0 || !/\.value$/.test(path);
  }

  const setRow = (index: number, row: RuleRow) => {
    setServerErrors([]);
    setRows(rows.map((r, i) => (i === index ? row : r)));
  };

  const save = async () => {
    setServerErrors([]);
    setFormError(null);
    if (!name.trim()) {
      setFormError('Give the segment a name.');
      return;
    }
    if (!parsed.success || rules.length === 0) {
      setFormError(rules.length === 0 ? 'Add at least one rule.' : 'Check the rules marked below.');
      return;
    }
    try {
      const saved = segment
        ? await update.mutateAsync({ id: segment.id, name: name.trim(), match, rules })
        : await create.mutateAsync({ listId, name: name.trim(), match, rules });
      toast({
        title: segment ? 'Segment saved' : 'Segment created',
        description: `${saved.name}: ${contacts(saved.count)}.`,
      });
      onOpenChange(false);
    } catch (error) {
      const failure = parseApiError(error);
      const fieldErrors = (failure.data?.errors ?? []) as { path: string; message: string }[];
      setServerErrors(fieldErrors.filter((e) => typeof e.path === 'string'));
      setFormError(getErrorMessage(error, 'The segment could not be saved. Try again.'));
    }
  };

  return (
    <Dialog open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-3xl" data-testid="segment-builder">
        <DialogHeader>
          <DialogTitle>{segment ? 'Edit segment' : 'New segment'}</DialogTitle>
          <DialogDescription>
            The contacts of this list that match the rules. Unsubscribed and bounced addresses are never
            counted or sent to.
          </DialogDescription>
        </DialogHeader>
        <div className="space-y-4">
          <div className="space-y-1">
            <Label htmlFor={`${id}-name`}>Segment name</Label>
            <Input
              id={`${id}-name`}
              value={name}
              maxLength={100}
              onChange={(e) => setName(e.target.value)}
              placeholder="Engaged Lagos customers"
            />
          </div>
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <span>Contacts matching</span>
            <Select value={match} onValueChange={(v) => setMatch(v as SegmentMatch)}>
              <SelectTrigger size="sm" className="w-24" aria-label="Match">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value="all">all</SelectItem>
                <SelectItem value="any">any</SelectItem>
              </SelectContent>
            </Select>
            <span>of these rules</span>
          </div>
          <div className="space-y-3">
            {rows.map((row, index) => (
              <RuleRowFields
                // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity of their own; removing one re-renders the rest
                key={index}
                row={row}
                index={index}
                customFields={customFields}
                error={errors[index]}
                onChange={(next) => setRow(index, next)}
                onRemove={() => setRows(rows.filter((_, i) => i !== index))}
              />
            ))}
            <Button type="button" variant="outline" size="sm" onClick={() => setRows([...rows, newRow()])}>
              <Plus aria-hidden="true" />
              Add rule
            </Button>
          </div>
          <p className="text-sm" aria-live="polite" data-testid="segment-live-count">
            {!parsed.success ? (
              <span className="text-muted-foreground">
                Complete the rules to see how many contacts match.
              </span>
            ) : count.isError ? (
              <span className="text-destructive">{getErrorMessage(count.error, 'The count failed.')}</span>
            ) : count.data ? (
              <>
                <strong>{contacts(count.data.count)}</strong> {count.data.count === 1 ? 'matches' : 'match'}
                {count.isFetching && (
                  <Loader2 className="ml-2 inline size-3.5 animate-spin" aria-label="Counting" />
                )}
              </>
            ) : (
              <span className="text-muted-foreground">Counting…</span>
            )}
          </p>
          {formError && (
            <Alert variant="destructive">
              <AlertDescription>{formError}</AlertDescription>
            </Alert>
          )}
        </div>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
            Cancel
          </Button>
          <Button type="button" onClick={save} disabled={pending} data-testid="segment-save">
            {pending && <Loader2 className="animate-spin" aria-hidden="true" />}
            {segment ? 'Save segment' : 'Create segment'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function describeRule(rule: SegmentRule): string {
  if (rule.type === 'engagement') {
    return `${rule.event} ${OPERATOR_LABELS[rule.operator]} ${rule.days} days`.replace(/^./, (c) =>
      c.toUpperCase(),
    );
  }
  const value = Array.isArray(rule.value) ? rule.value.join(', ') : (rule.value ?? '');
  const field = rule.type === 'custom' ? rule.field : SEGMENT_FIELD_LABELS[rule.field];
  return `${field} ${OPERATOR_LABELS[rule.operator]} ${value}`.trim();
}

function SegmentItem({
  segment,
  onEdit,
  onDelete,
}: {
  segment: Segment;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const withCount = useSegment(segment.id);
  return (
    <li
      className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between"
      data-testid="segment-item"
    >
      <div className="min-w-0 space-y-0.5">
        <p className="font-medium">{segment.name}</p>
        <p
          className="truncate text-xs text-muted-foreground"
          title={segment.rules.map(describeRule).join('; ')}
        >
          {segment.match === 'all' ? 'All of: ' : 'Any of: '}
          {segment.rules.map(describeRule).join('; ')}
        </p>
      </div>
      <div className="flex shrink-0 items-center gap-2">
        <span className="text-sm text-muted-foreground" data-testid="segment-item-count">
          {withCount.data ? (
            contacts(withCount.data.count)
          ) : (
            <Loader2 className="size-3.5 animate-spin" aria-label="Counting" />
          )}
        </span>
        <Button variant="ghost" size="sm" onClick={onEdit} aria-label={`Edit ${segment.name}`}>
          <Pencil aria-hidden="true" />
          Edit
        </Button>
        <Button variant="ghost" size="icon" onClick={onDelete} aria-label={`Delete ${segment.name}`}>
          <Trash2 aria-hidden="true" />
        </Button>
      </div>
    </li>
  );
}

/** A list's segments: its audience narrowed by rules, to send newsletters, bulk email and campaigns to. */
export function SegmentsCard({ listId, customFields }: { listId: string; customFields: readonly string[] }) {
  const segments = useSegments(listId);
  const remove = useDeleteSegment();
  const [editing, setEditing] = useState<Segment | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Segment | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const items = segments.data?.segments ?? [];

  return (
    <Card className="py-4" data-testid="segments-card">
      <CardContent className="space-y-2 px-4">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="space-y-1">
            <p className="flex items-center gap-2 font-medium">
              <Filter className="size-4" aria-hidden="true" />
              Segments
            </p>
            <p className="text-sm text-muted-foreground">
              Send to part of this list: contacts matching rules on their fields, custom fields or how they
              engaged with your emails.
            </p>
          </div>
          <Button variant="outline" onClick={() => setEditing('new')} data-testid="segment-new">
            <Plus aria-hidden="true" />
            New segment
          </Button>
        </div>
        {items.length > 0 && (
          <ul className="divide-y">
            {items.map((segment) => (
              <SegmentItem
                key={segment.id}
                segment={segment}
                onEdit={() => setEditing(segment)}
                onDelete={() => {
                  setDeleteError(null);
                  setDeleting(segment);
                }}
              />
            ))}
          </ul>
        )}
      </CardContent>
      {editing && (
        <SegmentBuilderDialog
          open
          onOpenChange={(open) => !open && setEditing(null)}
          listId={listId}
          customFields={customFields}
          segment={editing === 'new' ? null : editing}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={`Delete “${deleting?.name ?? ''}”?`}
        description={
          deleteError ??
          'The contacts stay in the list; only the rules are deleted. Sent emails keep their reports.'
        }
        confirmLabel="Delete segment"
        pendingLabel="Deleting…"
        destructive
        pending={remove.isPending}
        onConfirm={async () => {
          if (!deleting) return;
          try {
            await remove.mutateAsync(deleting.id);
            toast({ title: 'Segment deleted', description: deleting.name });
            setDeleting(null);
          } catch (error) {
            // In use by an unsent newsletter or a draft campaign: the server says which.
            setDeleteError(getErrorMessage(error, 'The segment could not be deleted. Try again.'));
          }
        }}
        testId="segment-delete-dialog"
      />
    </Card>
  );
}
