/*
 * The sending engine's public surface: what other features may use of the outbox, the dispatcher and the
 * message as it is sent. Queueing itself is outbox.service.ts; the modules beside these files are its own.
 */

export { checkCampaignHealth } from './campaign-health';
export { drainOutbox, type SentStepHook, type SentStepMessage } from './dispatch';
export { composeMessageAsSent, htmlAsSent, type MessageAsSent } from './html-as-sent';
export { asEmailDocument, prepareMessageContent, prepareQueuedBody } from './message-content';
export {
  buildMailOptions,
  makeMessageId,
  resolveTrackingBaseUrl,
  unsubscribeMailtoFor,
} from './message-envelope';
export { deleteUnusedSharedBodies } from './outbox-bodies';
export { resolveRecipientTimeZone } from './recipient-time-zone';
export { allocateSenders } from './sender-allocation';
export { checkSenderBounceRate } from './sender-health';
export {
  fillSenderPlaceholders,
  hasSenderPlaceholders,
  placeholdersIntact,
  SENDER_PLACEHOLDERS,
  type SenderValues,
  senderCompanyOr,
  withSenderValues,
} from './sender-placeholders';
export { composeTestMessage, type TestMessageAccount } from './test-message';
