import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { senderAccounts } from './sending';

/**
 * Which worker holds a sender account's IMAP IDLE connection (features/inbound/imap-idle.ts). A worker
 * renews its leases while it runs and deletes them when it stops; a lease that ran out (a dead worker)
 * is taken over by another, so exactly one connection per account stays open.
 */
export const imapIdleLeases = pgTable(
  'imap_idle_leases',
  {
    senderAccountId: uuid('sender_account_id')
      .primaryKey()
      .references(() => senderAccounts.id, { onDelete: 'cascade' }),
    owner: text('owner').notNull(),
    leaseUntil: timestamp('lease_until', { withTimezone: true }).notNull(),
  },
  (t) => [index('imap_idle_leases_owner_idx').on(t.owner)],
);
