import {
  DAILY_QUOTA_MAX,
  DATA_ENTRY_QUEUE_LABELS,
  DATA_ENTRY_QUEUES,
  type DataEntryQueue,
  type OfficerRow,
} from '@shared/data-entry';
import { type FormEvent, useState } from 'react';
import { CategoryPicker, CountryPicker } from '@/components/contacts/reference-pickers';
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
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/errors';
import { useUpdateAssignment } from '../api/admin-data';

function AssignmentForm({ officer, onClose }: { officer: OfficerRow; onClose: () => void }) {
  const update = useUpdateAssignment();
  const [country, setCountry] = useState<string[]>(
    officer.assignment.countryCode ? [officer.assignment.countryCode] : [],
  );
  const [category, setCategory] = useState<string[]>(
    officer.assignment.category ? [officer.assignment.category] : [],
  );
  const [queue, setQueue] = useState<DataEntryQueue>(officer.assignment.queue);
  const [strict, setStrict] = useState(officer.assignment.strict);
  const [quota, setQuota] = useState(officer.assignment.dailyQuota?.toString() ?? '');
  const needsScope = strict && country.length === 0 && category.length === 0;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate(
      {
        officerId: officer.id,
        assignment: {
          countryCode: country[0] ?? null,
          category: (category[0] as never) ?? null,
          queue,
          strict,
          dailyQuota: quota.trim() === '' ? null : Number(quota),
        },
      },
      {
        onSuccess: () => {
          toast({ title: 'Assignment saved', description: `${officer.email} sees it on their next visit.` });
          onClose();
        },
      },
    );
  };

  return (
    <form onSubmit={submit} className="space-y-4" data-testid="assignment-form">
      <DialogHeader>
        <DialogTitle>Assignment of {officer.name || officer.email}</DialogTitle>
        <DialogDescription>
          The country and category are the officer's defaults on their dashboard. A strict assignment makes
          the server refuse their records outside it.
        </DialogDescription>
      </DialogHeader>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="space-y-2">
          <Label>Country</Label>
          <CountryPicker
            value={country}
            onChange={setCountry}
            multiple={false}
            mode="all"
            placeholder="Any country"
            testId="assignment-country"
          />
        </div>
        <div className="space-y-2">
          <Label>Category</Label>
          <CategoryPicker
            value={category}
            onChange={setCategory}
            multiple={false}
            placeholder="Any category"
            testId="assignment-category"
          />
        </div>
        <div className="space-y-2">
          <Label htmlFor="assignment-queue">Queue</Label>
          <Select value={queue} onValueChange={(value) => setQueue(value as DataEntryQueue)}>
            <SelectTrigger id="assignment-queue" className="w-full">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {DATA_ENTRY_QUEUES.map((value) => (
                <SelectItem key={value} value={value}>
                  {DATA_ENTRY_QUEUE_LABELS[value]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <div className="space-y-2">
          <Label htmlFor="assignment-quota">Daily quota (records)</Label>
          <Input
            id="assignment-quota"
            type="number"
            inputMode="numeric"
            min={1}
            max={DAILY_QUOTA_MAX}
            value={quota}
            onChange={(event) => setQuota(event.target.value)}
            placeholder="No quota"
            data-testid="assignment-quota"
          />
        </div>
      </div>
      <div className="flex items-start gap-3 rounded-md border p-3">
        <Switch
          id="assignment-strict"
          checked={strict}
          onCheckedChange={setStrict}
          data-testid="assignment-strict"
        />
        <div className="space-y-1">
          <Label htmlFor="assignment-strict">Strict</Label>
          <p className="text-xs text-muted-foreground">
            Refuse records outside this country and category (otherwise they are only defaults).
          </p>
          {needsScope && (
            <p className="text-xs text-destructive">Choose a country or a category to hold the officer to.</p>
          )}
        </div>
      </div>
      {update.isError && (
        <p className="text-sm text-destructive" role="alert">
          {getErrorMessage(update.error, 'The assignment could not be saved.')}
        </p>
      )}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onClose} disabled={update.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={update.isPending || needsScope} data-testid="assignment-save">
          {update.isPending ? 'Saving…' : 'Save assignment'}
        </Button>
      </DialogFooter>
    </form>
  );
}

/** Edit one officer's country, category, queue, strictness and daily quota. */
export function AssignmentDialog({ officer, onClose }: { officer: OfficerRow | null; onClose: () => void }) {
  return (
    <Dialog open={officer !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-xl" data-testid="assignment-dialog">
        {officer && <AssignmentForm key={officer.id} officer={officer} onClose={onClose} />}
      </DialogContent>
    </Dialog>
  );
}
