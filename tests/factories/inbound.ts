import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { campaignContacts, emailEvents, inboundMessages, outboxMessages } from '@server/db/schema/index';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';

/*
 * Inbound mail for tests: the fixture messages under tests/fixtures/inbound/ made to answer a message a
 * test created (its Message-ID swapped in), each with a Message-ID of its own so re-runs on the shared
 * PostgreSQL database never collide.
 */

export function inboundFixture(name: string): string {
  return readFileSync(new URL(`../fixtures/inbound/${name}`, import.meta.url), 'utf8');
}

/** Fixtures refer to their original as `<orig-…@kano-logistics.test>`. */
const FIXTURE_ORIGINAL = /orig-[a-z0-9-]+@kano-logistics\.test/g;

export function answerTo(
  name: string,
  options: { messageId: string; token?: string; ownMessageId?: string },
): string {
  let raw = inboundFixture(name).replace(FIXTURE_ORIGINAL, options.messageId);
  if (options.token)
    raw = raw.replace(/^Subject: unsubscribe \S+$/m, `Subject: unsubscribe ${options.token}`);
  const own = options.ownMessageId ?? `<test-${randomUUID()}@inbound.test>`;
  // The first Message-ID line is the fixture's own (those of quoted originals come after the body starts).
  return raw.replace(/^Message-I[Dd]:(?:[ \t]*\n[ \t]+|[ \t]*)<[^>]+>/m, `Message-ID: ${own}`);
}

export async function eventsOf(app: FastifyInstance, outboxMessageId: string) {
  return app.services.db.select().from(emailEvents).where(eq(emailEvents.outboxMessageId, outboxMessageId));
}

export async function contactRow(app: FastifyInstance, id: string) {
  const [row] = await app.services.db.select().from(campaignContacts).where(eq(campaignContacts.id, id));
  return row!;
}

export async function outboxRow(app: FastifyInstance, id: string) {
  const [row] = await app.services.db.select().from(outboxMessages).where(eq(outboxMessages.id, id));
  return row!;
}

export async function inboundFor(app: FastifyInstance, outboxMessageId: string) {
  return app.services.db
    .select()
    .from(inboundMessages)
    .where(eq(inboundMessages.outboxMessageId, outboxMessageId));
}
