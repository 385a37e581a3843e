import { randomUUID } from 'node:crypto';
import { campaigns, newsletters } from '@server/db/schema/index';
import type { JobServices } from '@server/jobs/define-job';
import { JOBS } from '@server/jobs/registry';
import { createSendingCampaign, createSinkAccount, queueForContacts } from '@tests/factories/dispatch';
import { createUser } from '@tests/factories/users';
import { type SmtpSink, startSmtpSink } from '@tests/fakes/smtp-sink';
import { createTestApp } from '@tests/setup/test-app';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { FINISH_NEWSLETTER_SENDS_JOB } from './newsletter-send.service';
import { finishNewsletterSendsJob } from './send-scheduled-newsletters.job';

/*
 * A newsletter is marked 'sent' when its last message has gone, not at the schedule's next minute: the
 * worker's dispatch job (as the registry wires it) asks for the finish job after a drain that sent
 * something. The registry's job drains every user's outbox, as a worker does; on the shared PostgreSQL
 * test database that would take other test files' messages, so this runs on PGlite only (each file has
 * its own database there).
 */
const sharedDatabase = Boolean(inject('databaseUrl'));

describe.skipIf(sharedDatabase)('newsletters: the finish follows the last message', () => {
  let app: FastifyInstance;
  let sink: SmtpSink;

  beforeAll(async () => {
    app = await createTestApp();
    sink = await startSmtpSink({ keepRaw: false });
  });
  afterAll(async () => {
    await sink.close();
    await app.close();
  });

  it("a drain that sends a newsletter's last messages asks for the finish, which marks it sent", async () => {
    const { db, queue } = app.services;
    const { user } = await createUser(app);
    const account = await createSinkAccount(app, user.id, { smtpPort: sink.port, isDevMailbox: false });
    const campaign = await createSendingCampaign(app, user.id, [account], {
      kind: 'newsletter',
      startedAt: new Date(),
    });
    const [newsletter] = await db
      .insert(newsletters)
      .values({
        userId: user.id,
        name: 'November news',
        kind: 'newsletter',
        subject: 'November news',
        status: 'sending',
        campaignId: campaign.id,
        webToken: randomUUID().replaceAll('-', ''),
        sentAt: new Date(),
      })
      .returning({ id: newsletters.id });
    await queueForContacts(app, campaign, 2);

    const dispatch = JOBS.find((job) => job.name === 'dispatch-outbox')!;
    const services: JobServices = {
      ...app.services,
      env: { ...app.services.env, SENDER_NETWORK: 'loopback' },
    };
    const state = dispatch.start!(services, app.log);
    try {
      await dispatch.run({
        services,
        log: app.log,
        payload: {},
        signal: new AbortController().signal,
        state,
      });
    } finally {
      dispatch.stop?.(state);
    }
    expect(sink.messages.length).toBe(2);

    const asked = await queue.fetch(FINISH_NEWSLETTER_SENDS_JOB);
    expect(asked?.length ?? 0).toBe(1);
    await finishNewsletterSendsJob.run({
      services,
      log: app.log,
      payload: {},
      signal: new AbortController().signal,
      state: undefined,
    });
    const [after] = await db.select().from(newsletters).where(eq(newsletters.id, newsletter!.id));
    expect(after!.status).toBe('sent');
    const [engine] = await db.select().from(campaigns).where(eq(campaigns.id, campaign.id));
    expect(engine!.status).toBe('completed');
  });
});
