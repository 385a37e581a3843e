import type { InboundKind } from '@shared/inbound';
import type { AddressObject, ParsedMail } from 'mailparser';
import {
  extractMessageIds,
  isReport,
  readBounceText,
  readDeliveryReport,
  readFeedbackReport,
} from './bounce-report';
import { parseMimeTree } from './mime-parts';
import { parseReturnDate } from './return-date';

/*
 * What a message that landed in a sender account's mailbox is: a person's reply, an out-of-office,
 * a bounce (hard or soft), a spam complaint, a request to be removed, or something else. Pure: the
 * caller parses (mailparser) and decides what to do with the answer.
 */

export type { InboundKind };

export interface InboundClassification {
  kind: InboundKind;
  /** Message-IDs this mail refers to, most telling first, without angle brackets. */
  referencedMessageIds: string[];
  /** The address a bounce or complaint is about. */
  bouncedRecipient: string | null;
  /** Enhanced status code of a bounce, e.g. 5.1.1. */
  statusCode: string | null;
  diagnostic: string | null;
  /** Out of office: the first day back (a calendar date, midnight UTC), when one could be read. */
  returnDate: Date | null;
  /** A List-Unsubscribe mailto's subject carries the message's tracking token: "unsubscribe <token>". */
  unsubscribeToken: string | null;
}

const MAX_REFERENCES = 50;

const DAEMON_LOCAL_PARTS = new Set(['mailer-daemon', 'mailerdaemon', 'mail-daemon', 'postmaster', 'mdaemon']);
const DAEMON_NAMES = /mail delivery (?:subsystem|system|service)|mailer-daemon|postmaster/i;
const BOUNCE_SUBJECT =
  /^\s*(?:undeliverable|undelivered mail|undeliverable mail|mail delivery (?:failed|failure)|delivery status notification \((?:failure|delay)\)|delivery (?:failure|failed|has failed|delayed|notification: delivery has failed)|failure notice|returned mail|mail system error|message not delivered|could not send message|delayed mail|warning: could not send|(?:message )?non remis|échec de (?:la )?(?:remise|distribution)|unzustellbar|notificación de estado de entrega)/i;

/** Subjects mail programs give automatic absence replies. Anchored: "Re: Automatic reply: …" is a person. */
const ABSENCE_SUBJECT =
  /^\s*(?:automatic reply|auto(?:matic)?[- ]?(?:reply|response)|autoreply|auto:|out of (?:the )?office|ooo\b|r[ée]ponse automatique|absence|absent|abwesenheit|respuesta autom[aá]tica|risposta automatica|on leave|on (?:annual )?leave|away from (?:the )?office|on vacation|on holiday|en cong[ée]|resposta autom[aá]tica|aus[eê]ncia|ausente|fora do escrit[oó]rio|f[ée]rias|jibu la (?:kiotomatiki|moja kwa moja)|nje ya ofisi|likizo|رد تلقائي|خارج المكتب|إجازة|i no dey (?:office|town))/i;
const ABSENCE_TEXT =
  /out of (?:the )?office|on (?:annual |sick |maternity |paternity |study |public )?leave|on (?:vacation|holiday)|away from (?:the |my )?(?:office|desk)|limited access to (?:my )?e-?mail|(?:will|shall) be back|be back (?:on|in)|returning (?:on|to)|absente? du bureau|en cong[ée]|en vacances|de retour le|serai de retour|hors du bureau|fora do escrit[oó]rio|estarei (?:ausente|fora|de volta)|de f[ée]rias|retorno (?:no dia|em|a)|regresso (?:a|no dia)|nje ya ofisi|niko likizo|likizoni|nitarudi|sipo ofisini|خارج المكتب|في إجازة|سأعود|i no dey (?:office|town|around)|i go (?:come )?back (?:on|for)|i dey on leave/i;

