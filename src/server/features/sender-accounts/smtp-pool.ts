import type { NodemailerError } from 'nodemailer';
import SMTPConnection, { type SMTPConnectionSendInfo } from 'nodemailer/lib/smtp-connection';
import {
  type SmtpConnectionSetup,
  type StoredAccountSmtpOptions,
  smtpSetupForAccount,
} from './sender-transport';
import { speedUpDotStuffing } from './smtp-dot-stuffing';
import { asPinMismatch } from './tls-trust';

/*
 * The dispatcher's connections to one account's SMTP server: up to `maxConnections` kept-open
 * SMTPConnections, each handed one finished message at a time. The dispatcher already has the exact
 * bytes, so nodemailer's Mailer, MailMessage, MimeNode and its pool's queue were pure overhead (about
 * 250 µs of CPU a message, measured against a plain smtp-server). This mirrors what nodemailer's pool
 * did with our options (smtp-pool/pool-resource.js), and keeps its errors as they are (code,
 * responseCode, command, response), so smtp-errors.ts classifies them as before:
 *
 * - at most 100 messages per connection, then a new one; idle connections close after 4 minutes;
 * - a message the server refuses (EENVELOPE/EMESSAGE, not 421) resets the session (RSET) and keeps the
 *   connection; any other error closes it;
 * - a message is never sent again on its own: the dispatcher decides retries (it knows whether DATA may
 *   have gone through), as with the pool's maxRequeues 0;
 * - an error on an idle connection only drops that connection (there is always an 'error' listener).
 */

export interface SmtpEnvelope {
  from: string;
  to: string[];
}

export type SmtpSendInfo = SMTPConnectionSendInfo;

export interface SmtpPool {
  /** Sends the exact bytes; resolves after the server's 250 with its reply in `response`. */
  send(envelope: SmtpEnvelope, raw: Buffer | string): Promise<SmtpSendInfo>;
  /** Closes idle connections now and busy ones after their message; messages still waiting fail. */
  close(): void;
}

const MAX_MESSAGES_PER_CONNECTION = 100;
// Below the 5 minutes RFC 5321 asks servers to wait: we close the connection, not the server in the
// middle of handing it a message (nodemailer's pool default).
const IDLE_TIMEOUT_MS = 4 * 60_000;

interface Job {
  envelope: SmtpEnvelope;
  raw: Buffer | string;
  resolve: (info: SmtpSendInfo) => void;
  reject: (error: unknown) => void;
}

interface Slot {
  connection: SMTPConnection;
  /** Connected and signed in. */
  ready: boolean;
  /** Has a message (connecting for it, sending it, resetting after it) or is saying goodbye. */
  busy: boolean;
  closed: boolean;
  messages: number;
  idleTimer: NodeJS.Timeout | null;
  /** While connecting: fails the connect when the connection errors or ends first. */
  connectFailed: ((error: unknown) => void) | null;
  /** The message on the wire, until its callback. */
  sending: Job | null;
}

