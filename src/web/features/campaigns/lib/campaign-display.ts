import type { CampaignContactStatus, CampaignStatus } from '@shared/sending';

/*
 * How campaigns read on screen: status names and colours, the list's tabs, rates, the sending window.
 * Pure functions, tested beside this file.
 */

export const CAMPAIGN_STATUS_LABELS: Record<CampaignStatus, string> = {
  draft: 'Draft',
  scheduled: 'Scheduled',
  active: 'Active',
  paused: 'Paused',
  completed: 'Completed',
  stopped: 'Stopped',
};

export type BadgeTone = 'default' | 'secondary' | 'outline' | 'success' | 'warning' | 'destructive';

export const CAMPAIGN_STATUS_TONES: Record<CampaignStatus, BadgeTone> = {
  draft: 'outline',
  scheduled: 'secondary',
  active: 'success',
  paused: 'warning',
  completed: 'default',
  stopped: 'destructive',
};

export const CONTACT_STATUS_LABELS: Record<CampaignContactStatus, string> = {
  active: 'In sequence',
  paused: 'Paused',
  replied: 'Replied',
  bounced: 'Bounced',
  unsubscribed: 'Unsubscribed',
  completed: 'Completed',
  stopped: 'Stopped',
};

export const CONTACT_STATUS_TONES: Record<CampaignContactStatus, BadgeTone> = {
  active: 'secondary',
  paused: 'warning',
  replied: 'success',
  bounced: 'destructive',
  unsubscribed: 'outline',
  completed: 'default',
  stopped: 'outline',
};

export const CAMPAIGN_TABS = ['active', 'drafts', 'completed', 'archived'] as const;
export type CampaignTab = (typeof CAMPAIGN_TABS)[number];

export const CAMPAIGN_TAB_LABELS: Record<CampaignTab, string> = {
  active: 'Active',
  drafts: 'Drafts',
  completed: 'Completed',
  archived: 'Archived',
};

const TAB_STATUSES: Record<Exclude<CampaignTab, 'archived'>, readonly CampaignStatus[]> = {
  active: ['active', 'scheduled', 'paused'],
  drafts: ['draft'],
  completed: ['completed', 'stopped'],
};

export function readCampaignTab(value: string | null): CampaignTab {
  return (CAMPAIGN_TABS as readonly string[]).includes(value ?? '') ? (value as CampaignTab) : 'active';
}

/** Which tab a campaign belongs in; an archived campaign is only under Archived. */
export function campaignTab(campaign: { status: CampaignStatus; archivedAt: string | null }): CampaignTab {
  if (campaign.archivedAt) return 'archived';
  for (const [tab, statuses] of Object.entries(TAB_STATUSES)) {
    if (statuses.includes(campaign.status)) return tab as CampaignTab;
  }
  return 'active';
}

export function filterByTab<T extends { status: CampaignStatus; archivedAt: string | null }>(
  campaigns: readonly T[],
  tab: CampaignTab,
): T[] {
  return campaigns.filter((campaign) => campaignTab(campaign) === tab);
}

/** "42.5%" of `part` in `whole`; "—" when nothing was sent yet (0 of 0 is no rate at all). */
export function formatRate(part: number, whole: number): string {
  if (!whole) return '—';
  const value = (part / whole) * 100;
  return `${value >= 10 || Number.isInteger(value) ? Math.round(value * 10) / 10 : value.toFixed(1)}%`;
}

/** 0–100, clamped; the server's figure may overshoot by rounding. */
export function clampPercent(value: number | null | undefined): number {
  if (value === null || value === undefined || Number.isNaN(value)) return 0;
  return Math.min(100, Math.max(0, Math.round(value)));
}

export function minutesToTime(minutes: number): string {
  const clamped = Math.min(1440, Math.max(0, Math.round(minutes)));
  if (clamped === 1440) return '24:00';
  const h = Math.floor(clamped / 60);
  const m = clamped % 60;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
}

/** "08:30" → 510; null for anything that is not a time of day. "24:00" is the end of the day. */
export function timeToMinutes(value: string): number | null {
  const match = /^(\d{1,2}):(\d{2})$/.exec(value.trim());
  if (!match) return null;
  const h = Number(match[1]);
  const m = Number(match[2]);
  if (m > 59 || h > 24 || (h === 24 && m > 0)) return null;
  return h * 60 + m;
}

export const WEEKDAY_SHORT = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

/** "Mon–Fri", "Every day", "Mon, Wed, Fri". */
export function formatSendDays(days: readonly number[]): string {
  const sorted = [...new Set(days)].filter((d) => d >= 1 && d <= 7).sort((a, b) => a - b);
  if (sorted.length === 7) return 'Every day';
  if (sorted.length === 0) return 'No days';
  const consecutive = sorted.every((day, index) => index === 0 || day === (sorted[index - 1] ?? 0) + 1);
  if (consecutive && sorted.length >= 3) {
    return `${WEEKDAY_SHORT[(sorted[0] ?? 1) - 1]}–${WEEKDAY_SHORT[(sorted.at(-1) ?? 7) - 1]}`;
  }
  return sorted.map((day) => WEEKDAY_SHORT[day - 1]).join(', ');
}

/** "08:00–17:00, Mon–Fri, recipient's time zone"; start = end means all day. */
export function formatWindow(campaign: {
  windowStartMinute: number;
  windowEndMinute: number;
  sendDays: readonly number[];
  timezoneMode: 'recipient' | 'fixed';
  timeZone: string;
}): string {
  const hours =
    campaign.windowStartMinute === campaign.windowEndMinute ||
    (campaign.windowStartMinute === 0 && campaign.windowEndMinute === 1440)
      ? 'All day'
      : `${minutesToTime(campaign.windowStartMinute)}–${minutesToTime(campaign.windowEndMinute)}`;
  const zone =
    campaign.timezoneMode === 'recipient'
      ? "each recipient's time zone"
      : campaign.timeZone.replace(/_/g, ' ');
  return `${hours}, ${formatSendDays(campaign.sendDays)}, ${zone}`;
}

/** "1–3 min", "45 s–2 min", "No gap". */
export function formatGap(minSeconds: number, maxSeconds: number): string {
  const one = (s: number) =>
    s >= 60 && s % 60 === 0 ? `${s / 60} min` : s >= 60 ? `${(s / 60).toFixed(1)} min` : `${s} s`;
  if (!minSeconds && !maxSeconds) return 'No gap';
  if (minSeconds === maxSeconds) return one(minSeconds);
  return `${one(minSeconds)}–${one(maxSeconds)}`;
}

export function contactDisplayName(contact: {
  firstName: string | null;
  lastName: string | null;
  email: string;
}): string {
  const name = [contact.firstName, contact.lastName].filter(Boolean).join(' ').trim();
  return name || contact.email;
}

/** Actions open to a campaign in each status (the server refuses the rest). */
export function availableActions(status: CampaignStatus, archived: boolean) {
  return {
    launch: status === 'draft',
    edit: status === 'draft' || status === 'scheduled' || status === 'paused',
    pause: status === 'active',
    resume: status === 'paused',
    stop: status === 'active' || status === 'paused' || status === 'scheduled',
    delete: status === 'draft',
    archive: !archived && status !== 'active' && status !== 'scheduled',
    unarchive: archived,
  };
}
