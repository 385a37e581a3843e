import type { AuditEntry } from '@shared/admin';
import { PLAN_NAMES } from '@shared/plans';
import { ROLE_LABELS } from '@shared/roles';

/** Ids that read better by their display name in a summary (`super_admin` → "Super Admin"). */
const VALUE_LABELS: Record<string, Record<string, string>> = {
  role: ROLE_LABELS,
  plan: PLAN_NAMES,
  subscriptionPlan: PLAN_NAMES,
};

/** `user.suspend` → "User suspend", `admin.user.set_role` → "Admin user set role". */
export function formatAuditAction(action: string): string {
  const words = action
    .replace(/[._:-]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .trim()
    .toLowerCase();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : action;
}

function formatValue(value: unknown, labels?: Record<string, string>): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') {
    const text = labels?.[value] ?? value;
    return text.length > 60 ? `${text.slice(0, 57)}…` : text;
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.length} item${value.length === 1 ? '' : 's'}]`;
  if (typeof value === 'object') {
    const keys = Object.keys(value);
    // A {from, to} pair is how changes are usually recorded; show it as a transition.
    if (keys.length === 2 && 'from' in value && 'to' in value) {
      const change = value as { from: unknown; to: unknown };
      return `${formatValue(change.from, labels)} → ${formatValue(change.to, labels)}`;
    }
    const json = JSON.stringify(value);
    return json.length > 60 ? `${json.slice(0, 57)}…` : json;
  }
  return String(value);
}

function humaniseKey(key: string): string {
  const spaced = key
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** Detail keys already shown as the entry's target. */
export const TARGET_DETAIL_KEYS = ['email', 'targetEmail'] as const;

/**
 * One readable line from the free-form `details` JSON: "Reason: spam · Role: user → super_admin". Keys in
 * `omit` (by default those shown as the target) are left out.
 */
export function summariseAuditDetails(
  details: AuditEntry['details'],
  { maxParts = 3, omit = TARGET_DETAIL_KEYS }: { maxParts?: number; omit?: readonly string[] } = {},
): string {
  const entries = Object.entries(details ?? {}).filter(
    ([key, value]) => value !== undefined && !omit.includes(key),
  );
  if (entries.length === 0) return '—';
  const parts = entries
    .slice(0, maxParts)
    .map(([key, value]) => `${humaniseKey(key)}: ${formatValue(value, VALUE_LABELS[key])}`);
  const rest = entries.length - maxParts;
  if (rest > 0) parts.push(`+${rest} more`);
  return parts.join(' · ');
}

/** "user 3f2a…" when no friendlier name is known. */
export function formatAuditTarget(entry: Pick<AuditEntry, 'targetType' | 'targetId' | 'details'>): string {
  const details = entry.details ?? {};
  const email = typeof details.email === 'string' ? details.email : null;
  const targetEmail = typeof details.targetEmail === 'string' ? details.targetEmail : null;
  const name = targetEmail ?? email;
  const type = humaniseKey(entry.targetType);
  if (name) return `${type} ${name}`;
  if (!entry.targetId) return type;
  const id = entry.targetId.length > 10 ? `${entry.targetId.slice(0, 8)}…` : entry.targetId;
  return `${type} ${id}`;
}
