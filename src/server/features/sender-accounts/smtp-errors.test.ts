import { AppError } from '@server/lib/errors';
import { describe, expect, it } from 'vitest';
import { classifySmtpError, SMTP_ERROR_MESSAGES } from './smtp-errors';

/** An error shaped the way nodemailer builds them (code, command, responseCode, the reply in the message). */
function smtpError(fields: {
  code?: string;
  command?: string;
  responseCode?: number;
  response?: string;
  originalCode?: string;
  message?: string;
}) {
  const error = new Error(`${fields.message ?? 'Failed'}${fields.response ? `: ${fields.response}` : ''}`);
  return Object.assign(error, fields);
}

const LEAK = 'mx7.internal.example ESMTP Postfix (Debian) secret-token-42';

describe('classifySmtpError', () => {
  it('sorts SMTP replies into the kinds the dispatcher acts on', () => {
    const cases = [
      [{ code: 'EAUTH', command: 'AUTH PLAIN', responseCode: 535 }, 'auth', SMTP_ERROR_MESSAGES.auth],
      [
        { code: 'EAUTH', command: 'AUTH LOGIN', responseCode: 454 },
        'temporary',
        SMTP_ERROR_MESSAGES.authTemporary,
      ],
      [
        { code: 'EENVELOPE', command: 'MAIL FROM', responseCode: 530 },
        'auth',
        SMTP_ERROR_MESSAGES.authRequired,
      ],
      [
        { code: 'EENVELOPE', command: 'MAIL FROM', responseCode: 553 },
        'permanent',
        SMTP_ERROR_MESSAGES.sender,
      ],
      [
        { code: 'EENVELOPE', command: 'RCPT TO', responseCode: 550 },
        'permanent',
        SMTP_ERROR_MESSAGES.recipient,
      ],
      [
        { code: 'EENVELOPE', command: 'RCPT TO', responseCode: 451 },
        'temporary',
        SMTP_ERROR_MESSAGES.temporaryRecipient,
      ],
      [{ code: 'EMESSAGE', command: 'DATA', responseCode: 554 }, 'permanent', SMTP_ERROR_MESSAGES.message],
      [{ code: 'EMESSAGE', command: 'DATA', responseCode: 552 }, 'permanent', SMTP_ERROR_MESSAGES.tooLarge],
      [{ code: 'ECONNECTION', command: 'CONN', responseCode: 421 }, 'temporary', SMTP_ERROR_MESSAGES.busy],
      [{ code: 'ETLS', command: 'STARTTLS', responseCode: 502 }, 'tls', SMTP_ERROR_MESSAGES.tls],
    ] as const;
    for (const [fields, kind, message] of cases) {
      const result = classifySmtpError(
        smtpError({ ...fields, response: `${fields.responseCode} 5.0.0 ${LEAK}` }),
      );
      expect(result, JSON.stringify(fields)).toEqual({
        kind,
        responseCode: fields.responseCode,
        safeMessage: message,
      });
    }
  });

  it('sorts connection trouble without a reply', () => {
    const cases = [
      [
        { code: 'ESOCKET', originalCode: 'ECONNREFUSED', message: 'connect ECONNREFUSED 10.1.2.3:587' },
        'connection',
        SMTP_ERROR_MESSAGES.unreachable,
      ],
      [
        { code: 'ETIMEDOUT', command: 'CONN', message: 'Greeting never received' },
        'timeout',
        SMTP_ERROR_MESSAGES.unreachable,
      ],
      [
        { code: 'EDNS', originalCode: 'ENOTFOUND', message: 'getaddrinfo ENOTFOUND smtp.typo.example' },
        'connection',
        SMTP_ERROR_MESSAGES.notFound,
      ],
      [
        { code: 'ESOCKET', originalCode: 'ECONNRESET', message: 'read ECONNRESET' },
        'temporary',
        SMTP_ERROR_MESSAGES.connectionLost,
      ],
      [
        { code: 'ESOCKET', originalCode: 'DEPTH_ZERO_SELF_SIGNED_CERT', message: 'self-signed certificate' },
        'tls',
        SMTP_ERROR_MESSAGES.certSelfSigned,
      ],
      [
        {
          code: 'ESOCKET',
          originalCode: 'ERR_TLS_CERT_ALTNAME_INVALID',
          message: "Hostname/IP does not match certificate's altnames",
        },
        'tls',
        SMTP_ERROR_MESSAGES.certNameMismatch,
      ],
      [
        { code: 'ETLS', message: 'Error initiating TLS - wrong version number' },
        'tls',
        SMTP_ERROR_MESSAGES.tls,
      ],
      [
        { code: 'ESOCKET', message: 'ssl3_get_record:wrong version number' },
        'connection',
        SMTP_ERROR_MESSAGES.unreachable,
      ],
      [
        { code: 'EPROTOCOL', message: `Invalid greeting. response=SSH-2.0-OpenSSH_9.6 ${LEAK}` },
        'connection',
        SMTP_ERROR_MESSAGES.unreachable,
      ],
      [
        { code: 'EAUTH', command: 'API', message: 'Missing credentials for "PLAIN"' },
        'auth',
        SMTP_ERROR_MESSAGES.auth,
      ],
      [{ code: 'ENOAUTH' }, 'auth', SMTP_ERROR_MESSAGES.missingCredentials],
    ] as const;
    for (const [fields, kind, message] of cases) {
      expect(classifySmtpError(smtpError(fields)), JSON.stringify(fields)).toEqual({
        kind,
        responseCode: null,
        safeMessage: message,
      });
    }
  });

  it('names the real cause of a certificate failure', () => {
    const cases = [
      ['DEPTH_ZERO_SELF_SIGNED_CERT', SMTP_ERROR_MESSAGES.certSelfSigned],
      ['SELF_SIGNED_CERT_IN_CHAIN', SMTP_ERROR_MESSAGES.certUnknownCa],
      ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', SMTP_ERROR_MESSAGES.certUnknownCa],
      ['UNABLE_TO_GET_ISSUER_CERT_LOCALLY', SMTP_ERROR_MESSAGES.certUnknownCa],
      ['UNABLE_TO_GET_ISSUER_CERT', SMTP_ERROR_MESSAGES.certUnknownCa],
      ['CERT_HAS_EXPIRED', SMTP_ERROR_MESSAGES.certExpired],
      ['CERT_NOT_YET_VALID', SMTP_ERROR_MESSAGES.certNotYetValid],
      ['ERR_TLS_CERT_ALTNAME_INVALID', SMTP_ERROR_MESSAGES.certNameMismatch],
      ['HOSTNAME_MISMATCH', SMTP_ERROR_MESSAGES.certNameMismatch],
      ['CERT_PIN_MISMATCH', SMTP_ERROR_MESSAGES.certChanged],
      ['CERT_REVOKED', SMTP_ERROR_MESSAGES.certificate],
    ] as const;
    for (const [code, message] of cases) {
      // nodemailer keeps node's code as originalCode; imapflow passes node's error as it is.
      for (const error of [
        smtpError({ code: 'ESOCKET', originalCode: code, message: LEAK }),
        Object.assign(new Error(LEAK), { code }),
      ]) {
        expect(classifySmtpError(error), code).toEqual({
          kind: 'tls',
          responseCode: null,
          safeMessage: message,
        });
      }
    }
    expect(SMTP_ERROR_MESSAGES.certSelfSigned).toMatch(/self-signed/);
    expect(SMTP_ERROR_MESSAGES.certSelfSigned).not.toMatch(/not valid for this host/);
  });

  it('reads imapflow errors too', () => {
    const authFailed = Object.assign(new Error('Command failed'), {
      authenticationFailed: true,
      serverResponseCode: 'AUTHENTICATIONFAILED',
      responseText: LEAK,
    });
    expect(classifySmtpError(authFailed)).toMatchObject({
      kind: 'auth',
      safeMessage: SMTP_ERROR_MESSAGES.auth,
    });
    expect(classifySmtpError(Object.assign(new Error('x'), { code: 'GREETING_TIMEOUT' })).kind).toBe(
      'timeout',
    );
    expect(classifySmtpError(Object.assign(new Error('x'), { code: 'NoConnection' })).kind).toBe(
      'connection',
    );
  });

  it('passes our own guard messages through and never throws on odd input', () => {
    expect(classifySmtpError(new AppError('validation', 'This mail server address is not allowed'))).toEqual({
      kind: 'connection',
      responseCode: null,
      safeMessage: 'This mail server address is not allowed',
    });
    for (const odd of [undefined, null, 42, 'boom', {}, { cause: { cause: {} } }]) {
      expect(classifySmtpError(odd)).toEqual({
        kind: 'temporary',
        responseCode: null,
        safeMessage: SMTP_ERROR_MESSAGES.unknown,
      });
    }
  });

  it('never repeats the server words', () => {
    for (const code of [undefined, 'EAUTH', 'ECONNECTION', 'EPROTOCOL', 'EENVELOPE', 'ETLS']) {
      for (const responseCode of [undefined, 250, 421, 450, 535, 550, 554]) {
        const { safeMessage } = classifySmtpError(
          smtpError({ code, responseCode, response: LEAK, message: LEAK }),
        );
        expect(safeMessage).not.toMatch(/mx7|Postfix|secret|internal|Debian/i);
        expect(Object.values(SMTP_ERROR_MESSAGES)).toContain(safeMessage);
      }
    }
  });
});
