import { z } from 'zod';

/*
 * A "test run" of a campaign's sequence: every step, rendered for one contact of the audience, sent to
 * the user's own address through the campaign's real sender account, a minute apart, so the whole
 * sequence (threaded follow-ups included) can be seen end to end before launch.
 */

export const TEST_RUN_STEP_STATES = ['queued', 'sending', 'sent', 'failed'] as const;
export type TestRunStepState = (typeof TEST_RUN_STEP_STATES)[number];

/** Test runs one user may start in an hour (each sends one email per step). */
export const TEST_RUNS_PER_HOUR = 5;
/** Seconds between two steps of a test run. */
export const TEST_RUN_STEP_GAP_SECONDS = 60;

export const testRunRequestSchema = z.object({
  /** One of the user's own addresses (login email or a sender account's); the login email when left out. */
  to: z.string().trim().toLowerCase().pipe(z.email('Enter a valid email address')).optional(),
  /** Render for this contact of the audience (default: the first contact, else the sample contact). */
  email: z.string().trim().toLowerCase().max(254).optional(),
  campaignContactId: z.uuid('Contact not found').optional(),
});
export type TestRunRequest = z.input<typeof testRunRequestSchema>;

export const testRunStepSchema = z.object({
  position: z.number().int(),
  subject: z.string(),
  threaded: z.boolean(),
  state: z.enum(TEST_RUN_STEP_STATES),
  sendAfter: z.string(),
  sentAt: z.string().nullable(),
  error: z.string().nullable(),
});

export const testRunSchema = z.object({
  id: z.string(),
  campaignId: z.string(),
  to: z.string(),
  /** The contact the steps were rendered for. */
  contactEmail: z.string(),
  sample: z.boolean(),
  senderEmail: z.string().nullable(),
  createdAt: z.string(),
  steps: z.array(testRunStepSchema),
  /**
   * Only when the run starts: what the steps hold that the launch would refuse or send wrong (merge tags
   * nobody fills, placeholders), each named with its step. The run is sent anyway.
   */
  warnings: z.array(z.string()).optional(),
});
export type TestRun = z.infer<typeof testRunSchema>;

export const latestTestRunSchema = z.object({ run: testRunSchema.nullable() });

/** Where a test run may go: the user's login email and their sender accounts' addresses. */
export const testRunAddressesSchema = z.object({ addresses: z.array(z.string()) });
export type TestRunAddresses = z.infer<typeof testRunAddressesSchema>;
