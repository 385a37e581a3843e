import { useEffect, useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { useCampaign } from '../api/campaigns';
import { useAdminCampaignFallback } from '../components/admin-fallback';
import { StepEditorForm, type StepEditorHandOver } from '../components/step-editor/step-editor-form';
import { CampaignLoadError, StepsSkeleton } from '../components/steps/steps-loading';

const NEW_STEP_ID = 'new';

function readHandOver(state: unknown): StepEditorHandOver | null {
  if (!state || typeof state !== 'object' || !('stepEditor' in state)) return null;
  return (state as { stepEditor: StepEditorHandOver }).stepEditor;
}

/**
 * /campaigns/:campaignId/step/:stepId/edit — one step's editor; `new` writes a step that is created on
 * its first save, and the address then becomes the step's own.
 */
export default function StepEditorPage() {
  const { campaignId = '', stepId = '' } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  const campaign = useCampaign(campaignId);
  const basePath = `/campaigns/${campaignId}`;
  const toAdmin = useAdminCampaignFallback(
    campaign.error,
    `/admin/campaigns/${campaignId}/step/${stepId}/edit`,
  );
  // Read once, then dropped from the history entry so a reload starts clean.
  const [handOver] = useState(() => readHandOver(location.state));
  useEffect(() => {
    if (readHandOver(location.state)) navigate(location.pathname, { replace: true, state: null });
  }, [location, navigate]);

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

  const isNew = stepId === NEW_STEP_ID;
  if (!isNew && !campaign.data.steps.some((step) => step.id === stepId)) {
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

  return (
    <StepEditorForm
      key={stepId}
      campaign={campaign.data}
      stepId={isNew ? null : stepId}
      basePath={basePath}
      handOver={handOver}
      onCreated={(id, handOver) =>
        navigate(`${basePath}/step/${id}/edit`, { replace: true, state: { stepEditor: handOver } })
      }
    />
  );
}
