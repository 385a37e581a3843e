import { WINNER_METRICS, type WinnerMetric } from '@shared/campaigns';
import { Scale } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { cn } from '@/lib/utils';
import {
  evenSplit,
  MIN_WINNER_AFTER_SENDS,
  type StepDraft,
  type StepErrors,
  setVariantSplit,
  splitTotal,
  WINNER_METRIC_LABELS,
} from '../../lib/step-form';

/** The A/B split (whole percentages adding up to 100) and the optional winner rule. */
export function SplitSettings({
  draft,
  errors,
  readOnly,
  onChange,
}: {
  draft: StepDraft;
  errors: StepErrors;
  readOnly: boolean;
  onChange: (patch: Partial<StepDraft>) => void;
}) {
  const total = splitTotal(draft.variants);
  const balanced = total === 100;
  return (
    <div className="space-y-4" data-testid="split-settings">
      <div className="space-y-2">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h3 className="text-sm font-medium">A/B split</h3>
          {!readOnly && draft.variants.length > 2 && (
            <Button
              variant="ghost"
              size="sm"
              onClick={() => {
                const splits = evenSplit(draft.variants.length);
                onChange({
                  variants: draft.variants.map((v, i) => ({ ...v, splitPercent: splits[i] ?? 0 })),
                });
              }}
            >
              <Scale aria-hidden="true" />
              Split evenly
            </Button>
          )}
        </div>
        <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          {draft.variants.map((variant) => (
            <div key={variant.key} className="space-y-1">
              <Label htmlFor={`split-${variant.key}`} className="text-xs text-muted-foreground">
                Variant {variant.key}
              </Label>
              <div className="relative">
                <Input
                  id={`split-${variant.key}`}
                  type="number"
                  inputMode="numeric"
                  min={0}
                  max={100}
                  step={1}
                  value={variant.splitPercent}
                  readOnly={readOnly}
                  onChange={(event) =>
                    onChange({
                      variants: setVariantSplit(draft.variants, variant.key, Number(event.target.value)),
                    })
                  }
                  className="pr-7"
                  data-testid={`split-${variant.key}`}
                />
                <span className="pointer-events-none absolute top-1/2 right-3 -translate-y-1/2 text-sm text-muted-foreground">
                  %
                </span>
              </div>
            </div>
          ))}
        </div>
        <p
          className={cn('text-sm', balanced ? 'text-muted-foreground' : 'text-destructive')}
          data-testid="split-total"
          role={balanced ? undefined : 'alert'}
        >
          {balanced ? 'Adds up to 100%.' : (errors.variants ?? `Adds up to ${total}%; it must be 100%.`)}
        </p>
      </div>

      <div className="space-y-3 rounded-md border p-3">
        <div className="flex items-start justify-between gap-3">
          <div className="space-y-0.5">
            <Label htmlFor="winner-enabled">Pick a winner automatically</Label>
            <p className="text-xs text-muted-foreground">
              After a number of sends, the variant with the best rate goes to everyone still to receive this
              step.
            </p>
          </div>
          <Switch
            id="winner-enabled"
            checked={draft.winnerEnabled}
            disabled={readOnly}
            onCheckedChange={(checked) => onChange({ winnerEnabled: checked })}
            data-testid="winner-enabled"
          />
        </div>
        {draft.winnerEnabled && (
          <div className="grid gap-3 sm:grid-cols-2">
            <div className="space-y-1">
              <Label htmlFor="winner-metric" className="text-xs text-muted-foreground">
                Best by
              </Label>
              <Select
                value={draft.winnerMetric}
                disabled={readOnly}
                onValueChange={(value) => onChange({ winnerMetric: value as WinnerMetric })}
              >
                <SelectTrigger id="winner-metric" className="w-full" data-testid="winner-metric">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {WINNER_METRICS.map((metric) => (
                    <SelectItem key={metric} value={metric}>
                      {WINNER_METRIC_LABELS[metric]}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </div>
            <div className="space-y-1">
              <Label htmlFor="winner-after" className="text-xs text-muted-foreground">
                After this many sends
              </Label>
              <Input
                id="winner-after"
                type="number"
                inputMode="numeric"
                min={MIN_WINNER_AFTER_SENDS}
                step={10}
                value={Number.isNaN(draft.winnerAfterSends) ? '' : draft.winnerAfterSends}
                readOnly={readOnly}
                aria-invalid={Boolean(errors.winnerAfterSends)}
                onChange={(event) => onChange({ winnerAfterSends: Number.parseInt(event.target.value, 10) })}
                data-testid="winner-after"
              />
              {errors.winnerAfterSends && (
                <p className="text-sm text-destructive">
                  Choose at least {MIN_WINNER_AFTER_SENDS} sends (at most 100,000) before picking a winner
                </p>
              )}
            </div>
          </div>
        )}
      </div>
    </div>
  );
}
