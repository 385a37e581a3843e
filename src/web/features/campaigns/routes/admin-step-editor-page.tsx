import { useParams } from 'react-router';
import { useAdminCampaign } from '../api/campaigns';
import { StepEditorForm } from '../components/step-editor/step-editor-form';
import { CampaignLoadError, StepsSkeleton } from '../components/steps/steps-loading';

/** /admin/campaigns/:campaignId/step/:stepId/edit — any user's step, read-only, for super admins. */
export default function AdminStepEditorPage() {
  const { campaignId = '', stepId = '' } = useParams();
  const campaign = useAdminCampaign(campaignId);
  const basePath = `/admin/campaigns/${campaignId}`;

  if (campaign.isError) {
    return (
      <CampaignLoadError
        error={campaign.error}
        backHref="/admin/campaigns"
        backLabel="All campaigns"
        onRetry={() => campaign.refetch()}
      />
    );
  }
  if (!campaign.data) return <StepsSkeleton />;
  if (!campaign.data.steps.some((step) => step.id === stepId)) {
    return (
      <CampaignLoadError
        error={new Error('404: {"message":"This step does not exist. It may have been deleted."}')}
        notFoundTitle="This step does not exist"
        backHref={`${basePath}/steps`}
        backLabel="All steps"
        onRetry={() => campaign.refetch()}
      />
    );
  }

  return <StepEditorForm key={stepId} campaign={campaign.data} stepId={stepId} basePath={basePath} admin />;
}
