import { CURRENCY_CODES, type CurrencyCode } from '@shared/currency';
import { INBOX_CATEGORIES, INBOX_CATEGORY_LABELS, type InboxCategory } from '@shared/inbox';
import { ArrowLeft, BellOff, Loader2, Mail, MailOpen, Send, Sparkles, Trophy, Undo2 } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { QueryError } from '@/components/query-error';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/errors';
import { formatDate, formatDateTime } from '@/lib/format';
import { cn } from '@/lib/utils';
import {
  type InboxThread,
  useAiConfigured,
  useInboxThread,
  useMarkInboxWon,
  useSaveSignature,
  useSendInboxReply,
  useSuggestCategory,
  useUpdateInboxMessage,
} from '../api/inbox';
import { CategoryBadge } from './inbox-list';

const SNOOZES = [
  { value: '1', label: 'Until tomorrow' },
  { value: '3', label: 'For 3 days' },
  { value: '7', label: 'For a week' },
] as const;

function snoozeEnd(days: number): string {
  const end = new Date();
  end.setDate(end.getDate() + days);
  end.setHours(8, 0, 0, 0);
  return end.toISOString();
}

function ReplyBox({ thread }: { thread: InboxThread }) {
  const id = useId();
  const send = useSendInboxReply(thread.message.id);
  const saveSignature = useSaveSignature();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [editingSignature, setEditingSignature] = useState(false);
  const [signature, setSignature] = useState(thread.signature ?? '');

  useEffect(() => setSignature(thread.signature ?? ''), [thread.signature]);

  if (!thread.replyFrom) {
    return (
      <Alert>
        <AlertDescription>
          The sender account of this conversation was deleted, so it cannot be answered here.
        </AlertDescription>
      </Alert>
    );
  }
  const account = thread.replyFrom;

  const submit = async () => {
    if (!text.trim()) {
      setError('Write your reply first');
      return;
    }
    try {
      await send.mutateAsync(text);
      setText('');
      setError(null);
      toast({ title: 'Reply sent', description: `From ${account.email}` });
    } catch (failure) {
      setError(getErrorMessage(failure, 'The reply could not be sent. Please try again.'));
    }
  };

  return (
    <form
      className="space-y-2 rounded-lg border p-3"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
      data-testid="inbox-reply-form"
    >
      <Label htmlFor={`${id}-reply`} className="text-xs text-muted-foreground">
        Reply from {account.label} &lt;{account.email}&gt;
      </Label>
      <Textarea
        id={`${id}-reply`}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setError(null);
        }}
        rows={5}
        placeholder="Write your reply…"
        aria-invalid={Boolean(error)}
        data-testid="inbox-reply-text"
      />
      {editingSignature ? (
        <div className="space-y-2">
          <Label htmlFor={`${id}-signature`} className="text-xs">
            Signature of {account.label}
          </Label>
          <Textarea
            id={`${id}-signature`}
            value={signature}
            onChange={(event) => setSignature(event.target.value)}
            rows={3}
            data-testid="inbox-signature"
          />
          <div className="flex gap-2">
            <Button
              type="button"
              size="sm"
              variant="outline"
              disabled={saveSignature.isPending}
              onClick={async () => {
                try {
                  await saveSignature.mutateAsync({
                    accountId: account.id,
                    signature: signature.trim() || null,
                  });
                  setEditingSignature(false);
                  toast({ title: 'Signature saved' });
                } catch (failure) {
                  toast({
                    title: 'The signature was not saved',
                    description: getErrorMessage(failure, 'Please try again.'),
                    variant: 'destructive',
                  });
                }
              }}
              data-testid="inbox-signature-save"
            >
              Save signature
            </Button>
            <Button type="button" size="sm" variant="ghost" onClick={() => setEditingSignature(false)}>
              Cancel
            </Button>
          </div>
        </div>
      ) : (
        <p className="text-xs whitespace-pre-wrap text-muted-foreground">
          {thread.signature ? `-- \n${thread.signature}` : 'No signature yet.'}{' '}
          <button type="button" className="underline" onClick={() => setEditingSignature(true)}>
            {thread.signature ? 'Edit' : 'Add one'}
          </button>
        </p>
      )}
      {error && (
        <Alert variant="destructive">
          <AlertDescription data-testid="inbox-reply-error">{error}</AlertDescription>
        </Alert>
      )}
      <div className="flex justify-end">
        <Button type="submit" disabled={send.isPending} data-testid="inbox-reply-send">
          {send.isPending ? (
            <Loader2 className="animate-spin" aria-hidden="true" />
          ) : (
            <Send aria-hidden="true" />
          )}
          Send reply
        </Button>
      </div>
    </form>
  );
}