/** A first line (or subject) that only asks to be taken off the list, in English, French or Pidgin. */
const UNSUBSCRIBE_LINE =
  /^(?:(?:please|pls|plz|kindly|abeg)[ ,]+)?(?:unsubscribe(?: me)?|remove me|take me off|stop(?: (?:sending|emailing|mailing))?(?: me)?(?: emails?)?|opt[ -]?out|d[ée]sabonnez[- ]moi|d[ée]sinscri(?:vez[- ]moi|re)|retirez[- ]moi|comot me|no send me again)(?: (?:from|off) (?:your|this|the) (?:mailing |email )?(?:list|emails?))?(?:[ ,]+(?:please|pls|thanks|thank you|merci|abeg))?[ .!]*$/i;
const UNSUBSCRIBE_TOKEN_SUBJECT = /^\s*unsubscribe\s+([A-Za-z0-9_-]{10,128})\s*$/i;
const REPLY_PREFIX = /^\s*(?:re|aw|sv|antw|r[ée]f|rif|odp|vs|tr|fwd?)\s*(?:\[\d+\])?\s*:\s*/i;

/** Where the quoted conversation starts in a reply's text. */
const QUOTE_HEADERS = [
  /^on\b.{0,200}\bwrote:\s*$/i,
  /^le\b.{0,200}\ba [ée]crit\s*:\s*$/i,
  /^-{2,}\s*(?:original message|message d'origine|forwarded message|message transf[ée]r[ée])\s*-{2,}/i,
  /^_{8,}\s*$/,
  /^(?:from|de)\s*:\s.+$/i,
];

export function classifyInbound(options: {
  parsed: ParsedMail;
  raw: Buffer | string;
  /** When the message carries no usable Date header, return dates are read relative to this. */
  receivedAt?: Date;
}): InboundClassification {
  const { parsed } = options;
  const root = parseMimeTree(options.raw);
  const header = (name: string) => root.headers.get(name);
  const subject = (parsed.subject ?? '').trim();
  const threadIds = [
    ...extractMessageIds(parsed.inReplyTo),
    ...extractMessageIds(parsed.references).reverse(),
  ];
  const base = (kind: InboundKind, referenced: string[] = []): InboundClassification => ({
    kind,
    referencedMessageIds: dedupe([...referenced, ...threadIds]).slice(0, MAX_REFERENCES),
    bouncedRecipient: null,
    statusCode: null,
    diagnostic: null,
    returnDate: null,
    unsubscribeToken: null,
  });

  if (isReport(root, 'feedback-report')) {
    const complaint = readFeedbackReport(root);
    if (complaint) {
      return {
        ...base(complaint.isComplaint ? 'complaint' : 'other', complaint.originalMessageIds),
        bouncedRecipient: complaint.recipient,
        diagnostic: `Feedback type: ${complaint.feedbackType}`,
      };
    }
  }

  const ownAddresses = addresses(parsed.to);
  const deliveryReport = isReport(root, 'delivery-status') ? readDeliveryReport(root) : null;
  const bounce =
    deliveryReport ??
    (looksLikeBounce(parsed, subject)
      ? readBounceText({
          text: parsed.text ?? '',
          failedRecipientsHeader: header('x-failed-recipients'),
          ownAddresses,
        })
      : null);
  if (bounce) {
    const kind =
      bounce.outcome === 'success' ? 'other' : bounce.outcome === 'hard' ? 'bounce_hard' : 'bounce_soft';
    return {
      ...base(kind, bounce.originalMessageIds),
      bouncedRecipient: bounce.recipient,
      statusCode: bounce.statusCode,
      diagnostic: bounce.diagnostic,
    };
  }

  const fresh = freshText(parsed.text ?? '');
  if (isAutomaticReply(header, subject, fresh)) {
    const absence = ABSENCE_SUBJECT.test(subject) || ABSENCE_TEXT.test(fresh);
    if (!absence) return base('other');
    const reference = validDate(parsed.date) ?? options.receivedAt ?? null;
    return {
      ...base('out_of_office'),
      returnDate: reference ? parseReturnDate(`${subject}\n${fresh}`, reference) : null,
    };
  }

  const token = UNSUBSCRIBE_TOKEN_SUBJECT.exec(subject)?.[1] ?? null;
  if (token) return { ...base('unsubscribe_request'), unsubscribeToken: token };
  const bareSubject = stripReplyPrefixes(subject);
  const firstLine = fresh.split('\n').find((line) => line.trim() !== '') ?? '';
  if (UNSUBSCRIBE_LINE.test(bareSubject) || UNSUBSCRIBE_LINE.test(firstLine.trim())) {
    if (!isBulk(header)) return base('unsubscribe_request');
  }

  if (isBulk(header)) return base('other');
  if (threadIds.length > 0 || REPLY_PREFIX.test(subject)) return base('reply');
  return base('other');
}

function looksLikeBounce(parsed: ParsedMail, subject: string): boolean {
  const sender = parsed.from?.value[0];
  const local = (sender?.address ?? '').split('@')[0]?.toLowerCase() ?? '';
  return (
    DAEMON_LOCAL_PARTS.has(local) || DAEMON_NAMES.test(sender?.name ?? '') || BOUNCE_SUBJECT.test(subject)
  );
}

/** RFC 3834 and the headers Exchange, Gmail and vacation scripts set, or an absence subject. */
function isAutomaticReply(
  header: (name: string) => string | undefined,
  subject: string,
  fresh: string,
): boolean {
  const autoSubmitted = header('auto-submitted')?.toLowerCase();
  if (autoSubmitted && !autoSubmitted.startsWith('no')) return true;
  if (header('x-autoreply') || header('x-autorespond') || header('x-autoresponder')) return true;
  if (/auto[_-]?reply/i.test(header('precedence') ?? '')) return true;
  if (ABSENCE_SUBJECT.test(subject)) return true;
  // Exchange marks its automatic messages so; with absence wording it is an out-of-office.
  return header('x-auto-response-suppress') !== undefined && ABSENCE_TEXT.test(fresh);
}

/** Mailing-list or bulk mail (someone's newsletter), not a person writing back. */
function isBulk(header: (name: string) => string | undefined): boolean {
  return (
    /^(?:bulk|list|junk)$/i.test(header('precedence')?.trim() ?? '') ||
    header('list-id') !== undefined ||
    header('list-unsubscribe') !== undefined
  );
}

/** The text the sender wrote this time: up to the quoted conversation, without "> " lines. */
export function freshText(text: string): string {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    // "On Tue, 24 Nov 2026 at 10:14, Amina <a@b>\nwrote:" wraps in many clients.
    const joined = `${line} ${lines[i + 1]?.trim() ?? ''}`;
    if (
      QUOTE_HEADERS.some((re) => re.test(line)) ||
      (/^(?:on|le)\b/i.test(line) && /^(?:on|le)\b.*\b(?:wrote|a [ée]crit)\s*:\s*$/i.test(joined))
    ) {
      break;
    }
    if (line.startsWith('>')) continue;
    kept.push(lines[i]!);
  }
  return kept.join('\n').trim();
}

function stripReplyPrefixes(subject: string): string {
  let current = subject;
  for (let i = 0; i < 5 && REPLY_PREFIX.test(current); i++) current = current.replace(REPLY_PREFIX, '');
  return current.trim();
}

function addresses(value: AddressObject | AddressObject[] | undefined): string[] {
  if (!value) return [];
  return (Array.isArray(value) ? value : [value])
    .flatMap((object) => object.value)
    .map((entry) => entry.address ?? '')
    .filter((address) => address !== '');
}

function validDate(date: Date | undefined): Date | null {
  return date && !Number.isNaN(date.getTime()) ? date : null;
}

function dedupe(values: string[]): string[] {
  return [...new Set(values)];
}
