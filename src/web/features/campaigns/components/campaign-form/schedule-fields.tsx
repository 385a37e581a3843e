import { BODY_FORMAT_LABELS, CAMPAIGN_PROTECTION_MIN_SENDS, OPEN_TRACKING_REASON } from '@shared/campaigns';
import { BODY_FORMATS } from '@shared/sending';
import { useId, useMemo } from 'react';
import { MultiCombobox } from '@/components/multi-combobox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { Switch } from '@/components/ui/switch';
import { cn } from '@/lib/utils';
import { WEEKDAY_SHORT } from '../../lib/campaign-display';
import type { CampaignFormState, FormErrors } from '../../lib/campaign-form';

const COMMON_ZONES = [
  'Africa/Lagos',
  'Africa/Accra',
  'Africa/Nairobi',
  'Africa/Johannesburg',
  'Africa/Cairo',
  'Africa/Casablanca',
  'Africa/Abidjan',
  'Africa/Kigali',
  'Africa/Dar_es_Salaam',
  'Europe/London',
  'UTC',
];

function zoneOptions(current: string) {
  const intl = Intl as typeof Intl & { supportedValuesOf?: (key: 'timeZone') => string[] };
  const all = typeof intl.supportedValuesOf === 'function' ? intl.supportedValuesOf('timeZone') : [];
  const rest = new Set(all.filter((zone) => !COMMON_ZONES.includes(zone)));
  if (current && !COMMON_ZONES.includes(current)) rest.add(current);
  const toOption = (zone: string, group: string) => ({
    value: zone,
    label: zone.split('/').join(' / ').replaceAll('_', ' '),
    group,
    keywords: [zone],
  });
  return [
    ...COMMON_ZONES.map((zone) => toOption(zone, 'Common')),
    ...[...rest].sort().map((zone) => toOption(zone, 'All time zones')),
  ];
}

function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} className="text-sm font-medium text-destructive" role="alert">
      {message}
    </p>
  );
}

