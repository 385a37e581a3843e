import { X509Certificate } from 'node:crypto';
import { isIP, connect as netConnect, type Socket } from 'node:net';
import { type ConnectionOptions, type TLSSocket, connect as tlsConnect } from 'node:tls';
import type { PresentedCertificate, SmtpSecurity } from '@shared/sending';
import { CERT_PIN_MISMATCH, certificateProblemOf } from './smtp-errors';

/*
 * "Trust this certificate": a mailbox on a self-signed or private-CA certificate (a company's own Postfix
 * and Dovecot) can be used once its owner has checked the certificate's fingerprint and pinned it. A
 * pinned connection trusts that one certificate and nothing else:
 *
 * - `ca` is the pinned certificate alone (with allowPartialTrustChain, so a private CA's leaf is an anchor
 *   by itself), so OpenSSL accepts it and refuses any other, even one a public CA signed;
 * - `checkServerIdentity` compares the presented certificate's SHA-256 fingerprint with the pin instead
 *   of the host name (the owner vouched for this exact certificate, whatever name it carries).
 *
 * Node never calls checkServerIdentity when the chain itself fails, so a changed certificate shows up as
 * an ordinary certificate error (self-signed, unknown CA…); on a pinned connection every such error
 * means "not the certificate you trusted" and is reported as CERT_PIN_MISMATCH (asPinMismatch).
 *
 * To show a certificate that failed, presentedCertificate() makes a separate, credential-free connection
 * that only reads it (rejectUnauthorized off, STARTTLS spoken by hand): the connection that failed was
 * closed by Node before anything could read it. Passwords are only ever sent over verified connections.
 */

/** The certificate's details as the trust prompt shows them. */
export function describeCertificate(pem: string): Omit<PresentedCertificate, 'problem'> {
  const cert = new X509Certificate(pem);
  const oneLine = (dn: string) => dn.split('\n').filter(Boolean).join(', ');
  return {
    fingerprint: cert.fingerprint256,
    subject: oneLine(cert.subject),
    issuer: oneLine(cert.issuer),
    validFrom: new Date(cert.validFrom).toISOString(),
    validTo: new Date(cert.validTo).toISOString(),
  };
}

export function fingerprintOf(pem: string): string {
  return new X509Certificate(pem).fingerprint256;
}

/** Fingerprints as users paste them: any case, with or without colons. */
export function sameFingerprint(a: string, b: string): boolean {
  const norm = (v: string) => v.replace(/[^0-9a-f]/gi, '').toUpperCase();
  return norm(a).length === 64 && norm(a) === norm(b);
}

/** TLS options for nodemailer's `tls` and imapflow's `tls`: SNI and, when pinned, the pin. */
export function tlsOptionsFor(host: string, pinnedPem: string | null): ConnectionOptions {
  const servername = isIP(host) ? undefined : host;
  if (!pinnedPem) return servername ? { servername } : {};
  const pinned = fingerprintOf(pinnedPem);
  return {
    ...(servername ? { servername } : {}),
    ca: [pinnedPem],
    allowPartialTrustChain: true,
    checkServerIdentity: (_host, cert) =>
      cert.fingerprint256 === pinned
        ? undefined
        : Object.assign(new Error('The server presented another certificate than the trusted one'), {
            code: CERT_PIN_MISMATCH,
          }),
  } as ConnectionOptions;
}

/** On a pinned connection, any certificate failure is "the certificate changed". */
export function asPinMismatch(error: unknown, pinned: boolean): unknown {
  if (!pinned || !certificateProblemOf(error)) return error;
  return Object.assign(new Error('The server presented another certificate than the trusted one'), {
    code: CERT_PIN_MISMATCH,
    cause: error,
  });
}

const PROBE_TIMEOUT_MS = 10_000;
const MAX_PROBE_BYTES = 16 * 1024;

/**
 * Reads the certificate a server presents, without sending any credentials. `address` is the one the
 * SSRF guard resolved; `host` is the name (SNI). Answers null when there is no TLS (security 'none') or
 * the server does not get as far as a certificate.
 */
export async function presentedCertificate(options: {
  address: string;
  host: string;
  port: number;
  security: SmtpSecurity;
  kind: 'smtp' | 'imap';
  ehloName?: string;
  timeoutMs?: number;
}): Promise<string | null> {
  if (options.security === 'none') return null;
  const servername = isIP(options.host) ? undefined : options.host;
  let plain: Socket | null = null;
  let secure: TLSSocket | null = null;
  let timer: NodeJS.Timeout | undefined;
  const work = new Promise<string | null>((resolve) => {
    const upgrade = (socket?: Socket) => {
      secure = tlsConnect(
        socket
          ? { socket, servername, rejectUnauthorized: false }
          : { host: options.address, port: options.port, servername, rejectUnauthorized: false },
        () => {
          const cert = secure?.getPeerX509Certificate();
          resolve(cert ? cert.toString() : null);
        },
      );
      secure.on('error', () => resolve(null));
    };
    if (options.security === 'tls') return upgrade();
    // STARTTLS by hand: greeting, (EHLO,) STARTTLS, then the handshake on the same socket.
    const socket = netConnect({ host: options.address, port: options.port });
    plain = socket;
    socket.on('error', () => resolve(null));
    socket.on('close', () => resolve(null));
    const steps =
      options.kind === 'smtp'
        ? [
            { done: /^220 /m, send: `EHLO ${options.ehloName ?? 'localhost'}\r\n` },
            { done: /^250 /m, send: 'STARTTLS\r\n' },
            { done: /^220 /m, send: null },
          ]
        : [
            { done: /^\* OK/m, send: 'A1 STARTTLS\r\n' },
            { done: /^A1 OK/im, send: null },
          ];
    let buffer = '';
    let received = 0;
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > MAX_PROBE_BYTES) return socket.destroy();
      buffer += chunk.toString('latin1');
      const step = steps[0];
      if (!step?.done.test(buffer)) return;
      steps.shift();
      buffer = '';
      if (step.send) {
        socket.write(step.send);
        return;
      }
      socket.off('data', onData);
      upgrade(socket);
    };
    socket.on('data', onData);
  });
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), options.timeoutMs ?? PROBE_TIMEOUT_MS);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
    (secure as TLSSocket | null)?.destroy();
    (plain as Socket | null)?.destroy();
  }
}
