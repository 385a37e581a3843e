import { AppError } from '@server/lib/errors';

/*
 * Turns whatever nodemailer or imapflow threw into a kind the dispatcher acts on (retry, bounce, pause the
 * account) and a fixed message a user can act on. The message never carries the server's own words: a
 * banner or a raw reply would turn the connection test into a port scanner that reads back what answers.
 * For the same reason every failure before a mail server has greeted us — nothing listening, a silent
 * (filtered) port, SSH or a web server on it, TLS spoken to a plain port — reads the same `unreachable`
 * message: any port may be tested, and the answer must not tell which of those it was.
 */

export type SmtpErrorKind = 'auth' | 'temporary' | 'permanent' | 'connection' | 'tls' | 'timeout';

export interface ClassifiedSmtpError {
  kind: SmtpErrorKind;
  /** The SMTP reply code (e.g. 535, 450), when the server answered with one. */
  responseCode: number | null;
  safeMessage: string;
}

export const SMTP_ERROR_MESSAGES = {
  auth: 'The server refused the user name or password. For Gmail and Microsoft 365 use an app password.',
  authRequired:
    'The server asks you to sign in (or to use encryption) before sending: check the security setting, user name and password.',
  authTemporary:
    'The server could not check the user name and password right now. Try again in a few minutes.',
  missingCredentials: 'Enter the user name and password of this mailbox.',
  unreachable:
    'Could not connect to a mail server at this host and port: check the host, the port and the security setting (SSL/TLS for port 465, STARTTLS for 587).',
  connectionLost: 'The server closed the connection. Try again in a few minutes.',
  notFound: 'We could not find the mail server: check the host name',
  certificate: "The server's TLS certificate could not be verified",
  certSelfSigned:
    "The server's certificate is self-signed: no certificate authority vouches for it. If this is your own server, check its fingerprint and trust it.",
  certUnknownCa:
    "The server's certificate is signed by an authority we do not know (a private certificate authority, or the server does not send its intermediate certificates).",
  certExpired: "The server's certificate has expired. Ask your email host to renew it.",
  certNotYetValid: "The server's certificate is not valid yet: check the server's clock.",
  certNameMismatch:
    "The server's certificate is for another host name: use the host name written on the certificate.",
  certChanged:
    "The server's certificate has changed since you trusted it. Check the new certificate before you trust it again; until then nothing is sent through this server.",
  tls: 'The secure connection failed: check the security setting (SSL/TLS for port 465, STARTTLS for 587) and the port',
  busy: 'The server is busy or limiting how much you send. We will try again later.',
  temporaryRecipient: 'The receiving server asked us to try again later.',
  sender: 'The server refused the sender address. Use the address of the mailbox you signed in with.',
  recipient: 'The server refused the recipient address.',
  message: 'The server refused the message.',
  tooLarge: 'The message is larger than the server accepts.',
  invalidAddress: 'The sender or recipient address is not valid.',
  unknown: 'Something went wrong while talking to the mail server. Try again in a few minutes.',
} as const;

/** Our code for a pinned account whose server presents another certificate (tls-trust.ts). */
export const CERT_PIN_MISMATCH = 'CERT_PIN_MISMATCH';

/** Node's (OpenSSL's) codes for a certificate that does not check out, with the cause a user can act on. */
const CERTIFICATE_CODES = new Map<string, string>([
  ['DEPTH_ZERO_SELF_SIGNED_CERT', 'certSelfSigned'],
  ['SELF_SIGNED_CERT_IN_CHAIN', 'certUnknownCa'],
  ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'certUnknownCa'],
  ['UNABLE_TO_GET_ISSUER_CERT', 'certUnknownCa'],
  ['UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'certUnknownCa'],
  ['CERT_UNTRUSTED', 'certUnknownCa'],
  ['CERT_HAS_EXPIRED', 'certExpired'],
  ['CERT_NOT_YET_VALID', 'certNotYetValid'],
  ['ERR_TLS_CERT_ALTNAME_INVALID', 'certNameMismatch'],
  ['HOSTNAME_MISMATCH', 'certNameMismatch'],
  [CERT_PIN_MISMATCH, 'certChanged'],
  ['CERT_REVOKED', 'certificate'],
  ['CERT_REJECTED', 'certificate'],
  ['CERT_SIGNATURE_FAILURE', 'certificate'],
]) as ReadonlyMap<string, keyof typeof SMTP_ERROR_MESSAGES>;

