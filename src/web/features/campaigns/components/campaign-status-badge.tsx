import type { CampaignContactStatus, CampaignStatus } from '@shared/sending';
import { Badge } from '@/components/ui/badge';
import {
  CAMPAIGN_STATUS_LABELS,
  CAMPAIGN_STATUS_TONES,
  CONTACT_STATUS_LABELS,
  CONTACT_STATUS_TONES,
} from '../lib/campaign-display';

export function CampaignStatusBadge({ status, archived }: { status: CampaignStatus; archived?: boolean }) {
  return (
    <span className="inline-flex items-center gap-1.5">
      <Badge variant={CAMPAIGN_STATUS_TONES[status]} data-testid="campaign-status" data-status={status}>
        {CAMPAIGN_STATUS_LABELS[status]}
      </Badge>
      {archived && <Badge variant="outline">Archived</Badge>}
    </span>
  );
}

export function ContactStatusBadge({ status }: { status: CampaignContactStatus }) {
  return (
    <Badge variant={CONTACT_STATUS_TONES[status]} data-testid="contact-status" data-status={status}>
      {CONTACT_STATUS_LABELS[status]}
    </Badge>
  );
}