export function createSmtpPool(
  setup: SmtpConnectionSetup,
  options: { maxConnections: number; maxMessages?: number; idleTimeoutMs?: number },
): SmtpPool {
  const maxConnections = Math.max(1, options.maxConnections);
  const maxMessages = options.maxMessages ?? MAX_MESSAGES_PER_CONNECTION;
  const idleTimeoutMs = options.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
  // nodemailer's pool signs in only with a user or a password, and only when the server offers AUTH.
  const auth =
    setup.auth && (setup.auth.user || setup.auth.pass)
      ? { type: 'LOGIN', user: setup.auth.user, credentials: { ...setup.auth } }
      : null;
  const slots = new Set<Slot>();
  const queue: Job[] = [];
  let closed = false;

  const fail = (job: Job, error: unknown) => job.reject(setup.pinned ? asPinMismatch(error, true) : error);

  function pump(): void {
    while (queue.length > 0 && !closed) {
      let slot: Slot | undefined;
      for (const s of slots) {
        if (s.ready && !s.busy && !s.closed) {
          slot = s;
          break;
        }
      }
      if (!slot) {
        if (slots.size >= maxConnections) return;
        slot = open();
      }
      run(slot, queue.shift()!);
    }
  }

  function open(): Slot {
    const connection = new SMTPConnection(setup.options);
    // The same bytes on the wire with less CPU (smtp-dot-stuffing.ts); as nodemailer sends if it cannot.
    speedUpDotStuffing(connection);
    const slot: Slot = {
      connection,
      ready: false,
      busy: false,
      closed: false,
      messages: 0,
      idleTimer: null,
      connectFailed: null,
      sending: null,
    };
    // Unheard, an 'error' (a server dropping an idle connection, a socket timeout) would end the
    // process. A send in flight hears of it through its callback; a connection being opened through
    // connectFailed; an idle one is dropped by the 'end' that always follows.
    connection.on('error', (error: unknown) => slot.connectFailed?.(error));
    connection.once('end', () => ended(slot));
    slots.add(slot);
    return slot;
  }

  function ended(slot: Slot): void {
    slot.closed = true;
    slots.delete(slot);
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.connectFailed?.(connectionError('Connection closed unexpectedly'));
    const job = slot.sending;
    if (job) {
      // nodemailer completes the send right after 'end' when the connection failed; only a close of
      // ours could forget it, and the message must not wait forever for that.
      setImmediate(() => {
        if (slot.sending === job) {
          slot.sending = null;
          fail(job, connectionError('Connection closed unexpectedly'));
        }
      });
    }
    pump();
  }

  function run(slot: Slot, job: Job): void {
    slot.busy = true;
    if (slot.ready) {
      deliver(slot, job);
      return;
    }
    connect(slot, (error) => {
      if (error) {
        slot.connection.close();
        fail(job, error);
        return;
      }
      deliver(slot, job);
    });
  }

  function connect(slot: Slot, done: (error?: unknown) => void): void {
    const { connection } = slot;
    let settled = false;
    const finish = (error?: unknown) => {
      if (settled) return;
      settled = true;
      slot.connectFailed = null;
      done(error);
    };
    slot.connectFailed = finish;
    connection.connect((error) => {
      if (error) return finish(error);
      if (!auth || !connection.allowsAuth) {
        slot.ready = true;
        return finish();
      }
      connection.login(auth, (loginError) => {
        if (loginError) return finish(loginError);
        slot.ready = true;
        finish();
      });
    });
  }

  function deliver(slot: Slot, job: Job): void {
    const { connection } = slot;
    slot.sending = job;
    connection.send(job.envelope, job.raw, (error, info) => {
      if (slot.sending !== job) return;
      slot.sending = null;
      slot.messages++;
      if (!error) {
        release(slot);
        job.resolve(info!);
        return;
      }
      const { code, responseCode } = error as NodemailerError;
      if ((code === 'EENVELOPE' || code === 'EMESSAGE') && responseCode !== 421 && !slot.closed) {
        // The server refused this message; the connection itself is fine.
        connection.reset((resetError) => {
          if (resetError) connection.close();
          else release(slot);
        });
      } else {
        connection.close();
      }
      fail(job, error);
    });
  }

  function release(slot: Slot): void {
    slot.busy = false;
    if (slot.closed) return;
    if (closed || slot.messages >= maxMessages) {
      // 'end' follows at once, and the next message opens a new connection.
      slot.connection.close();
      return;
    }
    startIdleTimer(slot);
    pump();
  }

  function startIdleTimer(slot: Slot): void {
    if (slot.idleTimer) {
      slot.idleTimer.refresh();
      return;
    }
    // One timer per connection, restarted whenever it is released; busy when it fires: left alone.
    slot.idleTimer = setTimeout(() => {
      if (slot.busy || slot.closed) return;
      slot.busy = true;
      slot.connection.quit();
    }, idleTimeoutMs);
    slot.idleTimer.unref();
  }

  return {
    send(envelope, raw) {
      return new Promise<SmtpSendInfo>((resolve, reject) => {
        if (closed) return reject(connectionError('Connection pool was closed'));
        queue.push({ envelope, raw, resolve, reject });
        pump();
      });
    },
    close() {
      closed = true;
      for (const slot of [...slots]) {
        if (!slot.busy) slot.connection.close();
      }
      // As nodemailer's pool: what was still waiting for a connection fails (without a code).
      for (const job of queue.splice(0)) fail(job, new Error('Connection pool was closed'));
    },
  };
}

function connectionError(message: string): Error {
  return Object.assign(new Error(message), { code: 'ECONNECTION' });
}

/** The dispatcher's pool for a stored account (the same connection options as its transports). */
export async function openSmtpPool(
  options: StoredAccountSmtpOptions & { maxConnections: number },
): Promise<SmtpPool> {
  return createSmtpPool(await smtpSetupForAccount(options), { maxConnections: options.maxConnections });
}
