import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Messages caught by the built-in development SMTP server (no real SMTP configured). */
export const devMailMessages = pgTable(
  'dev_mail_message',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    fromAddress: text('from_address').notNull(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull().default(''),
    html: text('html'),
    text: text('text'),
    headers: jsonb('headers').$type<{ key: string; value: string }[]>().notNull().default([]),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('dev_mail_message_received_at_idx').on(t.receivedAt),
    index('dev_mail_message_to_idx').on(t.toAddress),
  ],
);
