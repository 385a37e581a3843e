import type { CampaignKind } from '../../../shared/sending';
import { asEmailDocument, prepareMessageContent } from './message-content';
import { buildMailOptions } from './message-envelope';

/*
 * The HTML part of a message as it will leave, without queueing it: the same steps as queueMessages
 * (prepareMessageContent: tracked links, the open pixel; asEmailDocument) and composeForAccount
 * (buildMailOptions: the footer). The pre-launch check scores this, so its spam score counts what the
 * recipient's filter sees — the pixel most of all, which SpamAssassin weighs by the HTML's raw length.
 */

/** As long as a real outbox token (16 random bytes, base64url), so lengths match. */
const SAMPLE_TOKEN = 'SampleTokenForLength0A';

export function htmlAsSent(input: {
  html: string;
  trackOpens: boolean;
  trackClicks: boolean;
  trackingBaseUrl: string;
  /** The sending account's name and postal address (the footer); a typical one when none is chosen yet. */
  senderName?: string | null;
  postalAddress?: string | null;
  fromEmail?: string | null;
  kind?: CampaignKind;
}): string {
  let content: ReturnType<typeof prepareMessageContent>;
  try {
    content = prepareMessageContent({
      html: input.html,
      token: SAMPLE_TOKEN,
      trackingBaseUrl: input.trackingBaseUrl,
      trackOpens: input.trackOpens,
      trackClicks: input.trackClicks,
    });
  } catch {
    // A body the send would refuse (too large) is reported elsewhere; score what was written.
    return input.html;
  }
  const html = asEmailDocument(content.html);
  const fromEmail = input.fromEmail?.trim() || 'sender@example.com';
  try {
    const mail = buildMailOptions({
      messageId: `${SAMPLE_TOKEN}@example.com`,
      token: SAMPLE_TOKEN,
      trackingBaseUrl: input.trackingBaseUrl,
      from: { name: input.senderName?.trim() || 'Sender Name', email: fromEmail },
      replyTo: null,
      to: { name: null, email: 'recipient@example.com' },
      subject: 'Subject',
      html,
      text: content.text,
      postalAddress: input.postalAddress?.trim() || '12 Allen Avenue, Ikeja, Lagos',
      senderName: input.senderName?.trim() || 'Sender Name',
      unsubscribeMailto: null,
      kind: input.kind ?? 'campaign',
    });
    return String(mail.html);
  } catch {
    // An odd stored address must not break the check: the body without the footer is close enough.
    return html;
  }
}
