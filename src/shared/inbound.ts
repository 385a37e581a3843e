import { z } from 'zod';

/*
 * Mail that comes back to a sender account (replies, out-of-office, bounces, complaints, unsubscribe
 * requests) and the development mailbox's simulation of it.
 */

export const INBOUND_KINDS = [
  'reply',
  'out_of_office',
  'bounce_hard',
  'bounce_soft',
  'complaint',
  'unsubscribe_request',
  'other',
] as const;
export type InboundKind = (typeof INBOUND_KINDS)[number];

/** What a super admin can make a caught message "receive" in the development mailbox. */
export const SIMULATED_INBOUND_KINDS = ['reply', 'bounce', 'out_of_office', 'unsubscribe'] as const;
export type SimulatedInboundKind = (typeof SIMULATED_INBOUND_KINDS)[number];

export const simulateInboundInputSchema = z.object({
  kind: z.enum(SIMULATED_INBOUND_KINDS, {
    error: `Choose what to simulate: ${SIMULATED_INBOUND_KINDS.join(', ')}`,
  }),
});

export const inboundResultSchema = z.object({
  kind: z.enum(INBOUND_KINDS),
  /** Whether the mail was matched to one of our sent messages (and so had effects). */
  matched: z.boolean(),
  detail: z.string(),
});
export type InboundResult = z.infer<typeof inboundResultSchema>;

export const INBOUND_MESSAGES = {
  unmatched: 'No campaign message matches this mail',
  duplicate: 'This mail was already processed',
  unreadable: 'This mail could not be read',
  notACampaignMessage: 'This message was not sent by a campaign, so nothing can answer it',
} as const;
