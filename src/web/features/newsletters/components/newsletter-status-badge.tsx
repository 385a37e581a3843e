import type { NewsletterStatus } from '@shared/campaigns';
import { NEWSLETTER_STATUS_LABELS } from '@shared/newsletters';
import { Badge } from '@/components/ui/badge';

const TONES: Record<NewsletterStatus, 'default' | 'secondary' | 'outline'> = {
  draft: 'outline',
  scheduled: 'secondary',
  sending: 'default',
  sent: 'default',
};

/**
 * The newsletter's status; a send whose campaign was paused for the user (bounces, complaints, a
 * suspension) reads "Paused" (data-status stays 'sending': it is still a send in progress).
 */
export function NewsletterStatusBadge({
  status,
  paused = false,
}: {
  status: NewsletterStatus;
  paused?: boolean;
}) {
  const isPaused = paused && status === 'sending';
  return (
    <Badge
      variant={isPaused ? 'destructive' : TONES[status]}
      data-testid="newsletter-status"
      data-status={status}
      {...(isPaused ? { 'data-paused': 'true' } : {})}
    >
      {isPaused ? 'Paused' : NEWSLETTER_STATUS_LABELS[status]}
    </Badge>
  );
}
