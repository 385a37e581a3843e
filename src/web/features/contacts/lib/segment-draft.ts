import {
  CUSTOM_OPERATORS,
  DATE_OPERATORS,
  ENGAGEMENT_EVENTS,
  ENGAGEMENT_OPERATORS,
  SEGMENT_DATE_FIELDS,
  SEGMENT_FIELD_LABELS,
  SEGMENT_TEXT_FIELDS,
  type SegmentRule,
  TEXT_OPERATORS,
} from '@shared/segments';

/*
 * The segment builder's rows: what a person edits (one "what" choice, an operator, a text value) and the
 * rules the API takes. A row's `what` names the rule's kind and field together, e.g. `field:city`,
 * `custom:stage`, `engagement:opened`, so one select offers every field of the list.
 */

export interface RuleRow {
  what: string;
  operator: string;
  /** Text, a date (YYYY-MM-DD), comma-separated values for "is one of", or days for engagement. */
  value: string;
}

export interface FieldChoice {
  what: string;
  label: string;
  group: 'Contact' | 'Custom fields' | 'Engagement';
}

const ENGAGEMENT_LABELS: Record<(typeof ENGAGEMENT_EVENTS)[number], string> = {
  opened: 'Opened an email',
  clicked: 'Clicked a link',
  replied: 'Replied',
};

export function fieldChoices(customFields: readonly string[]): FieldChoice[] {
  return [
    ...SEGMENT_TEXT_FIELDS.map((f) => ({
      what: `field:${f}`,
      label: SEGMENT_FIELD_LABELS[f],
      group: 'Contact' as const,
    })),
    ...SEGMENT_DATE_FIELDS.map((f) => ({
      what: `date:${f}`,
      label: SEGMENT_FIELD_LABELS[f],
      group: 'Contact' as const,
    })),
    ...customFields.map((f) => ({ what: `custom:${f}`, label: f, group: 'Custom fields' as const })),
    ...ENGAGEMENT_EVENTS.map((e) => ({
      what: `engagement:${e}`,
      label: ENGAGEMENT_LABELS[e],
      group: 'Engagement' as const,
    })),
  ];
}

export function operatorsFor(what: string): readonly string[] {
  const kind = what.split(':')[0];
  if (kind === 'date') return DATE_OPERATORS;
  if (kind === 'custom') return CUSTOM_OPERATORS;
  if (kind === 'engagement') return ENGAGEMENT_OPERATORS;
  return TEXT_OPERATORS;
}

/** What the value input is for this row: none, a date, days, a list or text. */
export function valueKind(row: RuleRow): 'none' | 'date' | 'days' | 'list' | 'text' {
  if (row.operator === 'is_empty' || row.operator === 'is_not_empty') return 'none';
  if (row.operator === 'before' || row.operator === 'after') return 'date';
  if (row.what.startsWith('engagement:')) return 'days';
  if (row.operator === 'in') return 'list';
  return 'text';
}

export function newRow(what = 'field:city'): RuleRow {
  return { what, operator: operatorsFor(what)[0]!, value: what.startsWith('engagement:') ? '30' : '' };
}

/** A row after its field changed: the operator kept when the new field has it, the value when it still fits. */
export function withField(row: RuleRow, what: string): RuleRow {
  const operators = operatorsFor(what);
  const operator = operators.includes(row.operator) ? row.operator : operators[0]!;
  const next = { what, operator, value: row.value };
  if (valueKind(next) === valueKind(row)) return next;
  return { ...next, value: valueKind(next) === 'days' ? '30' : '' };
}

/** The rule the API takes for a row (checked by the shared schema before it is sent). */
export function toRule(row: RuleRow): SegmentRule {
  const [kind, name = ''] = row.what.split(':') as [string, string];
  if (kind === 'engagement') {
    return {
      type: 'engagement',
      event: name,
      operator: row.operator,
      days: Number(row.value),
    } as SegmentRule;
  }
  const kindOfValue = valueKind(row);
  const value =
    kindOfValue === 'none'
      ? undefined
      : kindOfValue === 'list'
        ? row.value
            .split(',')
            .map((v) => v.trim())
            .filter(Boolean)
        : row.value.trim();
  return { type: kind, field: name, operator: row.operator, value } as SegmentRule;
}

export function toRow(rule: SegmentRule): RuleRow {
  if (rule.type === 'engagement') {
    return { what: `engagement:${rule.event}`, operator: rule.operator, value: String(rule.days) };
  }
  const value = Array.isArray(rule.value) ? rule.value.join(', ') : (rule.value ?? '');
  return { what: `${rule.type}:${rule.field}`, operator: rule.operator, value };
}
