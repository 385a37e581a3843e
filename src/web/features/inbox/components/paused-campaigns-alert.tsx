import type { CampaignListItem } from '@shared/campaigns';
import { useQuery } from '@tanstack/react-query';
import { ShieldAlert } from 'lucide-react';
import { Link } from 'react-router';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { getJson } from '@/lib/http';

/**
 * Campaigns that paused themselves (too many bounces or complaints) are news the user should read where
 * they read their mail: named here with the reason and a link, until they resume or stop them.
 */
export function PausedCampaignsAlert() {
  const paused = useQuery<CampaignListItem[]>({
    queryKey: ['/api/campaigns', { status: 'paused' }],
    queryFn: ({ signal }) => getJson('/api/campaigns?status=paused', signal),
    staleTime: 60_000,
  });
  const selfPaused = (paused.data ?? []).filter((campaign) => campaign.pausedReason);
  if (selfPaused.length === 0) return null;
  return (
    <Alert variant="destructive" data-testid="inbox-paused-campaigns">
      <ShieldAlert aria-hidden="true" />
      <AlertTitle>
        {selfPaused.length === 1
          ? 'A campaign was paused for you'
          : `${selfPaused.length} campaigns were paused for you`}
      </AlertTitle>
      <AlertDescription>
        <ul className="space-y-1">
          {selfPaused.map((campaign) => (
            <li key={campaign.id}>
              <Link to={`/campaigns/${campaign.id}`} className="font-medium underline underline-offset-2">
                {campaign.name}
              </Link>
              : {campaign.pausedReason}
            </li>
          ))}
        </ul>
      </AlertDescription>
    </Alert>
  );
}
