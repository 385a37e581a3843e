import { useParams } from 'react-router';
import { useAdminCampaign } from '../api/campaigns';
import { CampaignLoadError, StepsSkeleton } from '../components/steps/steps-loading';
import { StepsView } from '../components/steps/steps-view';

/** /admin/campaigns/:campaignId/steps — any user's sequence, read-only, for super admins. */
export default function AdminStepsPage() {
  const { campaignId = '' } = useParams();
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
  const owner = campaign.data.owner.email;

  return (
    <StepsView
      campaign={campaign.data}
      basePath={basePath}
      backHref={basePath}
      backLabel="Campaign overview"
      forceReadOnly
      ownerNote={owner ? `Owner: ${owner}` : undefined}
    />
  );
}
