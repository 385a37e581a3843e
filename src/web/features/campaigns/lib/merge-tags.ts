import { CONTACT_MERGE_TAGS, mergeTagSnippet, SENDER_MERGE_TAGS } from '@shared/personalize';

/*
 * The merge tags the step editor offers ([PERS] renders them with LiquidJS): the contact's and the
 * sender's fields from the shared list, then the custom fields of the audience's lists
 * (`{{ fields.industry }}`).
 */

export interface MergeTag {
  label: string;
  /** What is inserted. */
  tag: string;
  group: 'Contact' | 'Sender' | 'Custom fields';
}

/** Fields that are often empty get a fallback, so a missing value never leaves a gap. */
const FALLBACKS: Record<string, string> = {
  firstName: 'there',
  company: 'your company',
  countryAdjective: 'local',
  // A sender account need not name a company.
  senderCompany: 'our team',
};

export const BUILT_IN_MERGE_TAGS: readonly MergeTag[] = [
  ...CONTACT_MERGE_TAGS.map(
    (t): MergeTag => ({ label: t.label, tag: mergeTagSnippet(t.name, FALLBACKS[t.name]), group: 'Contact' }),
  ),
  ...SENDER_MERGE_TAGS.map(
    (t): MergeTag => ({ label: t.label, tag: mergeTagSnippet(t.name, FALLBACKS[t.name]), group: 'Sender' }),
  ),
];

/** Custom field names as list imports keep them (`industry`, `deal_size`). */
const FIELD_NAME = /^[a-z][a-z0-9_]{0,39}$/;

/** The full menu: built-in tags and each distinct, well-formed custom field once, sorted by name. */
export function buildMergeTags(customFields: readonly string[]): MergeTag[] {
  const fields = [...new Set(customFields.filter((name) => FIELD_NAME.test(name)))].sort();
  return [
    ...BUILT_IN_MERGE_TAGS,
    ...fields.map((name): MergeTag => ({ label: name, tag: `{{ fields.${name} }}`, group: 'Custom fields' })),
  ];
}

/** Inserts `text` into `value` over the selection [start, end); answers the new value and caret. */
export function insertAt(
  value: string,
  text: string,
  start: number,
  end: number,
): { value: string; caret: number } {
  const from = Math.max(0, Math.min(start, value.length));
  const to = Math.max(from, Math.min(end, value.length));
  return { value: value.slice(0, from) + text + value.slice(to), caret: from + text.length };
}
