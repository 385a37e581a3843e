import { ArrowLeft, Eye, ListOrdered } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { QueryError } from '@/components/query-error';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { usePageMeta } from '@/hooks/use-page-meta';
import { getErrorStatus } from '@/lib/errors';
import { formatNumber } from '@/lib/format';
import { useAdminCampaign } from '../api/campaigns';
import { AdminCampaignActions } from '../components/admin-campaign-actions';
import { CampaignProgressCard, CampaignSettingsCard, StepStatsTable } from '../components/campaign-overview';
import { CampaignStatusBadge } from '../components/campaign-status-badge';

/** /admin/campaigns/:id — the campaign page, read-only, for a super admin; pause and stop. */
export default function AdminCampaignPage() {
  const { id = '' } = useParams();
  const campaign = useAdminCampaign(id);
  const data = campaign.data;
  usePageMeta({
    title: `${data?.name ?? 'Campaign'} | Tambari Admin`,
    description: 'A user campaign.',
    robots: 'noindex, nofollow',
  });

  const back = (
    <Button variant="ghost" size="sm" className="-ml-2" asChild>
      <Link to="/admin/campaigns">
        <ArrowLeft aria-hidden="true" />
        All campaigns
      </Link>
    </Button>
  );

  if (campaign.isError && !data) {
    const notFound = getErrorStatus(campaign.error) === 404;
    return (
      <div className="mx-auto w-full max-w-3xl space-y-4">
        {back}
        <QueryError
          title={notFound ? 'This campaign does not exist' : 'The campaign could not be loaded'}
          error={campaign.error}
          onRetry={notFound ? undefined : () => campaign.refetch()}
          testId="admin-campaign-error"
        />
      </div>
    );
  }

  const ownerEmail = data?.owner.email ?? 'unknown owner';

  return (
    <div className="mx-auto w-full max-w-7xl space-y-6" data-testid="admin-campaign-page">
      <div className="space-y-3">
        {back}
        <header className="flex flex-col gap-4 lg:flex-row lg:items-start lg:justify-between">
          <div className="min-w-0 space-y-2">
            {data ? (
              <h1
                className="break-words text-2xl font-semibold tracking-tight"
                data-testid="campaign-name-heading"
              >
                {data.name}
              </h1>
            ) : (
              <Skeleton className="h-8 w-72" />
            )}
            {data && (
              <div className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
                <CampaignStatusBadge status={data.status} archived={Boolean(data.archivedAt)} />
                <span data-testid="admin-campaign-owner">Owner: {ownerEmail}</span>
                <span aria-hidden="true">·</span>
                <span>{formatNumber(data.contactCount)} contacts</span>
              </div>
            )}
          </div>
          {data && (
            <div className="flex flex-wrap items-center gap-2">
              <Button variant="outline" asChild>
                <Link to={`/admin/campaigns/${data.id}/steps`}>
                  <ListOrdered aria-hidden="true" />
                  View emails
                </Link>
              </Button>
              <AdminCampaignActions campaign={data} ownerEmail={ownerEmail} />
            </div>
          )}
        </header>
      </div>
      <Alert>
        <Eye aria-hidden="true" />
        <AlertDescription>Admin view: read-only. Only the owner edits the campaign.</AlertDescription>
      </Alert>
      {!data ? (
        <Skeleton className="h-64 w-full" />
      ) : (
        <>
          <CampaignProgressCard campaign={data} stats={data.stats} loading={false} />
          <StepStatsTable campaign={data} stats={data.stats} />
          <CampaignSettingsCard campaign={data} />
        </>
      )}
    </div>
  );
}
