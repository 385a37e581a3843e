import { z } from 'zod';

/*
 * Segments: a list's audience narrowed by rules. One rule schema for the API, the server's SQL and the
 * builder, so what the builder offers is exactly what the server accepts.
 */

/** The list member columns a rule may test (list_contacts), by their API names. */
export const SEGMENT_TEXT_FIELDS = [
  'email',
  'firstName',
  'lastName',
  'company',
  'jobTitle',
  'phone',
  'website',
  'city',
  'countryCode',
] as const;
export type SegmentTextField = (typeof SEGMENT_TEXT_FIELDS)[number];
/** When the contact was added to the list. */
export const SEGMENT_DATE_FIELDS = ['addedAt'] as const;
export type SegmentDateField = (typeof SEGMENT_DATE_FIELDS)[number];

export const SEGMENT_FIELD_LABELS: Record<SegmentTextField | SegmentDateField, string> = {
  email: 'Email',
  firstName: 'First name',
  lastName: 'Last name',
  company: 'Company',
  jobTitle: 'Job title',
  phone: 'Phone',
  website: 'Website',
  city: 'City',
  countryCode: 'Country code',
  addedAt: 'Added on',
};

export const TEXT_OPERATORS = [
  'equals',
  'not_equals',
  'contains',
  'not_contains',
  'in',
  'is_empty',
  'is_not_empty',
] as const;
export const DATE_OPERATORS = ['before', 'after', 'is_empty', 'is_not_empty'] as const;
/** Custom field values are text; before/after compare those written as dates (YYYY-MM-DD…). */
export const CUSTOM_OPERATORS = [...TEXT_OPERATORS, 'before', 'after'] as const;
export const ENGAGEMENT_EVENTS = ['opened', 'clicked', 'replied'] as const;
export const ENGAGEMENT_OPERATORS = ['in_last_days', 'not_in_last_days'] as const;
export type SegmentOperator = (typeof CUSTOM_OPERATORS)[number];

export const OPERATOR_LABELS: Record<SegmentOperator | (typeof ENGAGEMENT_OPERATORS)[number], string> = {
  equals: 'is',
  not_equals: 'is not',
  contains: 'contains',
  not_contains: 'does not contain',
  in: 'is one of',
  is_empty: 'is empty',
  is_not_empty: 'is not empty',
  before: 'is before',
  after: 'is after',
  in_last_days: 'in the last',
  not_in_last_days: 'not in the last',
};

export const SEGMENT_RULES_MAX = 20;
export const SEGMENT_IN_VALUES_MAX = 100;
export const ENGAGEMENT_DAYS_MAX = 365;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const text = z.string().trim().min(1, 'Enter a value').max(200, 'At most 200 characters');
const date = z
  .string()
  .regex(ISO_DATE, 'Enter a date as YYYY-MM-DD')
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), 'Enter a real date');
const list = z
  .array(text)
  .min(1, 'Enter at least one value')
  .max(SEGMENT_IN_VALUES_MAX, `At most ${SEGMENT_IN_VALUES_MAX} values`);

/** Which value an operator takes; `value` is checked against it in the rule's refinement. */
function valueFor(operator: SegmentOperator): z.ZodType | null {
  if (operator === 'is_empty' || operator === 'is_not_empty') return null;
  if (operator === 'in') return list;
  if (operator === 'before' || operator === 'after') return date;
  return text;
}

/** A field rule's value must be what its operator takes (and absent for is empty / is not empty). */
function checkValue(rule: { operator: SegmentOperator; value?: unknown }, ctx: z.RefinementCtx): void {
  const expected = valueFor(rule.operator);
  if (expected === null) {
    if (rule.value !== undefined && rule.value !== null && rule.value !== '') {
      ctx.addIssue({ code: 'custom', path: ['value'], message: 'This operator takes no value' });
    }
    return;
  }
  const parsed = expected.safeParse(rule.value);
  if (!parsed.success) {
    ctx.addIssue({
      code: 'custom',
      path: ['value'],
      message:
        rule.operator === 'in' && !Array.isArray(rule.value)
          ? 'Enter a list of values'
          : (parsed.error.issues[0]?.message ?? 'Invalid value'),
    });
  }
}

const value = z.union([z.string(), z.array(z.string())]).nullish();