function WonControl({ thread }: { thread: InboxThread }) {
  const id = useId();
  const mark = useMarkInboxWon();
  const { message } = thread;
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState('');
  const [currency, setCurrency] = useState<CurrencyCode>('NGN');
  const [error, setError] = useState<string | null>(null);
  if (!message.campaignId || !message.campaignContactId) return null;
  const target = { campaignId: message.campaignId, contactId: message.campaignContactId };

  if (message.wonAt) {
    return (
      <span className="flex items-center gap-1">
        <Badge variant="success" data-testid="inbox-won">
          <Trophy aria-hidden="true" />
          Won
          {message.dealValue
            ? ` · ${message.dealCurrency ?? ''} ${Number(message.dealValue).toLocaleString('en')}`
            : ''}
        </Badge>
        <Button variant="ghost" size="sm" onClick={() => mark.mutate({ ...target, won: null })}>
          <Undo2 aria-hidden="true" />
          Undo
        </Button>
      </span>
    );
  }
  if (!message.canMarkWon) return null;
  if (!open) {
    return (
      <Button variant="outline" size="sm" onClick={() => setOpen(true)} data-testid="inbox-mark-won">
        <Trophy aria-hidden="true" />
        Mark as won
      </Button>
    );
  }
  return (
    <form
      className="flex flex-wrap items-end gap-2"
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        const amount = Number(value.replace(/[\s,]/g, ''));
        if (!value.trim() || !Number.isFinite(amount) || amount < 0) {
          setError('Enter the deal value as a number');
          return;
        }
        try {
          await mark.mutateAsync({ ...target, won: { dealValue: Math.round(amount * 100) / 100, currency } });
          setOpen(false);
          toast({ title: 'Marked as won' });
        } catch (failure) {
          setError(getErrorMessage(failure, 'It could not be saved. Please try again.'));
        }
      }}
    >
      <div className="grid gap-1">
        <Label htmlFor={`${id}-value`} className="text-xs">
          Deal value
        </Label>
        <Input
          id={`${id}-value`}
          inputMode="decimal"
          className="h-8 w-32"
          value={value}
          onChange={(event) => setValue(event.target.value)}
          aria-invalid={Boolean(error)}
          data-testid="inbox-won-value"
        />
      </div>
      <Select value={currency} onValueChange={(next) => setCurrency(next as CurrencyCode)}>
        <SelectTrigger className="h-8 w-24" aria-label="Currency">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {CURRENCY_CODES.map((code) => (
            <SelectItem key={code} value={code}>
              {code}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      <Button type="submit" size="sm" disabled={mark.isPending} data-testid="inbox-won-submit">
        Save
      </Button>
      <Button type="button" size="sm" variant="ghost" onClick={() => setOpen(false)}>
        Cancel
      </Button>
      {error && <p className="w-full text-xs text-destructive">{error}</p>}
    </form>
  );
}

function NoteEditor({ thread }: { thread: InboxThread }) {
  const id = useId();
  const update = useUpdateInboxMessage();
  const [note, setNote] = useState(thread.message.note ?? '');
  useEffect(() => setNote(thread.message.note ?? ''), [thread.message.note]);
  const changed = note.trim() !== (thread.message.note ?? '');
  return (
    <div className="space-y-1">
      <Label htmlFor={`${id}-note`} className="text-xs text-muted-foreground">
        Note (only you see it)
      </Label>
      <div className="flex gap-2">
        <Textarea
          id={`${id}-note`}
          rows={2}
          value={note}
          onChange={(event) => setNote(event.target.value)}
          className="min-h-0"
          data-testid="inbox-note"
        />
        <Button
          type="button"
          size="sm"
          variant="outline"
          disabled={!changed || update.isPending}
          onClick={() =>
            update.mutate(
              { id: thread.message.id, update: { note: note.trim() || null } },
              { onSuccess: () => toast({ title: 'Note saved' }) },
            )
          }
          data-testid="inbox-note-save"
        >
          Save
        </Button>
      </div>
    </div>
  );
}

/** Where an AI provider is configured: its category for the message, applied only if the user says so. */
function AiSuggestion({
  thread,
  onApply,
}: {
  thread: InboxThread;
  onApply: (category: InboxCategory) => void;
}) {
  const configured = useAiConfigured();
  const suggest = useSuggestCategory(thread.message.id);
  if (!configured) return null;
  const suggested = suggest.data?.category ?? null;
  if (suggest.isSuccess) {
    if (!suggested) return <span className="text-xs text-muted-foreground">AI: no suggestion</span>;
    if (suggested === thread.message.category) {
      return <span className="text-xs text-muted-foreground">AI agrees</span>;
    }
    return (
      <span className="flex items-center gap-1 text-xs" data-testid="inbox-ai-suggestion">
        AI suggests {INBOX_CATEGORY_LABELS[suggested]}
        <Button variant="link" size="sm" className="h-auto p-0 text-xs" onClick={() => onApply(suggested)}>
          Apply
        </Button>
      </span>
    );
  }
  return (
    <Button
      variant="ghost"
      size="sm"
      disabled={suggest.isPending}
      onClick={() =>
        suggest.mutate(undefined, {
          onError: (error) =>
            toast({
              title: 'No suggestion',
              description: getErrorMessage(error, 'Please try again.'),
              variant: 'destructive',
            }),
        })
      }
    >
      {suggest.isPending ? (
        <Loader2 className="animate-spin" aria-hidden="true" />
      ) : (
        <Sparkles aria-hidden="true" />
      )}
      Suggest
    </Button>
  );
}

/** One conversation: what was sent, what came back, the replies from the app, and what can be done. */
export function ThreadPane({ id, onBack }: { id: string; onBack: () => void }) {
  const thread = useInboxThread(id);
  const update = useUpdateInboxMessage();
  const message = thread.data?.message;

  // Opening a message reads it (once per message).
  const { mutate } = update;
  const unreadId = message && message.readAt === null ? message.id : null;
  useEffect(() => {
    if (unreadId) mutate({ id: unreadId, update: { read: true } });
  }, [unreadId, mutate]);

  if (thread.isPending) {
    return (
      <div className="space-y-3">
        <Skeleton className="h-10 w-2/3" />
        <Skeleton className="h-32 w-full" />
      </div>
    );
  }
  if (thread.isError) {
    return (
      <QueryError
        title="This conversation could not be loaded"
        error={thread.error}
        onRetry={() => thread.refetch()}
      />
    );
  }
  const data = thread.data;
  const current = data.message;
  const change = (next: Parameters<typeof update.mutate>[0]['update'], done?: string) =>
    update.mutate(
      { id: current.id, update: next },
      {
        onSuccess: () => done && toast({ title: done }),
        onError: (error) =>
          toast({
            title: 'That did not work',
            description: getErrorMessage(error, 'Please try again.'),
            variant: 'destructive',
          }),
      },
    );

  return (
    <div className="space-y-4" data-testid="inbox-thread">
      <div className="space-y-2">
        <Button variant="ghost" size="sm" className="lg:hidden" onClick={onBack} data-testid="inbox-back">
          <ArrowLeft aria-hidden="true" />
          Inbox
        </Button>
        <h2 className="text-lg font-semibold break-words" data-testid="inbox-thread-subject">
          {current.subject || '(no subject)'}
        </h2>
        <p className="text-sm text-muted-foreground break-words">
          {current.contactName
            ? `${current.contactName} <${current.fromAddress ?? ''}>`
            : current.fromAddress}
          {current.campaignId && (
            <>
              {' · '}
              <Link className="underline" to={`/campaigns/${current.campaignId}?tab=replies`}>
                {current.campaignName}
              </Link>
            </>
          )}
          {current.senderAccountLabel ? ` · ${current.senderAccountLabel}` : ''}
        </p>
        {current.category === 'out_of_office' && current.returnDate && (
          <p className="text-sm">Back on {formatDate(current.returnDate)}</p>
        )}
        {current.snoozedUntil && new Date(current.snoozedUntil) > new Date() && (
          <p className="text-sm text-muted-foreground">
            Snoozed until {formatDateTime(current.snoozedUntil)}
          </p>
        )}
        <div className="flex flex-wrap items-center gap-2">
          <Select
            value={current.category ?? ''}
            onValueChange={(next) => change({ category: next as InboxCategory }, 'Category changed')}
          >
            <SelectTrigger className="h-8 w-44" aria-label="Category" data-testid="inbox-category-select">
              <SelectValue placeholder="Uncategorised" />
            </SelectTrigger>
            <SelectContent>
              {INBOX_CATEGORIES.map((category) => (
                <SelectItem key={category} value={category}>
                  {INBOX_CATEGORY_LABELS[category]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          {current.categorySource === 'rule' && (
            <span className="text-xs text-muted-foreground">set automatically</span>
          )}
          <AiSuggestion thread={data} onApply={(category) => change({ category }, 'Category changed')} />
          <Button variant="outline" size="sm" onClick={() => change({ read: false }, 'Marked as unread')}>
            <Mail aria-hidden="true" />
            Mark unread
          </Button>
          <Select
            value=""
            onValueChange={(next) =>
              next === 'clear'
                ? change({ snoozedUntil: null }, 'Snooze cleared')
                : change({ snoozedUntil: snoozeEnd(Number(next)) }, 'Snoozed')
            }
          >
            <SelectTrigger className="h-8 w-36" aria-label="Snooze" data-testid="inbox-snooze">
              <BellOff aria-hidden="true" />
              <SelectValue placeholder="Snooze" />
            </SelectTrigger>
            <SelectContent>
              {SNOOZES.map((option) => (
                <SelectItem key={option.value} value={option.value}>
                  {option.label}
                </SelectItem>
              ))}
              {current.snoozedUntil && <SelectItem value="clear">End the snooze</SelectItem>}
            </SelectContent>
          </Select>
          <WonControl thread={data} />
        </div>
      </div>

      <ol className="space-y-3" data-testid="inbox-thread-entries">
        {data.entries.map((entry) => (
          <li
            key={`${entry.type}-${entry.id}`}
            className={cn(
              'rounded-lg border p-3',
              entry.type === 'received' ? 'bg-background' : 'bg-muted/50',
              entry.id === current.id && 'ring-2 ring-primary/40',
            )}
            data-testid="inbox-entry"
            data-type={entry.type}
          >
            <p className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
              {entry.type === 'received' ? (
                <MailOpen className="size-3.5" aria-hidden="true" />
              ) : (
                <Send className="size-3.5" aria-hidden="true" />
              )}
              <span className="font-medium text-foreground">
                {entry.type === 'sent' ? 'Sent' : entry.type === 'replied' ? 'You replied' : entry.from}
              </span>
              <span>{formatDateTime(entry.at)}</span>
              {entry.type === 'received' && <CategoryBadge category={entry.category} />}
            </p>
            {entry.subject && <p className="mt-1 text-sm font-medium break-words">{entry.subject}</p>}
            <p className="mt-1 max-h-72 overflow-y-auto text-sm whitespace-pre-wrap break-words">
              {entry.text || '(no text)'}
            </p>
          </li>
        ))}
      </ol>

      <NoteEditor thread={data} />
      <ReplyBox thread={data} />
    </div>
  );
}
