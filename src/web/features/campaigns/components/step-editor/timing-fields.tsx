import { STEP_CONDITIONS, type StepCondition } from '@shared/campaigns';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import {
  conditionLabel,
  describeCondition,
  describeStepTiming,
  type StepDraft,
  type StepErrors,
} from '../../lib/step-form';

function wholeNumber(value: string): number {
  const parsed = Number.parseInt(value, 10);
  return Number.isNaN(parsed) ? 0 : parsed;
}

/** When the step goes out (delay after the previous one, business days) and to whom (its condition). */
export function TimingFields({
  draft,
  errors,
  isFirst,
  readOnly,
  onChange,
}: {
  draft: StepDraft;
  errors: StepErrors;
  isFirst: boolean;
  readOnly: boolean;
  onChange: (patch: Partial<StepDraft>) => void;
}) {
  return (
    <div className="space-y-4">
      <div className="grid gap-3 sm:grid-cols-[8rem_8rem_1fr] sm:items-end">
        <div className="space-y-1">
          <Label htmlFor="delay-days">Wait (days)</Label>
          <Input
            id="delay-days"
            type="number"
            inputMode="numeric"
            min={0}
            max={365}
            value={draft.delayDays}
            readOnly={readOnly}
            aria-invalid={Boolean(errors.delayDays)}
            onChange={(event) => onChange({ delayDays: wholeNumber(event.target.value) })}
            data-testid="delay-days"
          />
        </div>
        <div className="space-y-1">
          <Label htmlFor="delay-hours">and hours</Label>
          <Input
            id="delay-hours"
            type="number"
            inputMode="numeric"
            min={0}
            max={23}
            value={draft.delayHours}
            readOnly={readOnly}
            aria-invalid={Boolean(errors.delayHours)}
            onChange={(event) => onChange({ delayHours: wholeNumber(event.target.value) })}
            data-testid="delay-hours"
          />
        </div>
        <div className="flex items-center gap-2 pb-2">
          <Switch
            id="business-days"
            checked={draft.businessDays}
            disabled={readOnly}
            onCheckedChange={(checked) => onChange({ businessDays: checked })}
            data-testid="business-days"
          />
          <Label htmlFor="business-days">Count business days only (Mon–Fri)</Label>
        </div>
      </div>
      {(errors.delayDays || errors.delayHours) && (
        <p className="text-sm text-destructive">
          {errors.delayDays
            ? 'Wait between 0 and 365 days'
            : 'Hours go from 0 to 23; use days for longer waits'}
        </p>
      )}
      <p className="text-sm text-muted-foreground" data-testid="timing-summary">
        {describeStepTiming(draft, isFirst)}.
      </p>

      {!isFirst && (
        <div className="space-y-1">
          <Label htmlFor="step-condition">Send this step</Label>
          <Select
            value={draft.condition}
            disabled={readOnly}
            onValueChange={(value) => onChange({ condition: value as StepCondition })}
          >
            <SelectTrigger id="step-condition" className="w-full sm:w-72" data-testid="step-condition">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {STEP_CONDITIONS.map((condition) => (
                <SelectItem key={condition} value={condition} data-testid={`step-condition-${condition}`}>
                  {conditionLabel(condition)}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          <p className="text-xs text-muted-foreground">
            {describeCondition(draft.condition, false)}. A reply or an unsubscribe always ends a contact's
            sequence.
          </p>
        </div>
      )}
    </div>
  );
}
