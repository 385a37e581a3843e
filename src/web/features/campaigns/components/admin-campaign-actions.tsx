import type { CampaignStatus } from '@shared/sending';
import { Loader2, Pause, Square } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/errors';
import { useAdminCampaignAction } from '../api/campaigns';

/**
 * A super admin's pause and stop of any user's campaign (each written to the audit log by the server).
 * `compact` shows icon buttons for table rows.
 */
export function AdminCampaignActions({
  campaign,
  ownerEmail,
  compact,
}: {
  campaign: { id: string; name: string; status: CampaignStatus };
  ownerEmail: string;
  compact?: boolean;
}) {
  const action = useAdminCampaignAction();
  const [confirm, setConfirm] = useState<'pause' | 'stop' | null>(null);
  const canPause = campaign.status === 'active';
  const canStop =
    campaign.status === 'active' || campaign.status === 'paused' || campaign.status === 'scheduled';
  if (!canPause && !canStop)
    return compact ? null : <p className="text-sm text-muted-foreground">No action available.</p>;

  const run = async (kind: 'pause' | 'stop') => {
    try {
      await action.mutateAsync({ id: campaign.id, action: kind });
      toast({
        title: kind === 'pause' ? 'Campaign paused' : 'Campaign stopped',
        description: `“${campaign.name}” of ${ownerEmail}. The action is in the audit log.`,
      });
      setConfirm(null);
    } catch (error) {
      toast({
        title: 'That did not work',
        description: getErrorMessage(error, 'Please try again.'),
        variant: 'destructive',
      });
    }
  };

  return (
    <div className="flex items-center gap-2">
      {canPause && (
        <Button
          variant="outline"
          size={compact ? 'sm' : 'default'}
          onClick={() => setConfirm('pause')}
          disabled={action.isPending}
          data-testid="admin-campaign-pause"
        >
          <Pause aria-hidden="true" />
          Pause
        </Button>
      )}
      {canStop && (
        <Button
          variant="outline"
          size={compact ? 'sm' : 'default'}
          className="text-destructive"
          onClick={() => setConfirm('stop')}
          disabled={action.isPending}
          data-testid="admin-campaign-stop"
        >
          {action.isPending ? (
            <Loader2 className="animate-spin" aria-hidden="true" />
          ) : (
            <Square aria-hidden="true" />
          )}
          Stop
        </Button>
      )}
      <ConfirmDialog
        open={confirm !== null}
        onOpenChange={(open) => !open && setConfirm(null)}
        title={confirm === 'stop' ? 'Stop this user’s campaign?' : 'Pause this user’s campaign?'}
        description={
          confirm === 'stop' ? (
            <>
              “{campaign.name}” of {ownerEmail} sends nothing more: its queued emails are cancelled. The owner
              cannot resume it.
            </>
          ) : (
            <>
              “{campaign.name}” of {ownerEmail} stops sending until its owner resumes it.
            </>
          )
        }
        confirmLabel={confirm === 'stop' ? 'Stop campaign' : 'Pause campaign'}
        pendingLabel={confirm === 'stop' ? 'Stopping…' : 'Pausing…'}
        destructive={confirm === 'stop'}
        pending={action.isPending}
        onConfirm={() => confirm && void run(confirm)}
        testId="confirm-admin-action"
      />
    </div>
  );
}
