import { connect, type Socket } from 'node:net';

/*
 * The SMTP conversation a verifier has with a receiving server: EHLO, MAIL FROM, one RCPT TO per address,
 * QUIT. Never DATA, so nothing is ever delivered. Addresses of one domain share one connection (servers
 * take up to 100 recipients per transaction); the answers to RCPT TO are the evidence.
 */

export interface SmtpReply {
  code: number;
  text: string;
}

export type ProbeOutcome =
  | { kind: 'answered'; replies: Map<string, SmtpReply> }
  /** Connection refused, timed out, or the server refused the conversation before RCPT (421, 554…). */
  | { kind: 'failed'; reason: 'unreachable' | 'blocked'; reply?: SmtpReply; message: string };

export interface ProbeOptions {
  host: string;
  port: number;
  heloName: string;
  mailFrom: string;
  recipients: string[];
  timeoutMs: number;
}

/** Reads complete SMTP replies (multi-line "250-…" continued until "250 …") off a socket. */
class ReplyReader {
  private buffer = '';
  private lines: string[] = [];
  private waiting: { resolve: (reply: SmtpReply) => void; reject: (error: Error) => void } | null = null;
  private failure: Error | null = null;

  constructor(socket: Socket) {
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      let newline = this.buffer.indexOf('\n');
      while (newline >= 0) {
        const line = this.buffer.slice(0, newline).replace(/\r$/, '');
        this.buffer = this.buffer.slice(newline + 1);
        this.lines.push(line);
        if (/^\d{3} /.test(line) || /^\d{3}$/.test(line)) this.flush();
        newline = this.buffer.indexOf('\n');
      }
      if (this.buffer.length > 64_000) this.fail(new Error('reply too long'));
    });
    socket.on('error', (error) => this.fail(error));
    socket.on('close', () => this.fail(new Error('connection closed')));
  }

  private replies: SmtpReply[] = [];

  private flush() {
    const last = this.lines[this.lines.length - 1]!;
    const reply = {
      code: Number(last.slice(0, 3)),
      text: this.lines
        .map((l) => l.slice(4))
        .join(' ')
        .trim(),
    };
    this.lines = [];
    if (this.waiting) {
      this.waiting.resolve(reply);
      this.waiting = null;
    } else this.replies.push(reply);
  }

  private fail(error: Error) {
    this.failure ??= error;
    if (this.waiting) {
      this.waiting.reject(error);
      this.waiting = null;
    }
  }

  next(): Promise<SmtpReply> {
    const queued = this.replies.shift();
    if (queued) return Promise.resolve(queued);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
    });
  }
}

export async function probeRecipients(options: ProbeOptions): Promise<ProbeOutcome> {
  const socket = connect({ host: options.host, port: options.port });
  socket.setTimeout(options.timeoutMs, () => socket.destroy(new Error('timed out')));
  const reader = new ReplyReader(socket);
  const send = async (line: string) => {
    socket.write(`${line}\r\n`);
    return reader.next();
  };
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    const greeting = await reader.next();
    if (greeting.code !== 220) {
      return { kind: 'failed', reason: 'blocked', reply: greeting, message: `greeting ${greeting.code}` };
    }
    let hello = await send(`EHLO ${options.heloName}`);
    if (hello.code !== 250) hello = await send(`HELO ${options.heloName}`);
    if (hello.code !== 250)
      return { kind: 'failed', reason: 'blocked', reply: hello, message: `EHLO ${hello.code}` };
    const from = await send(`MAIL FROM:<${options.mailFrom}>`);
    if (from.code !== 250)
      return { kind: 'failed', reason: 'blocked', reply: from, message: `MAIL FROM ${from.code}` };
    const replies = new Map<string, SmtpReply>();
    for (const recipient of options.recipients) {
      const reply = await send(`RCPT TO:<${recipient}>`);
      replies.set(recipient, reply);
      // 421: the server is closing the connection; what is left stays unanswered.
      if (reply.code === 421) break;
    }
    socket.write('QUIT\r\n');
    return { kind: 'answered', replies };
  } catch (error) {
    return { kind: 'failed', reason: 'unreachable', message: (error as Error).message };
  } finally {
    socket.end();
    socket.destroy();
  }
}
