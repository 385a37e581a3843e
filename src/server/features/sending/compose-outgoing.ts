import type { CampaignKind } from '@shared/sending';
import { buildMailOptions, unsubscribeMailtoFor } from './message-envelope';
import { composeRawMessage } from './raw-message';
import { withSenderValues } from './sender-placeholders';

/*
 * The send-time half of composing a message, shared by the dispatcher (deliver.ts composeForAccount) and
 * the pre-launch check (html-as-sent.ts composeMessageAsSent): the sender's values filled in, the envelope,
 * footer and List-Unsubscribe headers built for the account, and the RFC 5322 bytes that leave.
 */

export interface OutgoingAccount {
  fromName: string;
  fromEmail: string;
  replyTo: string | null;
  company?: string | null;
  postalAddress: string;
  imapEnabled: boolean;
  isDevMailbox: boolean;
}

export interface OutgoingInput {
  /** The stored body: queued by prepareQueuedBody (html empty for a plain-text-only message). */
  content: { subject: string; html: string; text: string };
  account: OutgoingAccount;
  messageId: string;
  token: string;
  trackingBaseUrl: string;
  to: { name: string | null; email: string };
  kind: CampaignKind;
  inReplyTo?: string | null;
  references?: readonly string[] | null;
}

export function composeOutgoing(input: OutgoingInput) {
  const { account } = input;
  const content = withSenderValues(input.content, {
    fromName: account.fromName,
    fromEmail: account.fromEmail,
    company: account.company,
  });
  const mail = outgoingMailOptions(input, {
    subject: content.subject,
    html: content.html,
    text: content.text ?? '',
  });
  return { mail, raw: composeRawMessage(mail) };
}

/**
 * The message's envelope, headers and parts for the account, from content whose sender values are filled
 * in. shared-body-parts.ts passes empty parts: it writes its own, encoded once per body and account.
 */
export function outgoingMailOptions(
  input: Omit<OutgoingInput, 'content'>,
  content: { subject: string; html: string; text: string },
) {
  const { account } = input;
  return buildMailOptions({
    messageId: input.messageId,
    token: input.token,
    trackingBaseUrl: input.trackingBaseUrl,
    from: { name: account.fromName, email: account.fromEmail },
    replyTo: account.replyTo,
    to: input.to,
    subject: content.subject,
    html: content.html,
    text: content.text,
    postalAddress: account.postalAddress,
    senderName: account.fromName,
    unsubscribeMailto: unsubscribeMailtoFor(account, input.token),
    kind: input.kind,
    inReplyTo: input.inReplyTo ?? null,
    references: input.references ?? null,
  });
}
