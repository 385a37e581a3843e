import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/**
 * A receiving mail server on loopback for the email verifier: it knows which mailboxes exist and answers
 * RCPT TO as real ones do — 250 for a mailbox, 550 5.1.1 for none, 452 for a full one, 451 (greylisting)
 * the first time an address is asked — or accepts every address (a catch-all domain).
 */
export interface MailExchangerOptions {
  mailboxes?: string[];
  catchAll?: boolean;
  full?: string[];
  greylist?: boolean;
}

export interface MailExchanger {
  port: number;
  /** RCPT TO addresses asked, in order. */
  asked: string[];
  /** Messages someone tried to send (a verifier must never get this far). */
  dataAttempts: number;
  connections: number;
  close(): Promise<void>;
}

export async function startMailExchanger(options: MailExchangerOptions = {}): Promise<MailExchanger> {
  const mailboxes = new Set((options.mailboxes ?? []).map((m) => m.toLowerCase()));
  const full = new Set((options.full ?? []).map((m) => m.toLowerCase()));
  const greylisted = new Set<string>();
  const state: MailExchanger = { port: 0, asked: [], dataAttempts: 0, connections: 0, close: async () => {} };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onConnect(_session, callback) {
      state.connections++;
      callback();
    },
    onRcptTo(address, _session, callback) {
      const email = address.address.toLowerCase();
      state.asked.push(email);
      const fail = (code: number, message: string) =>
        callback(Object.assign(new Error(message), { responseCode: code }));
      if (options.greylist && !greylisted.has(email)) {
        greylisted.add(email);
        return fail(451, '4.7.1 Greylisted, please try again later');
      }
      if (full.has(email)) return fail(452, '4.2.2 Mailbox full');
      if (options.catchAll || mailboxes.has(email)) return callback();
      return fail(550, '5.1.1 No such user here');
    },
    onData(stream, _session, callback) {
      state.dataAttempts++;
      stream.resume();
      stream.on('end', () => callback());
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.port = (server.server.address() as AddressInfo).port;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}
