import { z } from 'zod';
import { CATEGORY_SLUGS } from './categories';

/*
 * Data entry management: officers' assignments (country, category, queue, daily quota), their
 * throughput, and the sampled second review behind their quality figure.
 */

/** Where an officer's day goes: entering new records, or checking the verification queue. */
export const DATA_ENTRY_QUEUES = ['new_records', 'verification'] as const;
export type DataEntryQueue = (typeof DATA_ENTRY_QUEUES)[number];
export const DATA_ENTRY_QUEUE_LABELS: Record<DataEntryQueue, string> = {
  new_records: 'New records',
  verification: 'Verification queue',
};

export const REVIEW_OUTCOMES = ['correct', 'corrected', 'invalid'] as const;
export type ReviewOutcome = (typeof REVIEW_OUTCOMES)[number];

/** Days of throughput the management screen shows. */
export const THROUGHPUT_DAYS = 14;
export const REVIEW_SAMPLE_MAX = 20;
export const DAILY_QUOTA_MAX = 10_000;

export const DATA_ENTRY_MESSAGES = {
  outsideAssignment: (assignment: string) =>
    `You are assigned to ${assignment} only. Records outside your assignment are refused; ask an administrator to change it.`,
  notAnOfficer: 'This user is not a data entry officer.',
  notOfficersRecord: 'This record was not entered by this officer.',
} as const;

const countryCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{2}$/, 'Use a two-letter ISO country code')
  .transform((value) => value.toUpperCase());

export const dataEntryAssignmentSchema = z.object({
  countryCode: z.string().nullable(),
  category: z.string().nullable(),
  queue: z.enum(DATA_ENTRY_QUEUES),
  strict: z.boolean(),
  dailyQuota: z.number().int().nullable(),
  updatedAt: z.string().nullable(),
});
export type DataEntryAssignment = z.infer<typeof dataEntryAssignmentSchema>;

export const updateAssignmentSchema = z
  .object({
    countryCode: countryCode.nullable(),
    category: z.enum(CATEGORY_SLUGS, { message: 'Unknown category' }).nullable(),
    queue: z.enum(DATA_ENTRY_QUEUES),
    strict: z.boolean(),
    dailyQuota: z
      .number()
      .int('Enter a whole number')
      .min(1, 'A quota is at least 1 record a day')
      .max(DAILY_QUOTA_MAX, `A quota is at most ${DAILY_QUOTA_MAX.toLocaleString('en-US')} records a day`)
      .nullable(),
  })
  .refine((value) => !value.strict || value.countryCode !== null || value.category !== null, {
    message: 'A strict assignment needs a country or a category to hold the officer to.',
    path: ['strict'],
  });
export type UpdateAssignmentInput = z.input<typeof updateAssignmentSchema>;

/** The officer's own view on /data-entry: the assignment and today's count against the quota. */
export const myAssignmentSchema = dataEntryAssignmentSchema.extend({
  enteredToday: z.number().int(),
});
export type MyAssignment = z.infer<typeof myAssignmentSchema>;

export const officerQualitySchema = z.object({
  reviewed: z.number().int(),
  correct: z.number().int(),
  corrected: z.number().int(),
  invalid: z.number().int(),
  /** Share of reviewed records found correct (null until something was reviewed). */
  accuracy: z.number().nullable(),
});
export type OfficerQuality = z.infer<typeof officerQualitySchema>;

export const officerRowSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  suspended: z.boolean(),
  assignment: dataEntryAssignmentSchema,
  /** Records entered per day (the officer's time zone is unknown: UTC days), oldest first. */
  daily: z.array(z.object({ date: z.string(), entered: z.number().int(), checked: z.number().int() })),
  enteredToday: z.number().int(),
  entered14d: z.number().int(),
  totalEntered: z.number().int(),
  quality: officerQualitySchema,
});
export type OfficerRow = z.infer<typeof officerRowSchema>;

export const officerListSchema = z.object({
  generatedAt: z.string(),
  officers: z.array(officerRowSchema),
  nextCursor: z.string().nullable(),
});
export type OfficerList = z.infer<typeof officerListSchema>;

export const officerListQuerySchema = z.object({
  cursor: z.string().max(512).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});

export const sampleQuerySchema = z.object({
  size: z.coerce.number().int().min(1).max(REVIEW_SAMPLE_MAX).default(10),
});

export const sampleRecordSchema = z.object({
  id: z.string(),
  companyName: z.string(),
  contactName: z.string().nullable(),
  email: z.string(),
  phone: z.string().nullable(),
  website: z.string().nullable(),
  city: z.string().nullable(),
  countryCode: z.string(),
  category: z.string(),
  verificationStatus: z.string(),
  createdAt: z.string(),
});
export type SampleRecord = z.infer<typeof sampleRecordSchema>;
export const sampleSchema = z.object({
  officerId: z.string(),
  /** Records of this officer not reviewed yet. */
  unreviewed: z.number().int(),
  records: z.array(sampleRecordSchema),
});
export type ReviewSample = z.infer<typeof sampleSchema>;

export const reviewInputSchema = z
  .object({
    contactId: z.uuid(),
    outcome: z.enum(REVIEW_OUTCOMES),
    note: z
      .string()
      .trim()
      .max(300)
      .nullish()
      .transform((value) => value || null),
  })
  .refine((value) => value.outcome !== 'invalid' || value.note !== null, {
    message: 'Say why the record is invalid.',
    path: ['note'],
  });
export type ReviewInput = z.input<typeof reviewInputSchema>;
