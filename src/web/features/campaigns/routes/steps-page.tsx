import { useNavigate, useParams } from 'react-router';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/errors';
import { useCampaign } from '../api/campaigns';
import { useDeleteStep, useReorderSteps } from '../api/steps';
import { useAdminCampaignFallback } from '../components/admin-fallback';
import { CampaignLoadError, StepsSkeleton } from '../components/steps/steps-loading';
import { StepsView } from '../components/steps/steps-view';
import { TestRunPanel } from '../components/steps/test-run-panel';

/** /campaigns/:campaignId/steps — the sequence: add, reorder, delete, and open a step to edit it. */
export default function StepsPage() {
  const { campaignId = '' } = useParams();
  const navigate = useNavigate();
  const campaign = useCampaign(campaignId);
  const reorder = useReorderSteps(campaignId);
  const remove = useDeleteStep(campaignId);
  const basePath = `/campaigns/${campaignId}`;
  const toAdmin = useAdminCampaignFallback(campaign.error, `/admin/campaigns/${campaignId}/steps`);

  if (toAdmin) return <StepsSkeleton />;
  if (campaign.isError) {
    return (
      <CampaignLoadError
        error={campaign.error}
        backHref="/campaigns"
        backLabel="Campaigns"
        onRetry={() => campaign.refetch()}
      />
    );
  }
  if (!campaign.data) return <StepsSkeleton />;

  return (
    <StepsView
      campaign={campaign.data}
      basePath={basePath}
      backHref={basePath}
      backLabel="Campaign overview"
      testRun={<TestRunPanel campaignId={campaignId} />}
      busy={reorder.isPending || remove.isPending}
      onAdd={() => navigate(`${basePath}/step/new/edit`)}
      onReorder={(stepIds) =>
        reorder.mutate(stepIds, {
          onError: (error) =>
            toast({
              variant: 'destructive',
              title: 'The steps were not reordered',
              description: getErrorMessage(error, 'Please try again.'),
            }),
        })
      }
      onDelete={async (stepId) => {
        try {
          await remove.mutateAsync(stepId);
          toast({ title: 'Step deleted' });
          return true;
        } catch (error) {
          toast({
            variant: 'destructive',
            title: 'The step was not deleted',
            description: getErrorMessage(error, 'Please try again.'),
          });
          return false;
        }
      }}
    />
  );
}
