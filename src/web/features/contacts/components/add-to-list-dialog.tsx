import { ADD_ALL_MATCHING_MAX } from '@shared/contacts';
import type { AddToListInput } from '@shared/leads';
import { AlertCircle, ListPlus } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
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
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { ToastAction } from '@/components/ui/toast';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage, parseApiError } from '@/lib/errors';
import { formatNumber } from '@/lib/format';
import { type LeadFilterValues, toLeadFilterParams, useAddToList } from '../api/leads';
import { useLists } from '../api/lists';

export type AddToListTarget = { contactIds: string[] } | { allMatching: LeadFilterValues };

/** "12 contacts added to Lagos logistics; 3 were already in the list." */
export function describeAddResult(result: { added: number; skippedDuplicates: number; listName: string }) {
  const added = `${formatNumber(result.added)} ${result.added === 1 ? 'contact' : 'contacts'} added to ${result.listName}`;
  if (result.skippedDuplicates === 0) return `${added}.`;
  const skipped = formatNumber(result.skippedDuplicates);
  return `${added}; ${skipped} ${result.skippedDuplicates === 1 ? 'was' : 'were'} already in the list.`;
}

export function AddToListDialog({
  open,
  onOpenChange,
  target,
  count,
  onAdded,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  target: AddToListTarget;
  /** How many contacts the target stands for (the matching total for "all"). */
  count: number;
  onAdded?: () => void;
}) {
  const id = useId();
  const navigate = useNavigate();
  const lists = useLists();
  const addToList = useAddToList();
  const available = lists.data?.lists ?? [];
  const [mode, setMode] = useState<'existing' | 'new'>('new');
  const [listId, setListId] = useState('');
  const [newName, setNewName] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);

  // A user with lists starts on "existing"; reopen with a clean form.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on open only
  useEffect(() => {
    if (!open) return;
    addToList.reset();
    setFieldError(null);
    setNewName('');
    setListId('');
    setMode(available.length > 0 ? 'existing' : 'new');
  }, [open]);
  useEffect(() => {
    if (open && lists.isSuccess && available.length === 0) setMode('new');
  }, [open, lists.isSuccess, available.length]);

  const over = 'allMatching' in target && count > ADD_ALL_MATCHING_MAX;
  const adding = Math.min(count, ADD_ALL_MATCHING_MAX);
  const failure = addToList.error && !fieldError ? addToList.error : null;

  const submit = () => {
    setFieldError(null);
    const destination =
      mode === 'existing'
        ? listId
          ? { listId }
          : null
        : newName.trim()
          ? { newListName: newName.trim() }
          : null;
    if (!destination) {
      setFieldError(mode === 'existing' ? 'Choose a list.' : 'Give the new list a name.');
      return;
    }
    const body: AddToListInput =
      'contactIds' in target
        ? { ...destination, contactIds: target.contactIds }
        : { ...destination, allMatching: toLeadFilterParams(target.allMatching) };
    addToList.mutate(body, {
      onSuccess: (result) => {
        onOpenChange(false);
        onAdded?.();
        toast({
          title: 'Added to list',
          description: describeAddResult(result),
          action: (
            <ToastAction
              altText="Open the list"
              onClick={() => navigate(`/lead-discovery/lists/${result.listId}`)}
              data-testid="toast-open-list"
            >
              Open list
            </ToastAction>
          ),
        });
      },
      onError: (error) => {
        const { status, message } = parseApiError(error);
        if (status === 409 && mode === 'new')
          setFieldError(message ?? 'You already have a list with this name.');
      },
    });
  };

  return (
    <Dialog open={open} onOpenChange={(next) => !addToList.isPending && onOpenChange(next)}>
      <DialogContent data-testid="add-to-list-dialog">
        <DialogHeader>
          <DialogTitle>Add to list</DialogTitle>
          <DialogDescription>
            {formatNumber(adding)} {adding === 1 ? 'contact' : 'contacts'} will be copied into the list.
            Addresses already in it are skipped.
          </DialogDescription>
        </DialogHeader>
        <form
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
          noValidate
        >
          {over && (
            <Alert variant="warning">
              <AlertCircle aria-hidden="true" />
              <AlertTitle>Only the first {formatNumber(ADD_ALL_MATCHING_MAX)} are added at once</AlertTitle>
              <AlertDescription>
                {formatNumber(count)} contacts match. Narrow the filters (a city, a category) to add the rest
                in another go.
              </AlertDescription>
            </Alert>
          )}
          <RadioGroup
            value={mode}
            onValueChange={(value) => {
              setMode(value as 'existing' | 'new');
              setFieldError(null);
            }}
            className="gap-4"
          >
            <div className="grid gap-2">
              <div className="flex items-center gap-2">
                <RadioGroupItem
                  value="existing"
                  id={`${id}-existing`}
                  disabled={available.length === 0}
                  data-testid="add-to-existing"
                />
                <Label htmlFor={`${id}-existing`} className="font-normal">
                  An existing list
                </Label>
              </div>
              {mode === 'existing' && (
                <Select value={listId} onValueChange={setListId}>
                  <SelectTrigger
                    className="ml-6 w-[calc(100%-1.5rem)]"
                    aria-label="List"
                    aria-invalid={Boolean(fieldError) || undefined}
                    data-testid="add-to-list-select"
                  >
                    <SelectValue placeholder="Choose a list" />
                  </SelectTrigger>
                  <SelectContent>
                    {available.map((list) => (
                      <SelectItem key={list.id} value={list.id}>
                        {list.name}{' '}
                        <span className="text-muted-foreground">({formatNumber(list.contactCount)})</span>
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              )}
            </div>
            <div className="grid gap-2">
              <div className="flex items-center gap-2">
                <RadioGroupItem value="new" id={`${id}-new`} data-testid="add-to-new" />
                <Label htmlFor={`${id}-new`} className="font-normal">
                  A new list
                </Label>
              </div>
              {mode === 'new' && (
                <Input
                  className="ml-6 w-[calc(100%-1.5rem)]"
                  value={newName}
                  onChange={(event) => setNewName(event.target.value)}
                  placeholder="e.g. Lagos logistics companies"
                  aria-label="New list name"
                  aria-invalid={Boolean(fieldError) || undefined}
                  maxLength={100}
                  autoFocus
                  data-testid="new-list-name"
                />
              )}
            </div>
          </RadioGroup>
          {fieldError && (
            <p className="text-sm text-destructive" role="alert" data-testid="add-to-list-field-error">
              {fieldError}
            </p>
          )}
          {failure && (
            <Alert variant="destructive" data-testid="add-to-list-error">
              <AlertCircle aria-hidden="true" />
              <AlertTitle>Nothing was added</AlertTitle>
              <AlertDescription>
                {getErrorMessage(failure, 'The contacts could not be added. Please try again.')}
              </AlertDescription>
            </Alert>
          )}
          <DialogFooter>
            <Button
              type="button"
              variant="ghost"
              onClick={() => onOpenChange(false)}
              disabled={addToList.isPending}
            >
              Cancel
            </Button>
            <Button type="submit" disabled={addToList.isPending} data-testid="add-to-list-submit">
              <ListPlus aria-hidden="true" />
              {addToList.isPending ? 'Adding…' : `Add ${formatNumber(adding)}`}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
