import type { AddressInfo } from 'node:net';
import type { Database } from '@server/db/client';
import type { FastifyBaseLogger } from 'fastify';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { storeDevMail } from './dev-mailbox.service';

const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

export interface DevMailbox {
  port: number;
  close(): Promise<void>;
}

/**
 * The built-in development mailbox: a real SMTP server on loopback that keeps every message it is
 * given in the database, where a super admin reads it at /admin/dev-mailbox. Nothing leaves the machine.
 */
export async function startDevMailbox(options: {
  db: Database;
  port: number;
  log: FastifyBaseLogger;
}): Promise<DevMailbox> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    // Any login is accepted (loopback only, nothing leaves the machine), so sender accounts that
    // authenticate — the "Tambari test mailbox" one does — work here unchanged.
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username });
    },
    size: MAX_MESSAGE_BYTES,
    banner: 'Tambari development mailbox',
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then(async (parsed) => {
          await storeDevMail({ db: options.db, parsed });
          callback();
        })
        .catch((error: Error) => {
          options.log.error({ err: error }, 'dev mailbox could not store a message');
          callback(error);
        });
    },
  });
  server.on('error', (error) => options.log.error({ err: error }, 'dev mailbox error'));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const address = server.server.address() as AddressInfo;
  return {
    port: address.port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
