import type { ContactSource, VerificationStatus } from '@shared/contacts';
import type { Lead } from '@shared/leads';
import { BadgeCheck, CircleDashed, CircleSlash, FlaskConical, Globe, Phone } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';
import { formatDate } from '@/lib/format';

export const SOURCE_LABELS: Record<ContactSource, string> = {
  import: 'Admin import',
  data_entry: 'Data entry',
  scraper: 'Web source',
  seed: 'Generated',
};

/** Generated demo records (PRODUCT.md: "Sample data is labelled"). */
export function SampleDataBadge({ className }: { className?: string }) {
  return (
    <Badge variant="warning" className={className} data-testid="sample-badge">
      <FlaskConical aria-hidden="true" />
      Sample data
    </Badge>
  );
}

/**
 * A lead's verification as its evidence: "Verified 12 Nov 2026" (the date of the check, and who or what
 * checked it on hover), "Unverified", or "Sample data" — never "Verified" without a date.
 */
export function LeadVerification({ lead }: { lead: Lead }) {
  if (lead.sample) return <SampleDataBadge />;
  if (lead.verified && lead.verifiedAt) {
    const badge = (
      <Badge variant="success" data-testid="verification-badge" data-status="verified" tabIndex={0}>
        <BadgeCheck aria-hidden="true" />
        Verified
        {/* The date needs room a 1366 px laptop does not have beside the filters; the tooltip keeps it. */}
        <span className="hidden 2xl:inline">{` ${formatDate(lead.verifiedAt)}`}</span>
      </Badge>
    );
    return (
      <Tooltip>
        <TooltipTrigger asChild>{badge}</TooltipTrigger>
        <TooltipContent>
          {lead.verificationMethod === 'officer_check'
            ? 'Checked by a data entry officer'
            : lead.verificationMethod === 'email_check'
              ? 'Mailbox confirmed by its mail server'
              : 'Checked'}{' '}
          on {formatDate(lead.verifiedAt)}
        </TooltipContent>
      </Tooltip>
    );
  }
  return <VerificationBadge status="unverified" />;
}

/** Where a lead came from and when it was added: "Data entry · added 3 Mar 2026". */
export function LeadProvenance({ lead }: { lead: Lead }) {
  return (
    <p className="truncate text-xs text-muted-foreground" data-testid="lead-provenance">
      {SOURCE_LABELS[lead.source]} · added {formatDate(lead.createdAt)}
    </p>
  );
}

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
