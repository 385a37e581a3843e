import { AppError } from '../../lib/errors';

/*
 * Turns whatever nodemailer or imapflow threw into a kind the dispatcher acts on (retry, bounce, pause the
 * account) and a fixed message a user can act on. The message never carries the server's own words: a
 * banner or a raw reply would turn the connection test into a port scanner that reads back what answers.
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
  connection: 'Could not connect to the server: check the host and port',
  connectionLost: 'The server closed the connection. Try again in a few minutes.',
  notFound: 'We could not find the mail server: check the host name',
  timeout: 'The connection timed out',
  certificate: "The server's TLS certificate is not valid for this host",
  tls: 'The secure connection failed: check the security setting (SSL/TLS for port 465, STARTTLS for 587) and the port',
  notMailServer: 'The server did not answer like a mail server: check the host and port',
  busy: 'The server is busy or limiting how much you send. We will try again later.',
  temporaryRecipient: 'The receiving server asked us to try again later.',
  sender: 'The server refused the sender address. Use the address of the mailbox you signed in with.',
  recipient: 'The server refused the recipient address.',
  message: 'The server refused the message.',
  tooLarge: 'The message is larger than the server accepts.',
  invalidAddress: 'The sender or recipient address is not valid.',
  unknown: 'Something went wrong while talking to the mail server. Try again in a few minutes.',
} as const;

/** Node's codes for a certificate that does not check out (expired, self-signed, wrong name…). */
const CERTIFICATE_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'CERT_SIGNATURE_FAILURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'HOSTNAME_MISMATCH',
]);

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
      return result('connection', code, SMTP_ERROR_MESSAGES.connection);
    }
    return result('permanent', code, SMTP_ERROR_MESSAGES.message);
  }
  return result('connection', code, SMTP_ERROR_MESSAGES.notMailServer);
}

/** Classifies an SMTP (nodemailer) or IMAP (imapflow) error. Never throws. */
export function classifySmtpError(error: unknown): ClassifiedSmtpError {
  // Our own guard's messages are fixed texts already written for users.
  if (error instanceof AppError) return result('connection', null, error.message);
  const facts = factsOf(error);
  const { codes, responseCode, command, text } = facts;
  const has = (set: Set<string>) => codes.some((c) => set.has(c));

  if (has(CERTIFICATE_CODES)) return result('tls', null, SMTP_ERROR_MESSAGES.certificate);
  if (facts.authenticationFailed) return result('auth', responseCode, SMTP_ERROR_MESSAGES.auth);
  // A reply code is the server's own verdict; the text patterns below only read our side's errors.
  if (responseCode !== null) return classifyReply(responseCode, command, facts);
  if (/certificate|self[- ]signed|altnames?\b/i.test(text)) {
    return result('tls', null, SMTP_ERROR_MESSAGES.certificate);
  }
  if (codes.includes('ENOAUTH')) return result('auth', null, SMTP_ERROR_MESSAGES.missingCredentials);
  if (codes.includes('EAUTH')) return result('auth', null, SMTP_ERROR_MESSAGES.auth);
  if (has(TIMEOUT_CODES)) return result('timeout', null, SMTP_ERROR_MESSAGES.timeout);
  if (codes.includes('ETLS') || /wrong version number|ssl routines|tls|ssl3|packet length/i.test(text)) {
    return result('tls', null, SMTP_ERROR_MESSAGES.tls);
  }
  if (has(DNS_CODES)) return result('connection', null, SMTP_ERROR_MESSAGES.notFound);
  if (has(CONNECTION_CODES)) return result('connection', null, SMTP_ERROR_MESSAGES.connection);
  if (has(RESET_CODES)) return result('temporary', null, SMTP_ERROR_MESSAGES.connectionLost);
  if (codes.includes('ECONNECTION') || codes.includes('ESOCKET')) {
    return result('connection', null, SMTP_ERROR_MESSAGES.connection);
  }
  if (codes.includes('EPROTOCOL') || codes.some((c) => c.startsWith('ParserError'))) {
    return result('connection', null, SMTP_ERROR_MESSAGES.notMailServer);
  }
  if (codes.includes('EENVELOPE')) return result('permanent', null, SMTP_ERROR_MESSAGES.invalidAddress);
  if (codes.includes('EMESSAGE')) return result('permanent', null, SMTP_ERROR_MESSAGES.tooLarge);
  return result('temporary', null, SMTP_ERROR_MESSAGES.unknown);
}
