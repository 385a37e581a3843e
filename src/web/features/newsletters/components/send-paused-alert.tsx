import { Play, ShieldAlert, Square } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/errors';
import { useNewsletterProgress, useNewsletterSendAction } from '../api/newsletters';

/**
 * What a paused send says (as the campaign page's 'campaign-paused-reason' does): why, that the queued
 * emails wait, and Resume or Stop.
 */
export function SendPausedNotice({
  reason,
  pending,
  onResume,
  onStop,
}: {
  reason: string | null;
  pending: boolean;
  onResume: () => void;
  onStop: () => void;
}) {
  return (
    <Alert variant="destructive" data-testid="newsletter-paused-reason">
      <ShieldAlert aria-hidden="true" />
      <AlertTitle>This send was paused for you</AlertTitle>
      <AlertDescription>
        {reason && <p>{reason}</p>}
        <p>Queued emails wait; nothing is lost.</p>
        <div className="mt-2 flex flex-wrap gap-2">
          <Button size="sm" disabled={pending} onClick={onResume} data-testid="newsletter-resume">
            <Play aria-hidden="true" />
            Resume
          </Button>
          <Button
            size="sm"
            variant="outline"
            className="text-destructive"
            disabled={pending}
            onClick={onStop}
            data-testid="newsletter-stop"
          >
            <Square aria-hidden="true" />
            Stop sending
          </Button>
        </div>
      </AlertDescription>
    </Alert>
  );
}

/**
 * Shown while a send is paused for the user (the bounce or complaint protection, a suspension since
 * lifted): read from the progress the page polls anyway (one query for both).
 */
export function SendPausedAlert({ id, name }: { id: string; name: string }) {
  const progress = useNewsletterProgress(id, true);
  const action = useNewsletterSendAction();
  const [confirmStop, setConfirmStop] = useState(false);
  const p = progress.data;
  if (!p?.paused) return null;
  const run = async (kind: 'resume' | 'stop') => {
    try {
      await action.mutateAsync({ id, action: kind });
      toast({ title: kind === 'resume' ? 'Sending resumed' : 'Sending stopped', description: `“${name}”` });
      setConfirmStop(false);
    } catch (error) {
      toast({
        title: 'That did not work',
        description: getErrorMessage(error, 'Please try again.'),
        variant: 'destructive',
      });
    }
  };
  return (
    <>
      <SendPausedNotice
        reason={p.pausedReason}
        pending={action.isPending}
        onResume={() => void run('resume')}
        onStop={() => setConfirmStop(true)}
      />
      <ConfirmDialog
        open={confirmStop}
        onOpenChange={setConfirmStop}
        title="Stop this send?"
        description={
          <>
            “{name}” sends nothing more: the emails still queued are cancelled. Those already sent stay sent.
            A stopped send cannot be resumed; duplicate it to send again.
          </>
        }
        confirmLabel="Stop sending"
        pendingLabel="Stopping…"
        destructive
        pending={action.isPending}
        onConfirm={() => void run('stop')}
        testId="confirm-newsletter-stop"
      />
    </>
  );
}
