import type { NewsletterStatus } from '@shared/campaigns';
import { NEWSLETTER_STATUS_LABELS } from '@shared/newsletters';
import { Badge } from '@/components/ui/badge';

const TONES: Record<NewsletterStatus, 'default' | 'secondary' | 'outline'> = {
  draft: 'outline',
  scheduled: 'secondary',
  sending: 'default',
  sent: 'default',
};

export function NewsletterStatusBadge({ status }: { status: NewsletterStatus }) {
  return (
    <Badge variant={TONES[status]} data-testid="newsletter-status" data-status={status}>
      {NEWSLETTER_STATUS_LABELS[status]}
    </Badge>
  );
}
