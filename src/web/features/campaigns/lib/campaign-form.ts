import {
  type AudienceVerificationSkip,
  type CampaignAudience,
  type CampaignSettingsInput,
  campaignSettingsSchema,
  DEFAULT_BOUNCE_PAUSE_PERCENT,
  DEFAULT_COMPLAINT_PAUSE_PERCENT,
  DEFAULT_VERIFICATION_SKIP,
} from '@shared/campaigns';
import type { BodyFormat, TimezoneMode } from '@shared/sending';
import { minutesToTime, timeToMinutes } from './campaign-display';

/*
 * The create/edit campaign form as the browser holds it (strings for inputs, one object for all four
 * steps), its per-step checks, and its conversion to the API's campaignSettingsSchema.
 */

export type LeadFilterDraft = CampaignAudience['leadFilters'][number];

export interface CampaignFormState {
  name: string;
  listIds: string[];
  /** Segments narrowing some of the chosen lists (one per list). */
  segmentIds: string[];
  leadFilters: LeadFilterDraft[];
  /** Which verifier verdicts the audience leaves out when sending. */
  skipUnverified: AudienceVerificationSkip;
  senderAccountIds: string[];
  startMode: 'now' | 'later';
  /** A `datetime-local` value in the browser's own time zone. */
  scheduledAt: string;
  allDay: boolean;
  windowStart: string;
  windowEnd: string;
  sendDays: number[];
  timezoneMode: TimezoneMode;
  timeZone: string;
  gapMinSeconds: string;
  gapMaxSeconds: string;
  /** Empty: no campaign cap beyond the sender accounts' own. */
  dailyCap: string;
  /** Empty: no limit on how many go to one recipient domain (gmail.com, a company) per hour. */
  domainPacePerHour: string;
  trackOpens: boolean;
  trackClicks: boolean;
  bodyFormat: BodyFormat;
  /** Empty: tracking and unsubscribe links use the app's own address. */
  trackingDomain: string;
  /** The campaign pauses itself past these shares of its sends (percent, as typed). */
  bouncePausePercent: string;
  complaintPausePercent: string;
}

export const WIZARD_STEPS = ['name', 'audience', 'senders', 'schedule'] as const;
export type WizardStep = (typeof WIZARD_STEPS)[number];
export const WIZARD_STEP_LABELS: Record<WizardStep, string> = {
  name: 'Name',
  audience: 'Audience',
  senders: 'Senders',
  schedule: 'Schedule',
};

export type FormErrors = Partial<Record<keyof CampaignFormState | 'audience', string>>;

function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'Africa/Lagos';
  } catch {
    return 'Africa/Lagos';
  }
}

export function emptyCampaignForm(name = ''): CampaignFormState {
  return {
    name,
    listIds: [],
    segmentIds: [],
    leadFilters: [],
    skipUnverified: DEFAULT_VERIFICATION_SKIP,
    senderAccountIds: [],
    startMode: 'now',
    scheduledAt: '',
    allDay: false,
    windowStart: '08:00',
    windowEnd: '17:00',
    sendDays: [1, 2, 3, 4, 5],
    timezoneMode: 'recipient',
    timeZone: browserTimeZone().startsWith('Africa/') ? browserTimeZone() : 'Africa/Lagos',
    gapMinSeconds: '60',
    gapMaxSeconds: '180',
    dailyCap: '',
    domainPacePerHour: '',
    // Off for cold outreach: OPEN_TRACKING_REASON, shown beside the toggle.
    trackOpens: false,
    trackClicks: true,
    bodyFormat: 'html',
    trackingDomain: '',
    bouncePausePercent: String(DEFAULT_BOUNCE_PAUSE_PERCENT),
    complaintPausePercent: String(DEFAULT_COMPLAINT_PAUSE_PERCENT),
  };
}

