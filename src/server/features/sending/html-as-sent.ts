import type { BodyFormat, CampaignKind } from '@shared/sending';
import { composeOutgoing, type OutgoingAccount } from './compose-outgoing';
import { type PixelPlacement, prepareQueuedBody } from './message-content';

/*
 * A message as it will leave, without queueing it: the same two halves as the real send — the queue-time
 * body (prepareQueuedBody: body format, tracked links, the open pixel, the document wrapper, the text
 * part), then the send-time envelope (composeOutgoing: sender values, footer, headers, RFC 5322 bytes).
 * The pre-launch check scores these bytes, so its spam score counts what the recipient's filter sees.
 */

/** As long as a real outbox token (16 random bytes, base64url), so lengths match. */
const SAMPLE_TOKEN = 'SampleTokenForLength0A';

const SAMPLE_ACCOUNT: OutgoingAccount = {
  fromName: 'Sender Name',
  fromEmail: 'sender@example.com',
  replyTo: null,
  company: null,
  postalAddress: '12 Allen Avenue, Ikeja, Lagos',
  imapEnabled: false,
  isDevMailbox: false,
};

export interface MessageAsSent {
  /** The RFC 5322 message, CRLF line ends, as handed to the SMTP connection. */
  raw: Buffer;
  /** The HTML part ('' when the message has none) and the text part, decoded. */
  html: string;
  text: string;
  /** Whether the open pixel is in it (open tracking on and the pixel free of spam points). */
  pixel: boolean;
}

export function composeMessageAsSent(input: {
  /** Personalised for the contact the message stands for (merge tags rendered). */
  subject: string;
  html: string;
  text?: string | null;
  trackOpens: boolean;
  trackClicks: boolean;
  trackingBaseUrl: string;
  bodyFormat?: BodyFormat;
  kind?: CampaignKind;
  /** The sending account; a typical one when none is chosen yet. */
  account?: Partial<OutgoingAccount> | null;
  to?: { name: string | null; email: string };
  pixel?: PixelPlacement;
  token?: string;
}): MessageAsSent {
  const token = input.token ?? SAMPLE_TOKEN;
  const body = prepareQueuedBody({
    html: input.html,
    text: input.text ?? null,
    token,
    trackingBaseUrl: input.trackingBaseUrl,
    trackOpens: input.trackOpens,
    trackClicks: input.trackClicks,
    bodyFormat: input.bodyFormat,
    kind: input.kind,
    pixel: input.pixel,
  });
  const given = input.account ?? {};
  const account: OutgoingAccount = {
    fromName: given.fromName?.trim() || SAMPLE_ACCOUNT.fromName,
    fromEmail: given.fromEmail?.trim() || SAMPLE_ACCOUNT.fromEmail,
    replyTo: given.replyTo ?? null,
    company: given.company ?? null,
    postalAddress: given.postalAddress?.trim() || SAMPLE_ACCOUNT.postalAddress,
    imapEnabled: given.imapEnabled ?? false,
    isDevMailbox: given.isDevMailbox ?? false,
  };
  const domain = account.fromEmail.slice(account.fromEmail.lastIndexOf('@') + 1);
  const { mail, raw } = composeOutgoing({
    content: { subject: input.subject, html: body.html, text: body.text },
    account,
    messageId: `${token}@${/^[A-Za-z0-9.-]+$/.test(domain) ? domain : 'example.com'}`,
    token,
    trackingBaseUrl: input.trackingBaseUrl,
    to: input.to ?? { name: null, email: 'recipient@example.com' },
    kind: input.kind ?? 'campaign',
  });
  return { raw, html: mail.html, text: mail.text, pixel: body.pixel };
}

/** The HTML part alone, as composeMessageAsSent builds it; the body as written if the send would refuse it. */
export function htmlAsSent(input: {
  html: string;
  trackOpens: boolean;
  trackClicks: boolean;
  trackingBaseUrl: string;
  senderName?: string | null;
  postalAddress?: string | null;
  fromEmail?: string | null;
  kind?: CampaignKind;
  pixel?: PixelPlacement;
}): string {
  try {
    return composeMessageAsSent({
      subject: 'Subject',
      html: input.html,
      trackOpens: input.trackOpens,
      trackClicks: input.trackClicks,
      trackingBaseUrl: input.trackingBaseUrl,
      kind: input.kind,
      pixel: input.pixel,
      account: {
        fromName: input.senderName ?? undefined,
        fromEmail: input.fromEmail ?? undefined,
        postalAddress: input.postalAddress ?? undefined,
      },
    }).html;
  } catch {
    // A body the send would refuse (too large, an odd stored address) is reported elsewhere.
    return input.html;
  }
}
