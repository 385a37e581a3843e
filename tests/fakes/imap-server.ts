import { createRequire } from 'node:module';
import type { AddressInfo, Server } from 'node:net';
import { ImapFlow } from 'imapflow';

/*
 * A real IMAP server on loopback for tests: hoodiecrow-imap (a scriptable IMAP4rev1 server by the
 * nodemailer author), one user (testuser / testpass), everything in memory. imapflow talks to it as it
 * talks to Gmail or Dovecot.
 */

interface HoodiecrowMessage {
  raw: string;
  internaldate?: Date | string;
  flags?: string[];
  uid?: number;
}

type FetchHandler = (connection: unknown, message: unknown, query: { partial?: number[] }) => unknown;

interface HoodiecrowServer {
  server: Server;
  fetchHandlers: Record<string, FetchHandler>;
  listen(port: number, host: string, callback: () => void): void;
  close(callback: () => void): void;
  appendMessage(
    mailbox: string,
    flags: string[],
    internaldate: Date,
    raw: string,
  ): { message: { uid: number } };
  getMailbox(path: string): { messages: HoodiecrowMessage[] };
}

const require = createRequire(import.meta.url);
const hoodiecrow = require('hoodiecrow-imap') as (options: Record<string, unknown>) => HoodiecrowServer;
const builtInFetchHandlers = require('hoodiecrow-imap/lib/commands/handlers/fetch') as Record<
  string,
  FetchHandler
>;

/**
 * Hoodiecrow shortens a partial fetch's `<0.N>` to `<0>` in place when the first message is shorter than
 * N, so every later message of the same FETCH comes back empty. Real servers do not; give each message
 * its own copy of the query.
 */
function partialFetchPerMessage(server: HoodiecrowServer): void {
  for (const key of ['BODY', 'BODY.PEEK']) {
    const original = builtInFetchHandlers[key]!;
    server.fetchHandlers[key] = (connection, message, query) =>
      original(connection, message, { ...query, partial: query.partial ? [...query.partial] : undefined });
  }
}

export const IMAP_TEST_USER = { user: 'testuser', pass: 'testpass' } as const;

export interface TestImapServer {
  port: number;
  /** Adds a message to INBOX as a delivery would; returns its UID. */
  append(raw: string, internalDate?: Date): number;
  /** The flags each INBOX message carries now, by UID. */
  flags(): Map<number, string[]>;
  /** The messages of another mailbox (a Sent folder), raw, with their flags. */
  mailbox(path: string): { raw: string; flags: string[] }[];
  /** An unconnected client for this server, as the app's openImapClient returns one. */
  client(auth?: { user: string; pass: string }): ImapFlow;
  close(): Promise<void>;
}

export async function startImapServer(options: {
  uidValidity: number;
  messages: { raw: string; internalDate?: Date }[];
  /**
   * Mailboxes besides INBOX, e.g. `{ 'Sent Items': { specialUse: '\\Sent' } }` (RFC 6154 SPECIAL-USE,
   * as Dovecot and Exchange announce their Sent folder) or `{ Sent: {} }` (a server without it).
   */
  folders?: Record<string, { specialUse?: string }>;
}): Promise<TestImapServer> {
  const folders = Object.fromEntries(
    Object.entries(options.folders ?? {}).map(([name, folder]) => [
      name,
      { ...(folder.specialUse ? { 'special-use': folder.specialUse } : {}), messages: [] },
    ]),
  );
  const server = hoodiecrow({
    plugins: ['ID', 'UNSELECT', 'ENABLE', 'IDLE', 'SPECIAL-USE', partialFetchPerMessage],
    storage: {
      INBOX: {
        uidvalidity: options.uidValidity,
        messages: options.messages.map((m) => ({ raw: m.raw, internaldate: m.internalDate ?? new Date() })),
      },
      '': { folders },
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    append: (raw, internalDate = new Date()) =>
      server.appendMessage('INBOX', [], internalDate, raw).message.uid,
    flags: () =>
      new Map(server.getMailbox('INBOX').messages.map((m) => [m.uid ?? 0, [...(m.flags ?? [])]] as const)),
    mailbox: (path) =>
      server.getMailbox(path).messages.map((m) => ({ raw: m.raw, flags: [...(m.flags ?? [])] })),
    client: (auth = IMAP_TEST_USER) =>
      new ImapFlow({
        host: '127.0.0.1',
        port,
        secure: false,
        auth: { ...auth },
        logger: false,
        disableAutoIdle: true,
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