/** `2026-05-01T09:30` in the browser's zone, for a `datetime-local` input. */
export function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export function formFromCampaign(campaign: {
  name: string;
  audience: CampaignAudience;
  senderAccountIds: string[];
  scheduledAt: string | null;
  windowStartMinute: number;
  windowEndMinute: number;
  sendDays: number[];
  timezoneMode: TimezoneMode;
  timeZone: string;
  gapMinSeconds: number;
  gapMaxSeconds: number;
  dailyCap: number | null;
  domainPacePerHour?: number | null;
  trackOpens: boolean;
  trackClicks: boolean;
  bodyFormat?: BodyFormat;
  trackingDomain?: string | null;
  bouncePausePercent?: number;
  complaintPausePercent?: number;
}): CampaignFormState {
  const allDay =
    campaign.windowStartMinute === campaign.windowEndMinute ||
    (campaign.windowStartMinute === 0 && campaign.windowEndMinute === 1440);
  return {
    name: campaign.name,
    listIds: [...(campaign.audience?.listIds ?? [])],
    segmentIds: [...(campaign.audience?.segmentIds ?? [])],
    leadFilters: [...(campaign.audience?.leadFilters ?? [])],
    skipUnverified: campaign.audience?.skipUnverified ?? DEFAULT_VERIFICATION_SKIP,
    senderAccountIds: [...campaign.senderAccountIds],
    startMode: campaign.scheduledAt ? 'later' : 'now',
    scheduledAt: toLocalInput(campaign.scheduledAt),
    allDay,
    windowStart: allDay ? '08:00' : minutesToTime(campaign.windowStartMinute),
    windowEnd: allDay ? '17:00' : minutesToTime(campaign.windowEndMinute),
    sendDays: [...campaign.sendDays],
    timezoneMode: campaign.timezoneMode,
    timeZone: campaign.timeZone,
    gapMinSeconds: String(campaign.gapMinSeconds),
    gapMaxSeconds: String(campaign.gapMaxSeconds),
    dailyCap: campaign.dailyCap === null ? '' : String(campaign.dailyCap),
    domainPacePerHour: campaign.domainPacePerHour == null ? '' : String(campaign.domainPacePerHour),
    trackOpens: campaign.trackOpens,
    trackClicks: campaign.trackClicks,
    bodyFormat: campaign.bodyFormat ?? 'html',
    trackingDomain: campaign.trackingDomain ?? '',
    bouncePausePercent: String(campaign.bouncePausePercent ?? DEFAULT_BOUNCE_PAUSE_PERCENT),
    complaintPausePercent: String(campaign.complaintPausePercent ?? DEFAULT_COMPLAINT_PAUSE_PERCENT),
  };
}

const TRACKING_DOMAIN_PATTERN = /^(?=.{1,253}$)([a-z0-9-]+\.)+[a-z]{2,}$/;

/** Tolerates a pasted "https://track.example.com/": only the host is kept. */
function normaliseTrackingDomain(value: string): string {
  return value
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, '')
    .replace(/\/.*$/, '');
}

/** A percentage as typed ("5", "0.3", "2,5"); null when it is not a number. */
function percentage(value: string): number | null {
  const trimmed = value.trim().replace(',', '.').replace(/%$/, '').trim();
  if (!/^\d+(\.\d+)?$/.test(trimmed)) return null;
  return Number(trimmed);
}

function wholeNumber(value: string): number | null {
  const trimmed = value.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  return Number(trimmed);
}

/** The problems of one wizard step, keyed by field; empty when the user may go on. */
export function validateStep(step: WizardStep, form: CampaignFormState, now = new Date()): FormErrors {
  const errors: FormErrors = {};
  if (step === 'name') {
    const name = form.name.trim();
    if (!name) errors.name = 'Enter a name';
    else if (name.length > 120) errors.name = 'Name must be at most 120 characters';
  }
  if (step === 'audience') {
    if (form.listIds.length === 0 && form.leadFilters.length === 0) {
      errors.audience = 'Choose at least one list or add a lead-discovery selection';
    }
  }
  if (step === 'schedule') {
    if (form.startMode === 'later') {
      const when = form.scheduledAt ? new Date(form.scheduledAt) : null;
      if (!when || Number.isNaN(when.getTime())) errors.scheduledAt = 'Choose the date and time to start';
      else if (when.getTime() <= now.getTime()) errors.scheduledAt = 'Choose a time in the future';
    }
    if (!form.allDay) {
      const start = timeToMinutes(form.windowStart);
      const end = timeToMinutes(form.windowEnd);
      if (start === null) errors.windowStart = 'Enter a time like 08:00';
      if (end === null) errors.windowEnd = 'Enter a time like 17:00';
      if (start !== null && end !== null && start === end) {
        errors.windowEnd = 'The window must end after it starts (or choose “All day”)';
      }
    }
    if (form.sendDays.length === 0) errors.sendDays = 'Choose at least one sending day';
    if (form.timezoneMode === 'fixed' && !form.timeZone.trim()) errors.timeZone = 'Choose a time zone';
    const gapMin = wholeNumber(form.gapMinSeconds);
    const gapMax = wholeNumber(form.gapMaxSeconds);
    if (gapMin === null || gapMin > 3600) errors.gapMinSeconds = 'Enter 0 to 3,600 seconds';
    if (gapMax === null || gapMax > 3600) errors.gapMaxSeconds = 'Enter 0 to 3,600 seconds';
    if (gapMin !== null && gapMax !== null && gapMax < gapMin) {
      errors.gapMaxSeconds = 'The longest gap must be at least the shortest';
    }
    if (form.dailyCap.trim()) {
      const cap = wholeNumber(form.dailyCap);
      if (cap === null || cap < 1 || cap > 100_000) errors.dailyCap = 'Enter 1 to 100,000, or leave it empty';
    }
    if (form.domainPacePerHour.trim()) {
      const pace = wholeNumber(form.domainPacePerHour);
      if (pace === null || pace < 1 || pace > 10_000) {
        errors.domainPacePerHour = 'Enter 1 to 10,000, or leave it empty';
      }
    }
    const bounceLimit = percentage(form.bouncePausePercent);
    if (bounceLimit === null || bounceLimit < 0.5 || bounceLimit > 50) {
      errors.bouncePausePercent = 'The bounce limit must be between 0.5% and 50%';
    }
    const complaintLimit = percentage(form.complaintPausePercent);
    if (complaintLimit === null || complaintLimit < 0.05 || complaintLimit > 10) {
      errors.complaintPausePercent = 'The complaint limit must be between 0.05% and 10%';
    }
    const trackingDomain = normaliseTrackingDomain(form.trackingDomain);
    if (trackingDomain && !TRACKING_DOMAIN_PATTERN.test(trackingDomain)) {
      errors.trackingDomain = 'Enter a domain like track.example.com';
    }
  }
  return errors;
}

