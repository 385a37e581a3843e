import { campaignContacts, emailEvents, listContacts } from '@server/db/schema/index';
import type { SegmentDateField, SegmentMatch, SegmentRule, SegmentTextField } from '@shared/segments';
import { and, inArray, or, type SQL, sql } from 'drizzle-orm';

/*
 * A segment's rules as one SQL condition over list_contacts. Every value is a bound parameter (drizzle's
 * `sql` template); only column names chosen from the fixed maps below are written into the text.
 * Text comparisons ignore case, as a person reading "city is Lagos" expects; a missing value is "empty",
 * so "is not" and "does not contain" include contacts without one.
 */

const TEXT_COLUMNS: Record<SegmentTextField, SQL> = {
  email: sql`${listContacts.emailNormalized}`,
  firstName: sql`${listContacts.firstName}`,
  lastName: sql`${listContacts.lastName}`,
  company: sql`${listContacts.company}`,
  jobTitle: sql`${listContacts.jobTitle}`,
  phone: sql`${listContacts.phone}`,
  website: sql`${listContacts.website}`,
  city: sql`${listContacts.city}`,
  countryCode: sql`${listContacts.countryCode}`,
};
const DATE_COLUMNS: Record<SegmentDateField, SQL> = { addedAt: sql`${listContacts.createdAt}` };

const DAY_MS = 86_400_000;

function textCondition(column: SQL, operator: string, value: unknown): SQL {
  const lowered = sql`lower(${column})`;
  switch (operator) {
    case 'equals':
      return sql`${lowered} = lower(${value as string})`;
    case 'not_equals':
      return sql`coalesce(${lowered}, '') <> lower(${value as string})`;
    // strpos, not LIKE: a % or _ the user typed is a character, not a wildcard.
    case 'contains':
      return sql`strpos(${lowered}, lower(${value as string})) > 0`;
    case 'not_contains':
      return sql`strpos(coalesce(${lowered}, ''), lower(${value as string})) = 0`;
    case 'in': {
      const values = (value as string[]).map((v) => v.toLowerCase());
      return inArray(lowered, values);
    }
    case 'is_empty':
      return sql`coalesce(btrim(${column}), '') = ''`;
    case 'is_not_empty':
      return sql`coalesce(btrim(${column}), '') <> ''`;
    default:
      throw new Error(`Unhandled text operator ${operator}`);
  }
}

/** A custom field's value, compared as a date only where it is written as one (YYYY-MM-DD…). */
function customDateCondition(column: SQL, operator: 'before' | 'after', value: string): SQL {
  const day = sql`left(${column}, 10)`;
  const isDate = sql`${column} ~ '^\\d{4}-\\d{2}-\\d{2}'`;
  return operator === 'before'
    ? sql`(${isDate} AND ${day} < ${value})`
    : sql`(${isDate} AND ${day} > ${value})`;
}

/** "Added on" is before a day (its start, UTC) or after it (from the next day on). */
function dateCondition(column: SQL, operator: string, value: unknown): SQL {
  if (operator === 'is_empty') return sql`${column} IS NULL`;
  if (operator === 'is_not_empty') return sql`${column} IS NOT NULL`;
  const start = new Date(`${value as string}T00:00:00Z`);
  return operator === 'before'
    ? sql`${column} < ${start.toISOString()}::timestamptz`
    : sql`${column} >= ${new Date(start.getTime() + DAY_MS).toISOString()}::timestamptz`;
}

/**
 * The contact (by address) opened, clicked or replied to anything of this user's since `since`: the
 * events are the user's, matched to the address through the campaign contact they were sent to.
 * Opens and clicks by machines (privacy proxies, link scanners) are not a person's engagement.
 */
function engagementCondition(
  userId: string,
  rule: Extract<SegmentRule, { type: 'engagement' }>,
  at: Date,
): SQL {
  const since = new Date(at.getTime() - rule.days * DAY_MS);
  const engaged = sql`${listContacts.emailNormalized} IN (
    SELECT lower(${campaignContacts.email}) FROM ${emailEvents}
    JOIN ${campaignContacts} ON ${campaignContacts.id} = ${emailEvents.campaignContactId}
    WHERE ${emailEvents.userId} = ${userId} AND ${campaignContacts.userId} = ${userId}
      AND ${emailEvents.type} = ${rule.event} AND NOT ${emailEvents.machine}
      AND ${emailEvents.occurredAt} >= ${since.toISOString()}::timestamptz)`;
  return rule.operator === 'in_last_days' ? engaged : sql`NOT (${engaged})`;
}

function ruleCondition(userId: string, rule: SegmentRule, at: Date): SQL {
  switch (rule.type) {
    case 'field':
      return textCondition(TEXT_COLUMNS[rule.field], rule.operator, rule.value);
    case 'date':
      return dateCondition(DATE_COLUMNS[rule.field], rule.operator, rule.value);
    case 'custom': {
      // ->> with a bound key: the field name is a parameter, never part of the SQL text.
      const column = sql`(${listContacts.customFields} ->> ${rule.field})`;
      return rule.operator === 'before' || rule.operator === 'after'
        ? customDateCondition(column, rule.operator, rule.value as string)
        : textCondition(column, rule.operator, rule.value);
    }
    case 'engagement':
      return engagementCondition(userId, rule, at);
  }
}

/** The rules joined by AND (match all) or OR (match any); no rules match everyone. */
export function segmentCondition(options: {
  userId: string;
  match: SegmentMatch;
  rules: readonly SegmentRule[];
  at: Date;
}): SQL {
  const conditions = options.rules.map((rule) => ruleCondition(options.userId, rule, options.at));
  if (conditions.length === 0) return sql`TRUE`;
  return (options.match === 'any' ? or(...conditions) : and(...conditions))!;
}
