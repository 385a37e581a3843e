import type { AudienceVerificationSkip } from '@shared/campaigns';
import { MailCheck } from 'lucide-react';
import { useId } from 'react';
import { Label } from '@/components/ui/label';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';

const CHOICES: Record<AudienceVerificationSkip, { label: string; hint: string }> = {
  invalid: {
    label: 'Skip invalid addresses',
    hint: 'Addresses whose mail server refused them when verified. Recommended: each one would bounce.',
  },
  risky: {
    label: 'Skip invalid and risky addresses',
    hint: 'Also catch-all domains, shared role mailboxes (info@, sales@), full mailboxes and greylisted ones.',
  },
  none: {
    label: 'Send to every address',
    hint: 'Verification results are ignored. Bounces count against your sender accounts.',
  },
};

/** The recommended choice first. */
const SHOWN: AudienceVerificationSkip[] = ['invalid', 'risky', 'none'];

/** Part of the audience step: which verified-bad addresses the campaign leaves out when it sends. */
export function VerificationSkipField({
  value,
  onChange,
}: {
  value: AudienceVerificationSkip;
  onChange: (value: AudienceVerificationSkip) => void;
}) {
  const id = useId();
  return (
    <fieldset className="space-y-3" data-testid="audience-verification-skip">
      <legend className="flex items-center gap-2 font-medium">
        <MailCheck className="size-4 text-muted-foreground" aria-hidden="true" />
        Verified addresses
      </legend>
      <p className="text-sm text-muted-foreground">
        Addresses checked with “Verify list” (or in the Tambari database) that should not be sent to.
        Addresses never verified are sent to.
      </p>
      <RadioGroup value={value} onValueChange={(next) => onChange(next as AudienceVerificationSkip)}>
        {SHOWN.map((choice) => (
          <div key={choice} className="flex items-start gap-3">
            <RadioGroupItem value={choice} id={`${id}-${choice}`} className="mt-0.5" />
            <div className="space-y-0.5">
              <Label htmlFor={`${id}-${choice}`}>{CHOICES[choice].label}</Label>
              <p className="text-xs text-muted-foreground">{CHOICES[choice].hint}</p>
            </div>
          </div>
        ))}
      </RadioGroup>
    </fieldset>
  );
}
