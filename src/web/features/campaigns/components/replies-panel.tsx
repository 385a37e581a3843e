import { INBOX_CATEGORY_LABELS } from '@shared/inbox';
import { formatPausedUntil } from '@shared/zoned-time';
import { Inbox, Loader2, MessageSquareReply, Trophy, Undo2 } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { QueryError } from '@/components/query-error';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
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
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/errors';
import { formatDateTime } from '@/lib/format';
import {
  type CampaignReply,
  DEAL_CURRENCIES,
  type DealCurrency,
  useCampaignReplies,
  useMarkWon,
} from '../api/campaigns';
import { formatMoney, parseDealValue } from '../lib/deal-value';

function isDealCurrency(value: string | null): value is DealCurrency {
  return (DEAL_CURRENCIES as readonly string[]).includes(value ?? '');
}

const KIND_LABELS: Record<string, string> = {
  reply: 'Reply',
  out_of_office: 'Out of office',
  unsubscribe_request: 'Asked to unsubscribe',
  other: 'Other',
};

function categoryLabel(reply: CampaignReply): string {
  if (reply.category) return INBOX_CATEGORY_LABELS[reply.category];
  return KIND_LABELS[reply.kind] ?? reply.kind;
}

/** "Mark as won": the deal value and its currency; analytics counts it as revenue. */
function MarkWonDialog({
  campaignId,
  reply,
  onClose,
}: {
  campaignId: string;
  reply: CampaignReply | null;
  onClose: () => void;
}) {
  const id = useId();
  const mark = useMarkWon(campaignId);
  const [value, setValue] = useState('');
  const [currency, setCurrency] = useState<DealCurrency>('NGN');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!reply) return;
    setValue(reply.dealValue !== null ? String(reply.dealValue) : '');
    setCurrency(isDealCurrency(reply.dealCurrency) ? reply.dealCurrency : 'NGN');
    setError(null);
  }, [reply]);

  const submit = async () => {
    const parsed = parseDealValue(value);
    if (!parsed.ok) {
      setError(parsed.message);
      return;
    }
    if (!reply?.campaignContactId) return;
    const contactId = reply.campaignContactId;
    try {
      await mark.mutateAsync({ contactId, won: { dealValue: parsed.value, currency } });
      toast({
        title: 'Marked as won',
        description: `${reply.name || reply.email || 'Contact'}: ${formatMoney(parsed.value, currency)}`,
      });
      onClose();
    } catch (failure) {
      setError(getErrorMessage(failure, 'It could not be saved. Please try again.'));
    }
  };

  return (
    <Dialog open={Boolean(reply)} onOpenChange={(open) => !open && !mark.isPending && onClose()}>
      <DialogContent className="sm:max-w-md" data-testid="mark-won-dialog">
        <DialogHeader>
          <DialogTitle>Mark as won</DialogTitle>
          <DialogDescription>
            Record the deal that came from {reply?.name || reply?.email}. It counts as revenue in your
            analytics.
          </DialogDescription>
        </DialogHeader>
        <form
          className="space-y-4"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <div className="grid grid-cols-[1fr_7rem] gap-3">
            <div className="grid gap-2">
              <Label htmlFor={`${id}-value`}>Deal value</Label>
              <Input
                id={`${id}-value`}
                inputMode="decimal"
                value={value}
                onChange={(event) => {
                  setValue(event.target.value);
                  setError(null);
                }}
                placeholder="250000"
                aria-invalid={Boolean(error)}
                autoFocus
                data-testid="won-value"
              />
            </div>
            <div className="grid gap-2">
              <Label htmlFor={`${id}-currency`}>Currency</Label>
              <Select value={currency} onValueChange={(next) => setCurrency(next as DealCurrency)}>
                <SelectTrigger id={`${id}-currency`} data-testid="won-currency">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {DEAL_CURRENCIES.map((code) => (
                    <SelectItem key={code} value={code}>
                      {code}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </div>
          </div>
          {error && (
            <Alert variant="destructive">
              <AlertDescription data-testid="won-error">{error}</AlertDescription>
            </Alert>
          )}
          <DialogFooter>
            <Button type="button" variant="ghost" onClick={onClose} disabled={mark.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={mark.isPending} data-testid="won-submit">
              {mark.isPending ? (
                <Loader2 className="animate-spin" aria-hidden="true" />
              ) : (
                <Trophy aria-hidden="true" />
              )}
              Mark as won
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** The replies this campaign received, newest first, with the message text and the won action. */
export function RepliesPanel({ campaignId, timeZone }: { campaignId: string; timeZone: string }) {
  const replies = useCampaignReplies(campaignId);
  const unmark = useMarkWon(campaignId);
  const [winning, setWinning] = useState<CampaignReply | null>(null);

  return (
    <Card data-testid="replies-panel">
      <CardHeader>
        <CardTitle>
          <h2>Replies</h2>
        </CardTitle>
        <CardDescription>
          A reply ends that contact's sequence. Mark the ones that became business as won.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {replies.isPending ? (
          <div className="space-y-3">
            <Skeleton className="h-24 w-full" />
            <Skeleton className="h-24 w-full" />
          </div>
        ) : replies.isError ? (
          <QueryError
            title="Replies could not be loaded"
            error={replies.error}
            onRetry={() => replies.refetch()}
          />
        ) : replies.data.length === 0 ? (
          <div className="flex flex-col items-center gap-2 py-10 text-center text-sm text-muted-foreground">
            <MessageSquareReply className="size-8" aria-hidden="true" />
            No replies yet. Replies arrive through the sender accounts' incoming mail (IMAP).
          </div>
        ) : (
          <ul className="space-y-3">
            {replies.data.map((reply) => (
              <li key={reply.id} className="space-y-2 rounded-lg border p-4" data-testid="reply-item">
                <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
                  <div className="min-w-0">
                    <p className="truncate font-medium">
                      {reply.name || reply.email || 'Unknown sender'}
                      {reply.name && reply.email && (
                        <span className="font-normal text-muted-foreground"> &lt;{reply.email}&gt;</span>
                      )}
                    </p>
                    <p className="flex flex-wrap items-center gap-1 text-xs text-muted-foreground">
                      {formatDateTime(reply.receivedAt)}
                      <Badge variant="outline" data-testid="reply-category">
                        {categoryLabel(reply)}
                      </Badge>
                      {reply.pausedUntil && (
                        <span data-testid="reply-paused-until">
                          {' · '}
                          {formatPausedUntil(reply.pausedUntil, timeZone)}
                        </span>
                      )}
                    </p>
                  </div>
                  <div className="flex shrink-0 items-center gap-2">
                    {reply.wonAt ? (
                      <>
                        <Badge variant="success" data-testid="reply-won">
                          <Trophy aria-hidden="true" />
                          Won
                          {reply.dealValue !== null
                            ? ` · ${formatMoney(Number(reply.dealValue), reply.dealCurrency ?? 'NGN')}`
                            : ''}
                        </Badge>
                        <Button
                          variant="ghost"
                          size="sm"
                          disabled={unmark.isPending}
                          onClick={async () => {
                            try {
                              if (!reply.campaignContactId) return;
                              await unmark.mutateAsync({ contactId: reply.campaignContactId, won: null });
                              toast({
                                title: 'No longer marked as won',
                                description: reply.name || reply.email || '',
                              });
                            } catch (error) {
                              toast({
                                title: 'That did not work',
                                description: getErrorMessage(error, 'Please try again.'),
                                variant: 'destructive',
                              });
                            }
                          }}
                        >
                          <Undo2 aria-hidden="true" />
                          Undo
                        </Button>
                      </>
                    ) : reply.canMarkWon ? (
                      <Button
                        variant="outline"
                        size="sm"
                        onClick={() => setWinning(reply)}
                        data-testid="reply-mark-won"
                      >
                        <Trophy aria-hidden="true" />
                        Mark as won
                      </Button>
                    ) : null}
                    <Button variant="ghost" size="sm" asChild>
                      <Link to={`/inbox?m=${encodeURIComponent(reply.id)}`} data-testid="reply-open-inbox">
                        <Inbox aria-hidden="true" />
                        Open in inbox
                      </Link>
                    </Button>
                  </div>
                </div>
                {reply.subject && <p className="text-sm font-medium">{reply.subject}</p>}
                <p className="max-h-60 overflow-y-auto whitespace-pre-wrap break-words text-sm text-muted-foreground">
                  {reply.text?.trim() || '(no text)'}
                </p>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
      <MarkWonDialog campaignId={campaignId} reply={winning} onClose={() => setWinning(null)} />
    </Card>
  );
}
