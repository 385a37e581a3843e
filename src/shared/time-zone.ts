import { z } from 'zod';

/*
 * One rule for every time zone a user can give (campaigns, sender accounts, reports): an IANA name the
 * runtime knows (Africa/Lagos, Europe/London, UTC). A name the runtime cannot format with is refused at
 * the door with a clear message: accepted once, it would throw later in the middle of sending, where one
 * campaign's bad setting must never stop anyone else's mail.
 */

// Region/City names, Etc/GMT+1 and bare UTC or GMT; not offsets such as "+01:00" (no daylight rules).
const IANA_NAME = /^(?:[A-Za-z][A-Za-z_-]*(?:\/[A-Za-z0-9][A-Za-z0-9_+-]*){1,2}|UTC|GMT|UCT|Zulu|Universal)$/;

const known = new Map<string, boolean>();

/** Whether this runtime knows `name` as an IANA time zone. */
export function isIanaTimeZone(name: string): boolean {
  const cached = known.get(name);
  if (cached !== undefined) return cached;
  let valid = false;
  if (name.length <= 64 && IANA_NAME.test(name)) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: name });
      valid = true;
    } catch {
      valid = false;
    }
  }
  // Bounded: the set of real zones is ~600 names; only a flood of invalid names could grow it.
  if (known.size < 2_000) known.set(name, valid);
  return valid;
}

export function timeZoneMessage(name: string): string {
  return `Unknown time zone "${name.slice(0, 64)}". Use a name like Africa/Lagos or Europe/London.`;
}

/** A time zone field: trimmed, an IANA name the runtime knows. */
export const timeZoneSchema = z
  .string()
  .trim()
  .min(1, 'Choose a time zone')
  .max(64, 'Time zone names are at most 64 characters')
  .refine(isIanaTimeZone, { error: (issue) => timeZoneMessage(String(issue.input)) });
