// A dispatcher in its own process, for the tests that run several workers or kill one mid-batch. It
// drains the outbox of the given database into the SMTP sink on the given port until it is killed or
// nothing is due, then exits.
// argv: <databaseUrl> <sinkPort> <encryptionKeyHex> <batchSize> <userId> [clockOffsetMs]
// clockOffsetMs moves this process's clock like the test's own advanceClock (a restart "later").
import { randomUUID } from 'node:crypto';
import { openDatabase } from '@server/db/client';
import { scheduleNextSteps } from '@server/features/campaigns/campaigns.service';
import { drainOutbox } from '@server/features/sending/dispatch';
import { createTransportCache } from '@server/features/sending/transport-cache';
import { advanceClock } from '@server/lib/clock';
import pino from 'pino';

const [databaseUrl, sinkPort, keyHex, batchSize, userId, clockOffsetMs] = process.argv.slice(2);
if (clockOffsetMs) advanceClock(Number(clockOffsetMs));
const database = await openDatabase({ url: databaseUrl!, poolSize: 4 });
const transports = createTransportCache({
  encryptionKey: Buffer.from(keyHex!, 'hex'),
  network: 'loopback',
  devMailboxPort: Number(sinkPort),
});
const ctx = {
  db: database.db,
  env: {
    APP_URL: 'http://localhost:3000',
    SEND_LEASE_SECONDS: 120,
    DISPATCH_BATCH_SIZE: Number(batchSize),
    DISPATCH_CONCURRENCY: 1,
  },
  mailer: { send: async () => {}, close: () => {} },
  queue: null,
  transports,
  log: pino({ level: 'silent' }),
  workerId: `child-${process.pid}-${randomUUID().slice(0, 6)}`,
  onStepMessagesSent: scheduleNextSteps,
  onlyUserId: userId,
};
process.stdout.write('ready\n');
for (;;) {
  const summary = await drainOutbox(ctx, { maxMs: 60_000 });
  if (summary.claimed === 0) break;
}
transports.closeAll();
await database.close();
process.stdout.write('done\n');
