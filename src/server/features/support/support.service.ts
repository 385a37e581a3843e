import type { Database } from '@server/db/client';
import { contactMessages } from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import { notFound } from '@server/lib/errors';
import type { SystemMailer } from '@server/lib/mailer';
import { escapeHtml } from '@shared/newsletter-render';
import {
  CONTACT_TOPIC_LABELS,
  type ContactMessage,
  type ContactMessageInput,
  type ContactMessageList,
  type ContactTopic,
} from '@shared/support';
import { count, desc, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type AuditActor, recordAuditEntry } from '../admin/audit.service';

type Row = typeof contactMessages.$inferSelect;

function toDto(row: Row): ContactMessage {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    topic: row.topic as ContactTopic,
    message: row.message,
    status: row.status === 'handled' ? 'handled' : 'new',
    userId: row.userId,
    createdAt: row.createdAt.toISOString(),
    handledAt: row.handledAt?.toISOString() ?? null,
  };
}

/**
 * Stores a message from /contact and mails the sender a copy. A filled-in honeypot is a robot: nothing
 * is stored or sent, and the caller answers exactly as for a person so the robot learns nothing.
 */
export async function submitContactMessage(options: {
  db: Database;
  mailer: SystemMailer;
  log?: Pick<FastifyBaseLogger, 'info' | 'warn'>;
  input: ContactMessageInput;
  userId: string | null;
  ipAddress: string | null;
}): Promise<{ stored: boolean }> {
  const { db, input } = options;
  if (input.website && input.website.trim() !== '') {
    options.log?.info({ ip: options.ipAddress }, 'contact form honeypot filled: message dropped');
    return { stored: false };
  }
  const [row] = await db
    .insert(contactMessages)
    .values({
      name: input.name,
      email: input.email,
      topic: input.topic,
      message: input.message,
      userId: options.userId,
      ipAddress: options.ipAddress,
    })
    .returning();
  const topic = CONTACT_TOPIC_LABELS[input.topic];
  const lines = [
    'Thank you for writing to Tambari. Your message has reached our team, and we answer within one working day.',
    `Topic: ${topic}`,
    'Your message:',
  ];
  // The confirmation must not turn a stored message into an error for the sender.
  await options.mailer
    .send({
      to: input.email,
      subject: 'We received your message',
      text: [`Hello ${input.name},`, '', ...lines, '', input.message].join('\n'),
      html: [
        `<p>Hello ${escapeHtml(input.name)},</p>`,
        ...lines.map((line) => `<p>${escapeHtml(line)}</p>`),
        `<blockquote style="white-space:pre-wrap">${escapeHtml(input.message)}</blockquote>`,
      ].join(''),
    })
    .catch((error: unknown) => {
      options.log?.warn({ err: error, id: row?.id }, 'contact confirmation email could not be sent');
    });
  return { stored: true };
}

export async function listContactMessages(options: {
  db: Database;
  status: 'new' | 'handled' | 'all';
  limit?: number;
}): Promise<ContactMessageList> {
  const { db } = options;
  const rows = await db
    .select()
    .from(contactMessages)
    .where(options.status === 'all' ? undefined : eq(contactMessages.status, options.status))
    .orderBy(desc(contactMessages.createdAt))
    .limit(options.limit ?? 200);
  const [fresh] = await db
    .select({ n: count() })
    .from(contactMessages)
    .where(eq(contactMessages.status, 'new'));
  return { messages: rows.map(toDto), newCount: Number(fresh?.n ?? 0) };
}

export async function setContactMessageStatus(options: {
  db: Database;
  actor: AuditActor;
  id: string;
  status: 'new' | 'handled';
}): Promise<ContactMessage> {
  const { db } = options;
  const [row] = await db
    .update(contactMessages)
    .set({ status: options.status, handledAt: options.status === 'handled' ? now() : null })
    .where(eq(contactMessages.id, options.id))
    .returning();
  if (!row) throw notFound('Message not found');
  await recordAuditEntry({
    db,
    actor: options.actor,
    action: options.status === 'handled' ? 'contact_message.handled' : 'contact_message.reopened',
    targetType: 'contact_message',
    targetId: row.id,
  });
  return toDto(row);
}