export function validateAll(form: CampaignFormState, now = new Date()): FormErrors {
  return Object.assign({}, ...WIZARD_STEPS.map((step) => validateStep(step, form, now)));
}

/** The wizard step that holds a field, so an error answered by the server can be shown where it is. */
export function stepOfField(field: string): WizardStep {
  if (field === 'name') return 'name';
  if (field === 'audience' || field === 'listIds' || field === 'leadFilters') return 'audience';
  if (field === 'senderAccountIds') return 'senders';
  return 'schedule';
}

/** The API body; throws nothing — call validateAll first. */
export function toCampaignSettings(form: CampaignFormState): CampaignSettingsInput {
  const start = form.allDay ? 0 : (timeToMinutes(form.windowStart) ?? 480);
  const end = form.allDay ? 0 : (timeToMinutes(form.windowEnd) ?? 1020);
  const cap = form.dailyCap.trim() ? Number(form.dailyCap.trim()) : null;
  const settings: CampaignSettingsInput = {
    name: form.name.trim(),
    audience: {
      listIds: form.listIds,
      segmentIds: form.segmentIds,
      leadFilters: form.leadFilters,
      skipUnverified: form.skipUnverified,
    },
    senderAccountIds: form.senderAccountIds,
    scheduledAt:
      form.startMode === 'later' && form.scheduledAt ? new Date(form.scheduledAt).toISOString() : null,
    windowStartMinute: start,
    windowEndMinute: end,
    sendDays: [...form.sendDays].sort((a, b) => a - b),
    timezoneMode: form.timezoneMode,
    timeZone: form.timeZone,
    gapMinSeconds: Number(form.gapMinSeconds.trim()),
    gapMaxSeconds: Number(form.gapMaxSeconds.trim()),
    dailyCap: cap,
    domainPacePerHour: form.domainPacePerHour.trim() ? Number(form.domainPacePerHour.trim()) : null,
    trackOpens: form.trackOpens,
    trackClicks: form.trackClicks,
    bodyFormat: form.bodyFormat,
    trackingDomain: normaliseTrackingDomain(form.trackingDomain) || null,
    bouncePausePercent: percentage(form.bouncePausePercent) ?? DEFAULT_BOUNCE_PAUSE_PERCENT,
    complaintPausePercent: percentage(form.complaintPausePercent) ?? DEFAULT_COMPLAINT_PAUSE_PERCENT,
  };
  return settings;
}

/** The same checks as the server: a last guard before the request goes out. */
export function checkWithSharedSchema(form: CampaignFormState): FormErrors {
  const result = campaignSettingsSchema.safeParse(toCampaignSettings(form));
  if (result.success) return {};
  const errors: FormErrors = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? 'name');
    const key = (field === 'audience' ? 'audience' : field) as keyof FormErrors;
    errors[key] ??= issue.message;
  }
  return errors;
}

/** A short description of a lead-discovery selection: "NG · Lagos · Logistics, verified only". */
export function describeLeadFilter(
  filter: LeadFilterDraft,
  names: { country: (code: string) => string; category: (slug: string) => string },
): string {
  const parts: string[] = [];
  if (filter.country?.length) parts.push(filter.country.map(names.country).join(', '));
  else parts.push('All countries');
  if (filter.city?.length) parts.push(filter.city.join(', '));
  if (filter.category?.length) parts.push(filter.category.map(names.category).join(', '));
  else parts.push('all categories');
  if (filter.keyword) parts.push(`“${filter.keyword}”`);
  const flags = [
    filter.verifiedOnly && 'verified only',
    filter.hasPhone && 'with phone',
    filter.hasWebsite && 'with website',
  ].filter(Boolean);
  return `${parts.join(' · ')}${flags.length ? `, ${flags.join(', ')}` : ''}`;
}

/** The query parameters of GET /api/leads/count for a saved selection (its keyword is `q` there). */
export function leadFilterCountParams(filter: LeadFilterDraft) {
  return {
    country: filter.country ?? [],
    city: filter.city ?? [],
    category: filter.category ?? [],
    q: filter.keyword && filter.keyword.trim().length >= 3 ? filter.keyword.trim() : undefined,
    verifiedOnly: filter.verifiedOnly || undefined,
    hasPhone: filter.hasPhone || undefined,
    hasWebsite: filter.hasWebsite || undefined,
  };
}
