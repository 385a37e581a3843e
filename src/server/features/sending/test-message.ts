import { randomBytes } from 'node:crypto';
import type { CampaignKind } from '@shared/sending';
import { asEmailDocument, prepareMessageContent } from './message-content';
import {
  buildMailOptions,
  makeMessageId,
  resolveTrackingBaseUrl,
  unsubscribeMailtoFor,
} from './message-envelope';
import { withSenderValues } from './sender-placeholders';

/*
 * A test copy composed the way a recipient's copy is: the body as queueing prepares it (the text part
 * from the HTML, the fragment made a document), the sender's values filled as dispatch fills them, and
 * the envelope dispatch builds (footer with the postal address and unsubscribe link, List-Unsubscribe
 * and List-Unsubscribe-Post). Only tracking is off (a test must not count as an open or click) and the
 * token is a throwaway, so its unsubscribe link unsubscribes nobody.
 */

export interface TestMessageAccount {
  fromName: string;
  fromEmail: string;
  replyTo: string | null;
  /** Fills `{{ senderCompany }}`; absent or null: no company. */
  company?: string | null;
  postalAddress: string;
  imapEnabled: boolean;
  isDevMailbox: boolean;
}

export function composeTestMessage(input: {
  appUrl: string;
  trackingDomain?: string | null;
  account: TestMessageAccount;
  to: { name: string | null; email: string };
  /** Already personalised for the contact the test stands for. */
  subject: string;
  html: string;
  text?: string | null;
  kind: CampaignKind;
  inReplyTo?: string | null;
  references?: readonly string[] | null;
}) {
  const token = `test-${randomBytes(12).toString('base64url')}`;
  const trackingBaseUrl = resolveTrackingBaseUrl({
    appUrl: input.appUrl,
    trackingDomain: input.trackingDomain ?? null,
  });
  const prepared = prepareMessageContent({
    html: input.html,
    text: input.text ?? null,
    token,
    trackingBaseUrl,
    trackOpens: false,
    trackClicks: false,
  });
  const content = withSenderValues(
    { subject: input.subject, html: asEmailDocument(prepared.html), text: prepared.text },
    {
      fromName: input.account.fromName,
      fromEmail: input.account.fromEmail,
      company: input.account.company,
    },
  );
  const messageId = makeMessageId(input.account.fromEmail);
  const mail = buildMailOptions({
    messageId,
    token,
    trackingBaseUrl,
    from: { name: input.account.fromName, email: input.account.fromEmail },
    replyTo: input.account.replyTo,
    to: input.to,
    subject: content.subject,
    html: content.html,
    text: content.text ?? '',
    postalAddress: input.account.postalAddress,
    senderName: input.account.fromName,
    unsubscribeMailto: unsubscribeMailtoFor(input.account, token),
    kind: input.kind,
    inReplyTo: input.inReplyTo ?? null,
    references: input.references ?? null,
  });
  return { mail, messageId };
}
