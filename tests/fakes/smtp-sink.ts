import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server on loopback that keeps what it accepts, for the sending engine's tests and the
 * dispatch benchmark. Its behaviour per recipient or per login is scriptable: refuse a password,
 * reject a recipient for good (550) or for now (451), or hold the reply to DATA for a while.
 */
export interface SinkMessage {
  from: string;
  to: string[];
  messageId: string | null;
  user: string | null;
  /** The name the client gave in EHLO/HELO (what a receiving server writes in `Received: from`). */
  ehlo: string;
  raw: string;
}

export interface SmtpSinkOptions {
  /** Users whose login is refused with 535. */
  refuseUsers?: string[];
  /** Recipients refused with 550 5.1.1 at RCPT TO. */
  hardBounce?: string[];
  /** Recipients refused with 451 4.7.1 at RCPT TO. */
  softBounce?: string[];
  /** Keep raw message text (tests); the benchmark keeps only ids. */
  keepRaw?: boolean;
  /** Milliseconds to wait before answering the end of DATA. */
  dataDelayMs?: number;
}

export interface SmtpSink {
  port: number;
  messages: SinkMessage[];
  /** Message-IDs seen, with how many times each arrived. */
  counts: Map<string, number>;
  close(): Promise<void>;
}

function headerValue(raw: string, name: string): string | null {
  const match = new RegExp(`^${name}:\\s*(.+)$`, 'im').exec(raw.split(/\r?\n\r?\n/, 1)[0] ?? '');
  return match ? match[1]!.trim() : null;
}

export async function startSmtpSink(options: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const messages: SinkMessage[] = [];
  const counts = new Map<string, number>();
  const refuse = new Set(options.refuseUsers ?? []);
  const hard = new Set((options.hardBounce ?? []).map((e) => e.toLowerCase()));
  const soft = new Set((options.softBounce ?? []).map((e) => e.toLowerCase()));
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    size: 20 * 1024 * 1024,
    // close() at the end of a test file: the dispatchers' pooled connections stay open while idle, and
    // the default 30 s wait for them to leave was half of some files' time.
    closeTimeout: 500,
    onAuth(auth, _session, callback) {
      if (refuse.has(auth.username ?? '')) {
        const error = new Error('Authentication credentials invalid') as Error & { responseCode: number };
        error.responseCode = 535;
        return callback(error);
      }
      callback(null, { user: auth.username });
    },
    onRcptTo(address, _session, callback) {
      const to = address.address.toLowerCase();
      if (hard.has(to)) {
        const error = new Error('5.1.1 User unknown') as Error & { responseCode: number };
        error.responseCode = 550;
        return callback(error);
      }
      if (soft.has(to)) {
        const error = new Error('4.7.1 Try again later') as Error & { responseCode: number };
        error.responseCode = 451;
        return callback(error);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const messageId = headerValue(raw, 'Message-ID')?.replace(/[<>]/g, '') ?? null;
        if (messageId) counts.set(messageId, (counts.get(messageId) ?? 0) + 1);
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          messageId,
          user: (session.user as string | undefined) ?? null,
          ehlo: session.hostNameAppearsAs,
          raw: options.keepRaw === false ? '' : raw,
        });
        if (options.dataDelayMs) setTimeout(() => callback(), options.dataDelayMs);
        else callback();
      });
    },
  });
  // A client that dies mid-conversation (dispatch-workers.test.ts kills a worker in the middle of a
  // batch) resets its socket. smtp-server passes that on as an 'error' event, which unheard would be an
  // uncaught exception in the test process; a real server notes it and carries on.
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    messages,
    counts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