/** The certificate problem behind an error, when there is one (the trust prompt keys off it). */
export function certificateProblemOf(error: unknown): keyof typeof SMTP_ERROR_MESSAGES | null {
  for (const code of factsOf(error).codes) {
    const problem = CERTIFICATE_CODES.get(code);
    if (problem) return problem;
  }
  return null;
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'NoConnection',
  'EConnectionClosed',
  'ClosedAfterConnectText',
  'ClosedAfterConnectTLS',
]);
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);
const TIMEOUT_CODES = new Set([
  'ETIMEDOUT',
  'ETIMEOUT',
  'CONNECT_TIMEOUT',
  'GREETING_TIMEOUT',
  'UPGRADE_TIMEOUT',
  'ESOCKETTIMEDOUT',
]);
const DNS_CODES = new Set(['EDNS', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME']);

interface ErrorFacts {
  codes: string[];
  responseCode: number | null;
  command: string;
  /** Only matched against patterns, never shown. */
  text: string;
  authenticationFailed: boolean;
}

function factsOf(error: unknown): ErrorFacts {
  const codes: string[] = [];
  let responseCode: number | null = null;
  let command = '';
  let text = '';
  let authenticationFailed = false;
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 4; depth++) {
    const e = current as Record<string, unknown>;
    for (const key of ['code', 'originalCode', 'serverResponseCode']) {
      if (typeof e[key] === 'string') codes.push(e[key] as string);
    }
    if (responseCode === null && typeof e.responseCode === 'number' && e.responseCode > 0) {
      responseCode = e.responseCode;
    }
    if (!command && typeof e.command === 'string') command = e.command.toUpperCase();
    if (typeof e.message === 'string') text += ` ${e.message}`;
    if (e.authenticationFailed === true) authenticationFailed = true;
    current = e.cause;
  }
  return { codes, responseCode, command, text, authenticationFailed };
}

const result = (
  kind: SmtpErrorKind,
  responseCode: number | null,
  safeMessage: string,
): ClassifiedSmtpError => ({
  kind,
  responseCode,
  safeMessage,
});

function classifyReply(code: number, command: string, facts: ErrorFacts): ClassifiedSmtpError {
  // STARTTLS refused or missing: the security setting does not match what the server offers.
  if (command.startsWith('STARTTLS') || facts.codes.includes('ETLS')) {
    return result('tls', code, SMTP_ERROR_MESSAGES.tls);
  }
  const onAuth = command.startsWith('AUTH') || facts.codes.includes('EAUTH');
  if (code >= 400 && code < 500) {
    if (onAuth) return result('temporary', code, SMTP_ERROR_MESSAGES.authTemporary);
    if (code === 421) return result('temporary', code, SMTP_ERROR_MESSAGES.busy);
    if (command.startsWith('RCPT') || command.startsWith('DATA')) {
      return result('temporary', code, SMTP_ERROR_MESSAGES.temporaryRecipient);
    }
    return result('temporary', code, SMTP_ERROR_MESSAGES.busy);
  }
  if (code >= 500 && code < 600) {
    if (onAuth || code === 535 || code === 534) return result('auth', code, SMTP_ERROR_MESSAGES.auth);
    if (code === 530) return result('auth', code, SMTP_ERROR_MESSAGES.authRequired);
    if (code === 552 && !command.startsWith('RCPT'))
      return result('permanent', code, SMTP_ERROR_MESSAGES.tooLarge);
    if (command.startsWith('MAIL')) return result('permanent', code, SMTP_ERROR_MESSAGES.sender);
    if (command.startsWith('RCPT')) return result('permanent', code, SMTP_ERROR_MESSAGES.recipient);
    if (command.startsWith('DATA')) return result('permanent', code, SMTP_ERROR_MESSAGES.message);
    if (command === 'CONN' || command.startsWith('EHLO') || command.startsWith('HELO')) {
      return result('connection', code, SMTP_ERROR_MESSAGES.unreachable);
    }
    return result('permanent', code, SMTP_ERROR_MESSAGES.message);
  }
  return result('connection', code, SMTP_ERROR_MESSAGES.unreachable);
}

/** Classifies an SMTP (nodemailer) or IMAP (imapflow) error. Never throws. */
export function classifySmtpError(error: unknown): ClassifiedSmtpError {
  // Our own guard's messages are fixed texts already written for users.
  if (error instanceof AppError) return result('connection', null, error.message);
  const facts = factsOf(error);
  const { codes, responseCode, command, text } = facts;
  const has = (set: Set<string>) => codes.some((c) => set.has(c));

  const certificateProblem = certificateProblemOf(error);
  if (certificateProblem) return result('tls', null, SMTP_ERROR_MESSAGES[certificateProblem]);
  if (facts.authenticationFailed) return result('auth', responseCode, SMTP_ERROR_MESSAGES.auth);
  // A reply code is the server's own verdict; the text patterns below only read our side's errors.
  if (responseCode !== null) return classifyReply(responseCode, command, facts);
  if (/certificate|self[- ]signed|altnames?\b/i.test(text)) {
    return result('tls', null, SMTP_ERROR_MESSAGES.certificate);
  }
  if (codes.includes('ENOAUTH')) return result('auth', null, SMTP_ERROR_MESSAGES.missingCredentials);
  if (codes.includes('EAUTH')) return result('auth', null, SMTP_ERROR_MESSAGES.auth);
  if (has(TIMEOUT_CODES)) return result('timeout', null, SMTP_ERROR_MESSAGES.unreachable);
  // nodemailer's ETLS: the server answered STARTTLS, so it is a mail server and the setting is at fault.
  if (codes.includes('ETLS')) return result('tls', null, SMTP_ERROR_MESSAGES.tls);
  // A TLS handshake against something that does not speak TLS: nothing says a mail server is there.
  if (/wrong version number|ssl routines|tls|ssl3|packet length/i.test(text)) {
    return result('connection', null, SMTP_ERROR_MESSAGES.unreachable);
  }
  if (has(DNS_CODES)) return result('connection', null, SMTP_ERROR_MESSAGES.notFound);
  if (has(CONNECTION_CODES)) return result('connection', null, SMTP_ERROR_MESSAGES.unreachable);
  if (has(RESET_CODES)) return result('temporary', null, SMTP_ERROR_MESSAGES.connectionLost);
  if (codes.includes('ECONNECTION') || codes.includes('ESOCKET')) {
    return result('connection', null, SMTP_ERROR_MESSAGES.unreachable);
  }
  if (codes.includes('EPROTOCOL') || codes.some((c) => c.startsWith('ParserError'))) {
    return result('connection', null, SMTP_ERROR_MESSAGES.unreachable);
  }
  if (codes.includes('EENVELOPE')) return result('permanent', null, SMTP_ERROR_MESSAGES.invalidAddress);
  if (codes.includes('EMESSAGE')) return result('permanent', null, SMTP_ERROR_MESSAGES.tooLarge);
  return result('temporary', null, SMTP_ERROR_MESSAGES.unknown);
}
