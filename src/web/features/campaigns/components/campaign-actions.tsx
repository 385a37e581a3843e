import {
  Archive,
  ArchiveRestore,
  Copy,
  MoreHorizontal,
  Pause,
  Play,
  Settings2,
  Square,
  Trash2,
} from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/errors';
import { getPlanLimitMessage } from '@/lib/plan-limit';
import { type CampaignAction, useCampaignAction, useDeleteCampaign } from '../api/campaigns';
import { availableActions } from '../lib/campaign-display';

type Confirmable = 'stop' | 'delete';

const DONE: Record<CampaignAction, string> = {
  launch: 'Campaign launched',
  pause: 'Campaign paused',
  resume: 'Campaign resumed',
  stop: 'Campaign stopped',
  archive: 'Campaign archived',
  unarchive: 'Campaign restored',
  duplicate: 'Campaign duplicated',
};

/** Runs a campaign action with its toast; duplicate opens the copy. */
export function useRunCampaignAction() {
  const action = useCampaignAction();
  const navigate = useNavigate();
  const run = async (id: string, name: string, kind: CampaignAction, after?: () => void) => {
    try {
      const result = await action.mutateAsync({ id, action: kind });
      toast({
        title: DONE[kind],
        description: kind === 'duplicate' ? `“${result.name}” is a new draft.` : `“${name}”`,
      });
      after?.();
      if (kind === 'duplicate') navigate(`/campaigns/${result.id}`);
    } catch (error) {
      toast({
        title: 'That did not work',
        description: getPlanLimitMessage(error) ?? getErrorMessage(error, 'Please try again.'),
        variant: 'destructive',
      });
    }
  };
  return { run, pending: action.isPending };
}

/**
 * The ⋯ menu of a campaign (list rows and the campaign page): edit settings, pause/resume/stop,
 * duplicate, archive, delete — only what its status allows.
 */
export function CampaignActionsMenu({
  campaign,
  onEdit,
  onDeleted,
  triggerVariant = 'ghost',
}: {
  campaign: {
    id: string;
    name: string;
    status: Parameters<typeof availableActions>[0];
    archivedAt: string | null;
  };
  onEdit?: () => void;
  onDeleted?: () => void;
  triggerVariant?: 'ghost' | 'outline';
}) {
  const allowed = availableActions(campaign.status, Boolean(campaign.archivedAt));
  const { run, pending } = useRunCampaignAction();
  const remove = useDeleteCampaign();
  const [confirm, setConfirm] = useState<Confirmable | null>(null);

  const act = (kind: CampaignAction) => void run(campaign.id, campaign.name, kind);

  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button
            variant={triggerVariant}
            size="icon"
            aria-label={`Actions for ${campaign.name}`}
            disabled={pending}
            data-testid="campaign-actions"
          >
            <MoreHorizontal aria-hidden="true" />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end" className="w-48">
          {onEdit && allowed.edit && (
            <DropdownMenuItem onSelect={onEdit} data-testid="action-edit">
              <Settings2 aria-hidden="true" />
              Settings
            </DropdownMenuItem>
          )}
          {allowed.pause && (
            <DropdownMenuItem onSelect={() => act('pause')} data-testid="action-pause">
              <Pause aria-hidden="true" />
              Pause
            </DropdownMenuItem>
          )}
          {allowed.resume && (
            <DropdownMenuItem onSelect={() => act('resume')} data-testid="action-resume">
              <Play aria-hidden="true" />
              Resume
            </DropdownMenuItem>
          )}
          {allowed.stop && (
            <DropdownMenuItem onSelect={() => setConfirm('stop')} data-testid="action-stop">
              <Square aria-hidden="true" />
              Stop
            </DropdownMenuItem>
          )}
          <DropdownMenuItem onSelect={() => act('duplicate')} data-testid="action-duplicate">
            <Copy aria-hidden="true" />
            Duplicate
          </DropdownMenuItem>
          {allowed.archive && (
            <DropdownMenuItem onSelect={() => act('archive')} data-testid="action-archive">
              <Archive aria-hidden="true" />
              Archive
            </DropdownMenuItem>
          )}
          {allowed.unarchive && (
            <DropdownMenuItem onSelect={() => act('unarchive')} data-testid="action-unarchive">
              <ArchiveRestore aria-hidden="true" />
              Restore from archive
            </DropdownMenuItem>
          )}
          {allowed.delete && (
            <>
              <DropdownMenuSeparator />
              <DropdownMenuItem
                variant="destructive"
                onSelect={() => setConfirm('delete')}
                data-testid="action-delete"
              >
                <Trash2 aria-hidden="true" />
                Delete draft
              </DropdownMenuItem>
            </>
          )}
        </DropdownMenuContent>
      </DropdownMenu>

      <ConfirmDialog
        open={confirm === 'stop'}
        onOpenChange={(open) => !open && setConfirm(null)}
        title="Stop this campaign?"
        description={
          <>
            “{campaign.name}” sends nothing more: queued emails are cancelled and every contact leaves the
            sequence. A stopped campaign cannot be resumed; duplicate it to start again.
          </>
        }
        confirmLabel="Stop campaign"
        pendingLabel="Stopping…"
        destructive
        pending={pending}
        onConfirm={() => void run(campaign.id, campaign.name, 'stop', () => setConfirm(null))}
        testId="confirm-stop"
      />
      <ConfirmDialog
        open={confirm === 'delete'}
        onOpenChange={(open) => !open && setConfirm(null)}
        title="Delete this draft?"
        description={<>“{campaign.name}” and its emails are deleted for good.</>}
        confirmLabel="Delete draft"
        pendingLabel="Deleting…"
        destructive
        pending={remove.isPending}
        onConfirm={async () => {
          try {
            await remove.mutateAsync(campaign.id);
            setConfirm(null);
            toast({ title: 'Draft deleted', description: `“${campaign.name}”` });
            onDeleted?.();
          } catch (error) {
            toast({
              title: 'The draft could not be deleted',
              description: getErrorMessage(error, 'Please try again.'),
              variant: 'destructive',
            });
          }
        }}
        testId="confirm-delete"
      />
    </>
  );
}