function NumberField({
  label,
  value,
  onChange,
  error,
  hint,
  testId,
  placeholder,
  inputMode = 'numeric',
}: {
  inputMode?: 'numeric' | 'decimal';
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  hint?: string;
  testId?: string;
  placeholder?: string;
}) {
  const id = useId();
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        inputMode={inputMode}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={Boolean(error)}
        aria-describedby={error ? `${id}-error` : hint ? `${id}-hint` : undefined}
        placeholder={placeholder}
        data-testid={testId}
      />
      {hint && !error && (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/** Step 4 of the campaign form: when it starts, when and how fast it sends, and what it tracks. */
export function ScheduleFields({
  form,
  onChange,
  errors,
}: {
  form: CampaignFormState;
  onChange: (patch: Partial<CampaignFormState>) => void;
  errors: FormErrors;
}) {
  const id = useId();
  const zones = useMemo(() => zoneOptions(form.timeZone), [form.timeZone]);

  return (
    <div className="space-y-6" data-testid="schedule-fields">
      <fieldset className="space-y-3">
        <legend className="mb-2 font-medium">Start</legend>
        <RadioGroup
          value={form.startMode}
          onValueChange={(value) => onChange({ startMode: value as CampaignFormState['startMode'] })}
          className="gap-2"
        >
          <div className="flex items-center gap-2">
            <RadioGroupItem value="now" id={`${id}-now`} data-testid="start-now" />
            <Label htmlFor={`${id}-now`} className="font-normal">
              As soon as I launch it
            </Label>
          </div>
          <div className="flex items-center gap-2">
            <RadioGroupItem value="later" id={`${id}-later`} data-testid="start-later" />
            <Label htmlFor={`${id}-later`} className="font-normal">
              At a date and time
            </Label>
          </div>
        </RadioGroup>
        {form.startMode === 'later' && (
          <div className="grid max-w-xs gap-2 pl-6">
            <Label htmlFor={`${id}-at`} className="sr-only">
              Start date and time
            </Label>
            <Input
              id={`${id}-at`}
              type="datetime-local"
              value={form.scheduledAt}
              onChange={(event) => onChange({ scheduledAt: event.target.value })}
              aria-invalid={Boolean(errors.scheduledAt)}
              data-testid="scheduled-at"
            />
            <FieldError id={`${id}-at-error`} message={errors.scheduledAt} />
          </div>
        )}
      </fieldset>

      <fieldset className="space-y-3">
        <legend className="mb-2 font-medium">Sending window</legend>
        <div className="flex items-center gap-2">
          <Switch
            id={`${id}-allday`}
            checked={form.allDay}
            onCheckedChange={(allDay) => onChange({ allDay })}
            data-testid="window-all-day"
          />
          <Label htmlFor={`${id}-allday`} className="font-normal">
            Send at any hour
          </Label>
        </div>
        {!form.allDay && (
          <div className="grid max-w-sm grid-cols-2 gap-3">
            <div className="grid gap-2">
              <Label htmlFor={`${id}-from`}>From</Label>
              <Input
                id={`${id}-from`}
                type="time"
                value={form.windowStart}
                onChange={(event) => onChange({ windowStart: event.target.value })}
                aria-invalid={Boolean(errors.windowStart)}
                data-testid="window-start"
              />
              <FieldError id={`${id}-from-error`} message={errors.windowStart} />
            </div>
            <div className="grid gap-2">
              <Label htmlFor={`${id}-to`}>To</Label>
              <Input
                id={`${id}-to`}
                type="time"
                value={form.windowEnd}
                onChange={(event) => onChange({ windowEnd: event.target.value })}
                aria-invalid={Boolean(errors.windowEnd)}
                data-testid="window-end"
              />
            </div>
            <div className="col-span-2">
              <FieldError id={`${id}-to-error`} message={errors.windowEnd} />
            </div>
          </div>
        )}
        <div className="space-y-2">
          <p className="text-sm font-medium" id={`${id}-days`}>
            Days
          </p>
          <div className="flex flex-wrap gap-1.5" role="group" aria-labelledby={`${id}-days`}>
            {WEEKDAY_SHORT.map((label, index) => {
              const day = index + 1;
              const on = form.sendDays.includes(day);
              return (
                <button
                  key={label}
                  type="button"
                  aria-pressed={on}
                  onClick={() =>
                    onChange({
                      sendDays: on ? form.sendDays.filter((d) => d !== day) : [...form.sendDays, day],
                    })
                  }
                  className={cn(
                    'h-9 min-w-12 rounded-md border px-2 text-sm font-medium transition-colors focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none',
                    on
                      ? 'border-primary bg-primary text-primary-foreground'
                      : 'bg-background hover:bg-accent',
                  )}
                  data-testid={`send-day-${day}`}
                >
                  {label}
                </button>
              );
            })}
          </div>
          <FieldError id={`${id}-days-error`} message={errors.sendDays} />
        </div>
        <div className="space-y-2">
          <p className="text-sm font-medium">Time zone</p>
          <RadioGroup
            value={form.timezoneMode}
            onValueChange={(value) => onChange({ timezoneMode: value as CampaignFormState['timezoneMode'] })}
            className="gap-2"
          >
            <div className="flex items-center gap-2">
              <RadioGroupItem value="recipient" id={`${id}-tz-recipient`} />
              <Label htmlFor={`${id}-tz-recipient`} className="font-normal">
                Each recipient's own time zone (from their country and city)
              </Label>
            </div>
            <div className="flex items-center gap-2">
              <RadioGroupItem value="fixed" id={`${id}-tz-fixed`} />
              <Label htmlFor={`${id}-tz-fixed`} className="font-normal">
                One time zone for everyone
              </Label>
            </div>
          </RadioGroup>
          <div className="max-w-sm pl-6">
            <MultiCombobox
              options={zones}
              value={[form.timeZone]}
              onChange={(next) => {
                const zone = next[0];
                if (zone) onChange({ timeZone: zone });
              }}
              multiple={false}
              label={form.timezoneMode === 'fixed' ? 'Time zone' : 'Fallback time zone'}
              placeholder="Choose a time zone"
              searchPlaceholder="Search a city or region…"
              emptyText="No time zone matches."
              className="w-full"
              testId="campaign-time-zone"
            />
            {form.timezoneMode === 'recipient' && (
              <p className="mt-1 text-xs text-muted-foreground">
                Used when a contact's time zone is unknown.
              </p>
            )}
          </div>
        </div>
      </fieldset>

      <fieldset className="space-y-3">
        <legend className="mb-2 font-medium">Pace</legend>
        <div className="grid gap-4 sm:grid-cols-3">
          <NumberField
            label="Shortest gap (seconds)"
            value={form.gapMinSeconds}
            onChange={(gapMinSeconds) => onChange({ gapMinSeconds })}
            error={errors.gapMinSeconds}
            testId="gap-min"
          />
          <NumberField
            label="Longest gap (seconds)"
            value={form.gapMaxSeconds}
            onChange={(gapMaxSeconds) => onChange({ gapMaxSeconds })}
            error={errors.gapMaxSeconds}
            testId="gap-max"
          />
          <NumberField
            label="Daily campaign cap"
            value={form.dailyCap}
            onChange={(dailyCap) => onChange({ dailyCap })}
            error={errors.dailyCap}
            placeholder="No cap"
            hint="On top of each account's own daily limit."
            testId="daily-cap"
          />
        </div>
        <div className="grid gap-4 sm:grid-cols-3">
          <NumberField
            label="Per recipient domain, an hour"
            value={form.domainPacePerHour}
            onChange={(domainPacePerHour) => onChange({ domainPacePerHour })}
            error={errors.domainPacePerHour}
            placeholder="No limit"
            hint="Per hour to one domain (gmail.com, a company)."
            testId="domain-pace"
          />
        </div>
        <p className="text-xs text-muted-foreground">
          A random pause between the two gaps separates sends from one account, so the mail looks hand-sent.
        </p>
      </fieldset>

      <fieldset className="space-y-2" data-testid="body-format">
        <legend className="mb-2 font-medium">Email format</legend>
        <RadioGroup
          value={form.bodyFormat}
          onValueChange={(value) => onChange({ bodyFormat: value as CampaignFormState['bodyFormat'] })}
          className="gap-2"
        >
          {BODY_FORMATS.map((format) => (
            <div key={format} className="flex items-start gap-2">
              <RadioGroupItem
                value={format}
                id={`${id}-format-${format}`}
                className="mt-0.5"
                aria-describedby={`${id}-format-${format}-hint`}
                data-testid={`body-format-${format}`}
              />
              <div className="space-y-0.5">
                <Label htmlFor={`${id}-format-${format}`} className="font-normal">
                  {BODY_FORMAT_LABELS[format].label}
                </Label>
                <p id={`${id}-format-${format}-hint`} className="max-w-2xl text-xs text-muted-foreground">
                  {BODY_FORMAT_LABELS[format].hint}
                </p>
              </div>
            </div>
          ))}
        </RadioGroup>
      </fieldset>

      <fieldset className="space-y-3">
        <legend className="mb-2 font-medium">Tracking</legend>
        <div className="space-y-1">
          <div className="flex items-center gap-2">
            <Switch
              id={`${id}-opens`}
              checked={form.trackOpens}
              onCheckedChange={(trackOpens) => onChange({ trackOpens })}
              aria-describedby={`${id}-opens-reason`}
              data-testid="track-opens"
            />
            <Label htmlFor={`${id}-opens`} className="font-normal">
              Track opens
            </Label>
          </div>
          <p
            id={`${id}-opens-reason`}
            className="max-w-2xl text-xs text-muted-foreground"
            data-testid="track-opens-reason"
          >
            {OPEN_TRACKING_REASON}
            {form.bodyFormat === 'text' &&
              ' A plain-text-only email has no HTML part, so it carries no pixel either way.'}
          </p>
        </div>
        <div className="flex items-center gap-2">
          <Switch
            id={`${id}-clicks`}
            checked={form.trackClicks}
            onCheckedChange={(trackClicks) => onChange({ trackClicks })}
          />
          <Label htmlFor={`${id}-clicks`} className="font-normal">
            Track link clicks
          </Label>
        </div>
        <div className="max-w-md space-y-1.5">
          <Label htmlFor={`${id}-tracking-domain`}>Custom tracking domain (optional)</Label>
          <Input
            id={`${id}-tracking-domain`}
            value={form.trackingDomain}
            placeholder="track.yourcompany.com"
            aria-invalid={errors.trackingDomain ? true : undefined}
            onChange={(e) => onChange({ trackingDomain: e.target.value })}
            data-testid="tracking-domain"
          />
          {errors.trackingDomain ? (
            <p className="text-sm text-destructive">{errors.trackingDomain}</p>
          ) : (
            <p className="text-xs text-muted-foreground">
              Links, the open pixel and the unsubscribe page use this domain instead of ours. Point it at this
              app with a CNAME record and serve it over HTTPS first, or those links will not work.
            </p>
          )}
        </div>
      </fieldset>

      <fieldset className="space-y-3">
        <legend className="mb-2 font-medium">Protection</legend>
        <p className="max-w-2xl text-xs text-muted-foreground">
          After {CAMPAIGN_PROTECTION_MIN_SENDS} sends, the campaign pauses itself and emails you when more of
          its emails bounce or are reported as spam than this. A climbing bounce or complaint rate is what
          gets a domain blocked.
        </p>
        <div className="grid gap-4 sm:grid-cols-3">
          <NumberField
            label="Pause when bounces pass (%)"
            value={form.bouncePausePercent}
            onChange={(bouncePausePercent) => onChange({ bouncePausePercent })}
            error={errors.bouncePausePercent}
            inputMode="decimal"
            testId="bounce-pause-percent"
          />
          <NumberField
            label="Pause when spam complaints pass (%)"
            value={form.complaintPausePercent}
            onChange={(complaintPausePercent) => onChange({ complaintPausePercent })}
            error={errors.complaintPausePercent}
            inputMode="decimal"
            testId="complaint-pause-percent"
          />
        </div>
      </fieldset>
    </div>
  );
}