const fieldRule = z
  .object({
    type: z.literal('field'),
    field: z.enum(SEGMENT_TEXT_FIELDS, 'Unknown field'),
    operator: z.enum(TEXT_OPERATORS, 'This operator does not apply to this field'),
    value,
  })
  .strict()
  .superRefine(checkValue);
const dateRule = z
  .object({
    type: z.literal('date'),
    field: z.enum(SEGMENT_DATE_FIELDS, 'Unknown field'),
    operator: z.enum(DATE_OPERATORS, 'This operator does not apply to this field'),
    value,
  })
  .strict()
  .superRefine(checkValue);
const customRule = z
  .object({
    type: z.literal('custom'),
    /** The name of one of the list's custom fields (checked against the list by the server). */
    field: z.string().trim().min(1, 'Choose a field').max(40),
    operator: z.enum(CUSTOM_OPERATORS, 'This operator does not apply to this field'),
    value,
  })
  .strict()
  .superRefine(checkValue);
const engagementRule = z
  .object({
    type: z.literal('engagement'),
    event: z.enum(ENGAGEMENT_EVENTS, 'Choose opened, clicked or replied'),
    operator: z.enum(ENGAGEMENT_OPERATORS, 'Choose "in the last" or "not in the last"'),
    days: z
      .number('Enter a number of days')
      .int('Enter a whole number of days')
      .min(1, 'At least 1 day')
      .max(ENGAGEMENT_DAYS_MAX, `At most ${ENGAGEMENT_DAYS_MAX} days`),
  })
  .strict();

export const segmentRuleSchema = z.discriminatedUnion(
  'type',
  [fieldRule, dateRule, customRule, engagementRule],
  {
    error: 'Choose a kind of rule: field, date, custom or engagement',
  },
);
export type SegmentRule = z.infer<typeof segmentRuleSchema>;
export const SEGMENT_MATCHES = ['all', 'any'] as const;
export type SegmentMatch = (typeof SEGMENT_MATCHES)[number];

export const segmentRulesSchema = z
  .array(segmentRuleSchema)
  .max(SEGMENT_RULES_MAX, `At most ${SEGMENT_RULES_MAX} rules`);

const definition = {
  match: z.enum(SEGMENT_MATCHES, 'Match all or any of the rules').default('all'),
  rules: segmentRulesSchema.min(1, 'Add at least one rule'),
};

export const segmentCreateSchema = z
  .object({
    listId: z.uuid('Choose a list'),
    name: z.string().trim().min(1, 'Give the segment a name').max(100),
    ...definition,
  })
  .strict();
export type SegmentCreateInput = z.input<typeof segmentCreateSchema>;
export const segmentUpdateSchema = z
  .object({
    name: z.string().trim().min(1, 'Give the segment a name').max(100).optional(),
    match: z.enum(SEGMENT_MATCHES, 'Match all or any of the rules').optional(),
    rules: definition.rules.optional(),
  })
  .strict();
/** The builder's live count: rules not saved yet (none: the whole list). */
export const segmentCountSchema = z
  .object({ listId: z.uuid('Choose a list'), match: definition.match, rules: segmentRulesSchema })
  .strict();
export const segmentListQuerySchema = z.object({ listId: z.uuid().optional() });

export const segmentSchema = z.object({
  id: z.string(),
  listId: z.string(),
  name: z.string(),
  match: z.enum(SEGMENT_MATCHES),
  rules: z.array(segmentRuleSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Segment = z.infer<typeof segmentSchema>;
/** One segment with its audience now: who a send to it would reach. */
export const segmentWithCountSchema = segmentSchema.extend({ count: z.number().int() });
export type SegmentWithCount = z.infer<typeof segmentWithCountSchema>;
export const segmentsSchema = z.object({ segments: z.array(segmentSchema) });
export const segmentCountResultSchema = z.object({ count: z.number().int() });

export const SEGMENT_MESSAGES = {
  notFound: 'Segment not found',
  listNotFound: 'List not found',
  duplicateName: 'This list already has a segment with this name',
  unknownCustomField: 'This list has no such custom field',
  notInAudience: 'A segment narrows one of the chosen lists: choose its list too',
  oneSegmentPerList: 'Choose at most one segment per list',
  inUse: (names: string[]) =>
    `This segment is the audience of ${names.join(', ')}. Choose another audience there first, or wait until it has been sent.`,
} as const;
