import type { VerificationStatus } from '@shared/contacts';
import { BadgeCheck, CircleDashed, CircleSlash, Globe, Phone } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';

export const VERIFICATION_LABELS: Record<VerificationStatus, string> = {
  verified: 'Verified',
  unverified: 'Unverified',
  invalid: 'Invalid',
};

export function VerificationBadge({ status }: { status: VerificationStatus }) {
  if (status === 'verified') {
    return (
      <Badge variant="success" data-testid="verification-badge" data-status={status}>
        <BadgeCheck aria-hidden="true" />
        Verified
      </Badge>
    );
  }
  if (status === 'invalid') {
    return (
      <Badge variant="destructive" data-testid="verification-badge" data-status={status}>
        <CircleSlash aria-hidden="true" />
        Invalid
      </Badge>
    );
  }
  return (
    <Badge
      variant="outline"
      className="text-muted-foreground"
      data-testid="verification-badge"
      data-status={status}
    >
      <CircleDashed aria-hidden="true" />
      Unverified
    </Badge>
  );
}

/** Phone and website presence as two small icons, each telling its value on hover and to screen readers. */
export function ReachIcons({ phone, website }: { phone: string | null; website: string | null }) {
  return (
    <span className="flex items-center gap-1.5">
      <ReachIcon present={Boolean(phone)} label={phone ? `Phone: ${phone}` : 'No phone'} icon={Phone} />
      <ReachIcon
        present={Boolean(website)}
        label={website ? `Website: ${website}` : 'No website'}
        icon={Globe}
      />
    </span>
  );
}

function ReachIcon({ present, label, icon: Icon }: { present: boolean; label: string; icon: typeof Phone }) {
  const glyph = (
    <Icon
      className={present ? 'size-4 text-primary' : 'size-4 text-muted-foreground/40'}
      aria-hidden="true"
    />
  );
  if (!present) {
    return (
      <span className="inline-flex" title={label}>
        {glyph}
        <span className="sr-only">{label}</span>
      </span>
    );
  }
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <span className="inline-flex rounded-sm outline-none focus-visible:ring-2 focus-visible:ring-ring">
          {glyph}
          <span className="sr-only">{label}</span>
        </span>
      </TooltipTrigger>
      <TooltipContent>{label}</TooltipContent>
    </Tooltip>
  );
}
