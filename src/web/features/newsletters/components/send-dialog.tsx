import type { ContactList } from '@shared/lists';
import type { Newsletter } from '@shared/newsletters';
import type { SenderAccount } from '@shared/sending';
import { useQuery } from '@tanstack/react-query';
import { CalendarClock, Loader2, Send } from 'lucide-react';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { SegmentPicker, useSegmentCounts, useSegments } from '@/components/segments/segment-picker';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/errors';
import { formatNumber } from '@/lib/format';
import { useScheduleNewsletter, useSendNewsletter } from '../api/newsletters';
import { localInputValue } from '../lib/schedule';
import { SendProgress } from './send-progress';

function toggle(ids: string[], id: string, on: boolean): string[] {
  return on ? [...new Set([...ids, id])] : ids.filter((x) => x !== id);
}

export function useListsAndSenders(enabled: boolean) {
  const lists = useQuery<{ lists: ContactList[] }>({ queryKey: ['/api/lists'], enabled });
  const senders = useQuery<SenderAccount[]>({ queryKey: ['/api/sender-accounts'], enabled });
  return { lists, senders };
}

/** Send now or at a time, to the user's lists, through their sender accounts. */
export function SendDialog({
  newsletter,
  beforeSend,
  trigger,
}: {
  newsletter: Newsletter;
  /** Saves pending edits first; false stops the send. */
  beforeSend: () => Promise<boolean>;
  trigger: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const ids = useId();
  const { lists, senders } = useListsAndSenders(open);
  const [listIds, setListIds] = useState<string[]>(newsletter.listIds);
  // The segment narrowing each list (by list id); one per list, as the server requires.
  const allSegments = useSegments(undefined, open);
  const [segmentByList, setSegmentByList] = useState<Record<string, string>>({});
  const [segmentsLoaded, setSegmentsLoaded] = useState(false);
  useEffect(() => {
    // Once: the saved choice fills the pickers, later refetches never overwrite the user's picks.
    if (segmentsLoaded || !allSegments.data) return;
    const saved = allSegments.data.segments.filter((s) => newsletter.segmentIds.includes(s.id));
    setSegmentByList(Object.fromEntries(saved.map((s) => [s.listId, s.id])));
    setSegmentsLoaded(true);
  }, [allSegments.data, newsletter.segmentIds, segmentsLoaded]);
  const segmentIds = listIds.flatMap((id) => (segmentByList[id] ? [segmentByList[id]] : []));
  const segmentCounts = useSegmentCounts(segmentIds);
  const [senderIds, setSenderIds] = useState<string[]>(newsletter.senderAccountIds);
  const [when, setWhen] = useState<'now' | 'later'>(newsletter.status === 'scheduled' ? 'later' : 'now');
  const [at, setAt] = useState(() =>
    localInputValue(
      newsletter.scheduledAt ? new Date(newsletter.scheduledAt) : new Date(Date.now() + 3_600_000),
    ),
  );
  const [error, setError] = useState<string | null>(null);
  const send = useSendNewsletter();
  const schedule = useScheduleNewsletter();
  const pending = send.isPending || schedule.isPending;

  useEffect(() => {
    if (!open) return;
    setError(null);
    // Default to the only active account when the user has just one.
    const active = senders.data?.filter((s) => s.status === 'active') ?? [];
    if (senderIds.length === 0 && active.length === 1) setSenderIds([active[0]!.id]);
  }, [open, senders.data, senderIds.length]);

  const chosenLists = (lists.data?.lists ?? []).filter((l) => listIds.includes(l.id));
  // A segment's count is exact (suppressions applied); a whole list's is its size, an upper bound.
  const recipients = chosenLists.reduce((n, l) => {
    const segment = segmentByList[l.id];
    return n + (segment ? (segmentCounts.get(segment) ?? 0) : l.contactCount);
  }, 0);
  const exact = chosenLists.length === 1 && Boolean(segmentByList[chosenLists[0]!.id]);

  const submit = async () => {
    setError(null);
    if (!(await beforeSend())) return;
    try {
      if (when === 'now') {
        await send.mutateAsync({ id: newsletter.id, listIds, segmentIds, senderAccountIds: senderIds });
        toast({
          title: 'Sending',
          description: 'Your email is on its way. Progress shows on the newsletters page.',
        });
      } else {
        const date = new Date(at);
        if (Number.isNaN(date.getTime())) {
          setError('Choose a date and time.');
          return;
        }
        const saved = await schedule.mutateAsync({
          id: newsletter.id,
          listIds,
          segmentIds,
          senderAccountIds: senderIds,
          scheduledAt: date.toISOString(),
        });
        toast({
          title: 'Scheduled',
          description: `It will go out on ${new Date(saved.scheduledAt!).toLocaleString()}.`,
        });
      }
      setOpen(false);
    } catch (err) {
      setError(getErrorMessage(err, 'It could not be sent. Try again.'));
    }
  };

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>Send “{newsletter.subject || newsletter.name}”</DialogTitle>
          <DialogDescription>
            Each contact gets their own copy with their merge tags filled in. Unsubscribed and bounced
            addresses are left out.
          </DialogDescription>
        </DialogHeader>
        <div className="space-y-5">
          <section className="space-y-2">
            <h3 className="text-sm font-medium">Lists</h3>
            {lists.isPending ? (
              <Skeleton className="h-16" />
            ) : (lists.data?.lists ?? []).length === 0 ? (
              <p className="text-sm text-muted-foreground">
                You have no lists yet.{' '}
                <Link className="underline" to="/lead-discovery">
                  Create or import one
                </Link>{' '}
                first.
              </p>
            ) : (
              <div className="max-h-64 space-y-1 overflow-y-auto rounded-md border p-2">
                {lists.data!.lists.map((list) => (
                  <div key={list.id} className="space-y-1">
                    <div className="flex items-center gap-2 rounded px-1 py-1 text-sm hover:bg-muted">
                      <Checkbox
                        id={`${ids}-list-${list.id}`}
                        checked={listIds.includes(list.id)}
                        onCheckedChange={(v) => setListIds(toggle(listIds, list.id, v === true))}
                        data-testid={`send-list-${list.name}`}
                      />
                      <Label
                        htmlFor={`${ids}-list-${list.id}`}
                        className="flex-1 cursor-pointer truncate font-normal"
                      >
                        {list.name}
                      </Label>
                      <span className="text-xs text-muted-foreground">
                        {formatNumber(list.contactCount)} contacts
                      </span>
                    </div>
                    {listIds.includes(list.id) && (
                      <SegmentPicker
                        listId={list.id}
                        listName={list.name}
                        value={segmentByList[list.id] ?? null}
                        onChange={(segmentId) => {
                          const { [list.id]: _previous, ...rest } = segmentByList;
                          setSegmentByList(segmentId ? { ...rest, [list.id]: segmentId } : rest);
                        }}
                      />
                    )}
                  </div>
                ))}
              </div>
            )}
            {listIds.length > 0 && (
              <p className="text-xs text-muted-foreground" data-testid="send-recipients">
                {exact
                  ? `${formatNumber(recipients)} ${recipients === 1 ? 'recipient' : 'recipients'}.`
                  : `Up to ${formatNumber(recipients)} recipients (duplicates are sent once).`}
              </p>
            )}
          </section>
          <section className="space-y-2">
            <h3 className="text-sm font-medium">Send from</h3>
            {senders.isPending ? (
              <Skeleton className="h-12" />
            ) : (senders.data ?? []).length === 0 ? (
              <p className="text-sm text-muted-foreground">
                Connect a sender account in{' '}
                <Link className="underline" to="/settings">
                  Settings
                </Link>{' '}
                first.
              </p>
            ) : (
              <div className="max-h-40 space-y-1 overflow-y-auto rounded-md border p-2">
                {senders.data!.map((account) => (
                  <div
                    key={account.id}
                    className="flex items-center gap-2 rounded px-1 py-1 text-sm hover:bg-muted"
                  >
                    <Checkbox
                      id={`${ids}-sender-${account.id}`}
                      checked={senderIds.includes(account.id)}
                      onCheckedChange={(v) => setSenderIds(toggle(senderIds, account.id, v === true))}
                      data-testid={`send-sender-${account.fromEmail}`}
                    />
                    <Label
                      htmlFor={`${ids}-sender-${account.id}`}
                      className="flex-1 cursor-pointer truncate font-normal"
                    >
                      {account.fromName} &lt;{account.fromEmail}&gt;
                    </Label>
                    {account.status !== 'active' && (
                      <span className="text-xs text-amber-600">{account.status}</span>
                    )}
                  </div>
                ))}
              </div>
            )}
            {senderIds.length > 1 && (
              <p className="text-xs text-muted-foreground">
                Messages rotate across the accounts, within each one’s daily limit.
              </p>
            )}
          </section>
          <section className="space-y-2">
            <h3 className="text-sm font-medium">When</h3>
            <RadioGroup value={when} onValueChange={(v) => setWhen(v as 'now' | 'later')} className="gap-2">
              <div className="flex items-center gap-2">
                <RadioGroupItem id={`${ids}-now`} value="now" />
                <Label htmlFor={`${ids}-now`}>Now</Label>
              </div>
              <div className="flex items-center gap-2">
                <RadioGroupItem id={`${ids}-later`} value="later" data-testid="send-later" />
                <Label htmlFor={`${ids}-later`}>Later</Label>
              </div>
            </RadioGroup>
            {when === 'later' && (
              <Input
                type="datetime-local"
                aria-label="Send at"
                value={at}
                min={localInputValue(new Date())}
                onChange={(e) => setAt(e.target.value)}
                data-testid="send-at"
              />
            )}
          </section>
          {send.isPending && <SendProgress id={newsletter.id} />}
          {error && (
            <Alert variant="destructive" data-testid="send-error">
              <AlertDescription>{error}</AlertDescription>
            </Alert>
          )}
        </div>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={() => setOpen(false)}>
            Cancel
          </Button>
          <Button
            type="button"
            onClick={submit}
            disabled={pending || listIds.length === 0 || senderIds.length === 0}
            data-testid="send-confirm"
          >
            {pending ? (
              <Loader2 className="size-4 animate-spin" />
            ) : when === 'now' ? (
              <Send className="size-4" />
            ) : (
              <CalendarClock className="size-4" />
            )}
            {when === 'now' ? 'Send now' : 'Schedule'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
