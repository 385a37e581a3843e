import { Inbox, MailOpen, RefreshCw, Trash2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { QueryError } from '@/components/query-error';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/errors';
import { formatNumber } from '@/lib/format';
import { cn } from '@/lib/utils';
import { useEmptyDevMailbox } from '../api/empty-dev-mailbox';
import { DEV_MAILBOX_REFRESH_MS, useDevMail, useDevMailbox } from '../api/get-dev-mailbox';
import { MailList } from '../components/mail-list';
import { MailViewer, MailViewerSkeleton } from '../components/mail-viewer';

function EmptyMailbox() {
  return (
    <div className="flex flex-col items-center gap-3 px-6 py-16 text-center" data-testid="mailbox-empty">
      <span className="flex size-12 items-center justify-center rounded-full bg-secondary text-secondary-foreground">
        <Inbox className="size-6" aria-hidden="true" />
      </span>
      <p className="font-medium">The mailbox is empty</p>
      <p className="max-w-sm text-sm text-muted-foreground">
        While no SMTP server is configured, Tambari delivers its system emails here instead of sending them:
        password resets, account notices and other messages from the platform. Campaigns sent through the
        Tambari test mailbox sender account land here too; open one to simulate a reply or a bounce.
      </p>
    </div>
  );
}

function SelectPrompt() {
  return (
    <div className="hidden flex-1 flex-col items-center justify-center gap-3 p-10 text-center lg:flex">
      <MailOpen className="size-10 text-muted-foreground" aria-hidden="true" />
      <p className="font-medium">Select a message</p>
      <p className="max-w-xs text-sm text-muted-foreground">
        Its HTML, plain text and headers open here, with every link listed so you can follow it.
      </p>
    </div>
  );
}

export default function DevMailboxPage() {
  const mailbox = useDevMailbox();
  const emptyMailbox = useEmptyDevMailbox();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [confirmOpen, setConfirmOpen] = useState(false);
  // Only a refresh the admin asked for spins the button; the 5-second polling stays quiet.
  const [refreshing, setRefreshing] = useState(false);
  const mail = useDevMail(selectedId);
  const messages = mailbox.data;
  const count = messages?.length ?? 0;

  // A message that left the list (mailbox emptied, or pushed out of the newest 200) is deselected.
  useEffect(() => {
    if (selectedId && messages && !messages.some((message) => message.id === selectedId)) setSelectedId(null);
  }, [messages, selectedId]);

  const onEmpty = () =>
    emptyMailbox.mutate(undefined, {
      onSuccess: () => {
        setConfirmOpen(false);
        setSelectedId(null);
        toast({ title: 'Mailbox emptied', description: 'Every message has been deleted.' });
      },
      onError: (error) => {
        setConfirmOpen(false);
        toast({
          title: 'Mailbox not emptied',
          description: getErrorMessage(error, 'Please try again.'),
          variant: 'destructive',
        });
      },
    });

  return (
    <div className="mx-auto flex w-full max-w-7xl flex-1 flex-col gap-6" data-testid="dev-mailbox-page">
      <header className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold tracking-tight">Dev Mailbox</h1>
          <p className="text-muted-foreground">
            Emails caught by the built-in mailbox: system emails while no SMTP server is configured, and
            everything sent through the Tambari test mailbox sender account.
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <span className="flex items-center gap-2 text-xs text-muted-foreground" aria-live="off">
            <span className="relative flex size-2" aria-hidden="true">
              <span className="absolute inline-flex size-full animate-ping rounded-full bg-success opacity-60" />
              <span className="relative inline-flex size-2 rounded-full bg-success" />
            </span>
            Refreshes every {DEV_MAILBOX_REFRESH_MS / 1000} s
          </span>
          <Button
            variant="outline"
            onClick={() => {
              setRefreshing(true);
              void mailbox.refetch().finally(() => setRefreshing(false));
            }}
            disabled={refreshing}
            data-testid="mailbox-refresh"
          >
            <RefreshCw className={cn(refreshing && 'animate-spin')} aria-hidden="true" />
            Refresh
          </Button>
          <Button
            variant="outline"
            className="text-destructive hover:text-destructive"
            onClick={() => setConfirmOpen(true)}
            disabled={count === 0 || emptyMailbox.isPending}
            data-testid="mailbox-empty-button"
          >
            <Trash2 aria-hidden="true" />
            Empty mailbox
          </Button>
        </div>
      </header>

      {mailbox.isError && (
        <QueryError
          title="The mailbox could not be loaded"
          error={mailbox.error}
          onRetry={() => mailbox.refetch()}
          testId="mailbox-error"
        />
      )}

      {!(mailbox.isError && !messages) && (
        <Card className="min-h-[32rem] flex-1 gap-0 overflow-hidden p-0 lg:grid lg:grid-cols-[minmax(18rem,24rem)_1fr]">
          <section
            aria-label="Messages"
            className={cn(
              'flex min-h-0 flex-col border-b lg:border-r lg:border-b-0',
              selectedId && 'hidden lg:flex',
            )}
          >
            <div className="flex items-center justify-between border-b px-4 py-3">
              <h2 className="text-sm font-semibold">Inbox</h2>
              <span className="text-xs text-muted-foreground" aria-live="polite" data-testid="mail-count">
                {messages ? `${formatNumber(count)} ${count === 1 ? 'message' : 'messages'}` : ''}
              </span>
            </div>
            <div className="min-h-0 flex-1 overflow-y-auto lg:max-h-[calc(100dvh-14rem)]">
              {messages && count === 0 ? (
                <EmptyMailbox />
              ) : (
                <MailList
                  messages={messages}
                  loading={mailbox.isPending}
                  selectedId={selectedId}
                  onSelect={setSelectedId}
                />
              )}
            </div>
          </section>
          <section
            aria-label="Message"
            className={cn('min-h-0 min-w-0 flex-col', selectedId ? 'flex' : 'hidden lg:flex')}
          >
            {!selectedId ? (
              <SelectPrompt />
            ) : mail.isPending ? (
              <MailViewerSkeleton />
            ) : mail.isError ? (
              <div className="p-6">
                <QueryError
                  title="This message could not be opened"
                  error={mail.error}
                  onRetry={() => mail.refetch()}
                />
              </div>
            ) : (
              <MailViewer mail={mail.data} onBack={() => setSelectedId(null)} />
            )}
          </section>
        </Card>
      )}

      <ConfirmDialog
        open={confirmOpen}
        onOpenChange={setConfirmOpen}
        title="Empty the mailbox?"
        description={`All ${formatNumber(count)} ${count === 1 ? 'message' : 'messages'} will be deleted for good. New system emails keep arriving here.`}
        confirmLabel="Empty mailbox"
        pendingLabel="Emptying…"
        destructive
        pending={emptyMailbox.isPending}
        onConfirm={onEmpty}
        testId="confirm-empty-mailbox"
      />
    </div>
  );
}
