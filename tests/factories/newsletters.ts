import { randomUUID } from 'node:crypto';
import { campaigns, newsletters } from '@server/db/schema/index';
import type { FastifyInstance } from 'fastify';

/**
 * A newsletter being sent (status 'sending', its campaign active since `at`), written straight to the
 * database: what the finish's tests give their recipients to.
 */
export async function insertSendingNewsletter(app: FastifyInstance, userId: string, at: Date) {
  const db = app.services.db;
  const [campaign] = await db
    .insert(campaigns)
    .values({ userId, name: 'News', kind: 'newsletter', status: 'active', startedAt: at })
    .returning({ id: campaigns.id });
  const [newsletter] = await db
    .insert(newsletters)
    .values({
      userId,
      name: 'News',
      kind: 'newsletter',
      subject: 'News',
      status: 'sending',
      campaignId: campaign!.id,
      webToken: randomUUID().replaceAll('-', ''),
      sentAt: at,
    })
    .returning({ id: newsletters.id });
  return { campaignId: campaign!.id, newsletterId: newsletter!.id };
}
