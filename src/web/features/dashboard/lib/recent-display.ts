import type { AVAILABLE_CONTACTS_SCOPES } from '@shared/campaign-stats';

export type BadgeTone = 'success' | 'warning' | 'secondary' | 'outline';

export interface StatusBadge {
  label: string;
  tone: BadgeTone;
}

function humanise(value: string): string {
  const spaced = value.replace(/[_-]+/g, ' ').trim();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** A recent campaign's badge: completed, active, and the other statuses by name. */
export function campaignStatusBadge(status: string): StatusBadge {
  if (status === 'completed') return { label: 'Completed', tone: 'secondary' };
  if (status === 'active') return { label: 'Active', tone: 'success' };
  if (status === 'scheduled') return { label: 'Scheduled', tone: 'warning' };
  if (status === 'paused') return { label: 'Paused', tone: 'warning' };
  return { label: humanise(status || 'draft'), tone: 'outline' };
}

/** A recent newsletter's badge: sent, scheduled; anything else is shown as draft (sending reads as sent). */
export function newsletterStatusBadge(status: string): StatusBadge {
  if (status === 'sent' || status === 'sending')
    return { label: status === 'sent' ? 'Sent' : 'Sending', tone: 'success' };
  if (status === 'scheduled') return { label: 'Scheduled', tone: 'warning' };
  return { label: 'Draft', tone: 'outline' };
}

/** The line under the Available Contacts number. */
export function availableContactsNote(
  scope: (typeof AVAILABLE_CONTACTS_SCOPES)[number],
  within?: { countries: string[]; categories: string[] } | null,
): string {
  if (scope === 'plan_scope') {
    if (within && within.countries.length > 0 && within.categories.length > 0) {
      return `${within.categories.join(', ')} in ${within.countries.join(', ')}: what your plan lets you use`;
    }
    return "In your plan's country and category";
  }
  if (scope === 'choose_scope') return 'Choose one country and category to start';
  return 'Businesses in every country';
}

/** "1 recipient", "2,400 recipients". */
export function recipientsLabel(count: number): string {
  return `${new Intl.NumberFormat('en-NG').format(count)} ${count === 1 ? 'recipient' : 'recipients'}`;
}
