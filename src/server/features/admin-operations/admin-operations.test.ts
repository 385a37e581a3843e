import { randomUUID } from 'node:crypto';
import { alerts, appLogs, devMailMessages } from '@server/db/schema/index';
import {
  alertingOverviewSchema,
  alertSchema,
  cacheListSchema,
  logSearchResultSchema,
} from '@shared/admin-operations';
import { auditEntriesOf } from '@tests/factories/audit';
import { createUser, TEST_PASSWORD, type TestUser } from '@tests/factories/users';
import { as, createTestApp } from '@tests/setup/test-app';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { evaluateAlertRules } from './alerting.service';
import { pruneAppLogs } from './logs.service';

/*
 * The Logs, Alerting and Cache Monitor APIs on a whole app whose log lines go to the table (stdout
 * silent), with the development mailbox catching the alert mail.
 */

let app: FastifyInstance;
let admin: TestUser;
let owner: TestUser;

beforeAll(async () => {
  app = await createTestApp({ LOG_TABLE_LEVEL: 'info' });
  admin = await createUser(app, { role: 'super_admin' });
  owner = await createUser(app);
});
afterAll(() => app.close());

const asAdmin = () => as(app, admin.cookie);

async function rawRows<T>(query: SQL): Promise<T[]> {
  return ((await app.services.db.execute(query)) as unknown as { rows: T[] }).rows;
}

describe('access', () => {
  const endpoints = [
    { method: 'GET', url: '/api/admin/logs' },
    { method: 'GET', url: '/api/admin/alerting' },
    { method: 'PATCH', url: '/api/admin/alerting/rules/failed_jobs', payload: { threshold: 0 } },
    { method: 'POST', url: `/api/admin/alerting/alerts/${randomUUID()}/acknowledge` },
    { method: 'POST', url: '/api/admin/alerting/evaluate' },
    { method: 'GET', url: '/api/admin/caches' },
    { method: 'POST', url: '/api/admin/caches/tracking-tokens/clear' },
  ] as const;

  it('answers 401 signed out and 403 to a user and a data entry officer, changing nothing', async () => {
    const dataEntry = await createUser(app, { role: 'data_entry' });
    for (const request of endpoints) {
      expect((await app.inject(request)).statusCode, `${request.method} ${request.url}`).toBe(401);
      for (const who of [owner, dataEntry]) {
        const response = await as(app, who.cookie)(request);
        expect(response.statusCode, `${who.user.role} ${request.method} ${request.url}`).toBe(403);
      }
    }
    const overview = alertingOverviewSchema.parse(
      (await asAdmin()({ method: 'GET', url: '/api/admin/alerting' })).json(),
    );
    expect(overview.rules.find((r) => r.key === 'failed_jobs')?.threshold).toBe(5);
    expect(await auditEntriesOf(app, owner.user.id)).toHaveLength(0);
  });
});

describe('Logs', () => {
  it('keeps the lines of a request together under its request id, with route, status and user', async () => {
    const requestId = `req-${randomUUID()}`;
    const response = await as(
      app,
      owner.cookie,
    )({
      method: 'GET',
      url: '/api/user?token=should-not-be-kept',
      headers: { 'x-request-id': requestId },
    });
    expect(response.statusCode).toBe(200);
    await app.services.logSink.flush();

    const found = logSearchResultSchema.parse(
      (await asAdmin()({ method: 'GET', url: `/api/admin/logs?requestId=${requestId}` })).json(),
    );
    expect(found.lines.map((l) => l.msg).sort()).toEqual(['incoming request', 'request completed']);
    const completed = found.lines.find((l) => l.msg === 'request completed');
    expect(completed).toMatchObject({
      requestId,
      method: 'GET',
      route: '/api/user',
      statusCode: 200,
      userId: owner.user.id,
      userEmail: owner.user.email,
      levelName: 'info',
      process: 'web',
    });
    expect(JSON.stringify(found.lines)).not.toContain('should-not-be-kept');

    // The same lines by the user's email, and by route and words.
    const byUser = logSearchResultSchema.parse(
      (
        await asAdmin()({
          method: 'GET',
          url: `/api/admin/logs?user=${encodeURIComponent(owner.user.email)}&route=/api/user&q=completed`,
        })
      ).json(),
    );
    expect(byUser.lines.some((l) => l.requestId === requestId)).toBe(true);
    expect(byUser.lines.every((l) => l.userId === owner.user.id && l.msg.includes('completed'))).toBe(true);
  });

  it('never stores a password, a token or an authorization header', async () => {
    const secret = `S3cret-${randomUUID()}`;
    await app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { authorization: `Bearer auth-${secret}`, cookie: `tambari.session_token=cookie-${secret}` },
      payload: { email: owner.user.email, password: `pw-${secret}` },
    });
    app.log.info(
      { password: `pw-${secret}`, token: `tok-${secret}`, nested: { apiKey: `key-${secret}` } },
      'a careless line',
    );
    app.log.error(
      { err: Object.assign(new Error('insert failed'), { params: [`param-${secret}`] }) },
      'query',
    );
    await app.services.logSink.flush();
    const [{ text } = { text: '' }] = await rawRows<{ text: string }>(
      sql`SELECT string_agg(app_logs::text, ' ') AS text FROM app_logs`,
    );
    expect(text).toContain('a careless line');
    expect(text).not.toContain(secret);
  });

  it('filters by level and time, pages with a cursor, and refuses a reversed range', async () => {
    for (let i = 0; i < 3; i++) app.log.warn({ round: i }, `disk nearly full ${i}`);
    await app.services.logSink.flush();
    const first = logSearchResultSchema.parse(
      (await asAdmin()({ method: 'GET', url: '/api/admin/logs?level=warn&limit=2' })).json(),
    );
    expect(first.lines).toHaveLength(2);
    expect(first.lines.every((l) => l.level >= 40)).toBe(true);
    expect(first.nextCursor).not.toBeNull();
    const second = logSearchResultSchema.parse(
      (
        await asAdmin()({
          method: 'GET',
          url: `/api/admin/logs?level=warn&limit=2&cursor=${first.nextCursor}`,
        })
      ).json(),
    );
    expect(second.lines[0]?.id).not.toBe(first.lines[0]?.id);
    expect(second.lines[0]!.time <= first.lines[1]!.time).toBe(true);

    const future = new Date(Date.now() + 3_600_000).toISOString();
    const none = logSearchResultSchema.parse(
      (await asAdmin()({ method: 'GET', url: `/api/admin/logs?from=${future}` })).json(),
    );
    expect(none.lines).toHaveLength(0);
    const reversed = await asAdmin()({
      method: 'GET',
      url: `/api/admin/logs?from=${future}&to=2020-01-01T00:00:00Z`,
    });
    expect(reversed.statusCode).toBe(400);
  });

  it('prunes lines past the retention and beyond the row cap', async () => {
    const old = new Date(Date.now() - 30 * 86_400_000);
    await app.services.db
      .insert(appLogs)
      .values(
        Array.from({ length: 5 }, (_, i) => ({ time: old, level: 30, process: 'web', msg: `ancient ${i}` })),
      );
    await app.services.db.insert(appLogs).values(
      Array.from({ length: 1_200 }, (_, i) => ({
        time: new Date(),
        level: 30,
        process: 'web',
        msg: `recent ${i}`,
      })),
    );
    const result = await pruneAppLogs({
      db: app.services.db,
      maxRows: 1_000,
      retentionDays: 14,
      sliceSize: 300,
    });
    expect(result.expired).toBeGreaterThanOrEqual(5);
    const [row] = await rawRows<{ n: number; oldest: string }>(
      sql`SELECT count(*)::int AS n, min(time) AS oldest FROM app_logs`,
    );
    expect(Number(row?.n)).toBeLessThanOrEqual(1_000);
    expect(new Date(row!.oldest).getTime()).toBeGreaterThan(old.getTime());
  });
});

describe('Alerting', () => {
  it('opens an alert on a failed job, mails the super admins, and resolves when the condition clears', async () => {
    // A job that failed for good, as a crashed handler leaves it.
    const jobId = await app.services.queue.send(
      'purge-deleted-lists',
      { test: randomUUID() },
      { retryLimit: 0 },
    );
    await app.services.queue.fail('purge-deleted-lists', jobId!, { message: 'Disk full while purging' });

    const patched = await asAdmin()({
      method: 'PATCH',
      url: '/api/admin/alerting/rules/failed_jobs',
      payload: { threshold: 1 },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ key: 'failed_jobs', threshold: 1, updatedBy: admin.user.email });

    const evaluated = await asAdmin()({ method: 'POST', url: '/api/admin/alerting/evaluate' });
    expect(evaluated.statusCode).toBe(200);
    expect(evaluated.json().opened).toBeGreaterThanOrEqual(1);

    const overview = alertingOverviewSchema.parse(
      (await asAdmin()({ method: 'GET', url: '/api/admin/alerting' })).json(),
    );
    const alert = overview.alerts.find((a) => a.ruleKey === 'failed_jobs' && a.state === 'open');
    expect(alert).toBeDefined();
    expect(alert!.message).toContain('purge-deleted-lists');
    expect(alert!.notified).toBeGreaterThanOrEqual(1);
    expect(overview.rules.find((r) => r.key === 'failed_jobs')?.lastValue).toBeGreaterThanOrEqual(1);

    const mail = await vi.waitFor(async () => {
      const [row] = await app.services.db
        .select()
        .from(devMailMessages)
        .where(eq(devMailMessages.toAddress, admin.user.email));
      if (!row) throw new Error('no alert mail yet');
      return row;
    });
    expect(mail.subject).toBe('Tambari alert: Failed jobs');
    expect(mail.text).toContain('purge-deleted-lists');

    // A second evaluation keeps the one alert open and sends no second mail.
    await evaluateAlertRules({ db: app.services.db, mailer: app.services.mailer });
    const active = await app.services.db.select().from(alerts).where(eq(alerts.ruleKey, 'failed_jobs'));
    expect(active.filter((a) => a.state !== 'resolved')).toHaveLength(1);

    const ack = await asAdmin()({
      method: 'POST',
      url: `/api/admin/alerting/alerts/${alert!.id}/acknowledge`,
    });
    expect(ack.statusCode).toBe(200);
    expect(alertSchema.parse(ack.json())).toMatchObject({
      state: 'acknowledged',
      acknowledgedBy: admin.user.email,
    });
    const again = await asAdmin()({
      method: 'POST',
      url: `/api/admin/alerting/alerts/${alert!.id}/acknowledge`,
    });
    expect(again.statusCode).toBe(409);

    // The condition clears (the threshold is now above the failures): the alert resolves by itself.
    await asAdmin()({
      method: 'PATCH',
      url: '/api/admin/alerting/rules/failed_jobs',
      payload: { threshold: 1000 },
    });
    await asAdmin()({ method: 'POST', url: '/api/admin/alerting/evaluate' });
    const [after] = await app.services.db.select().from(alerts).where(eq(alerts.id, alert!.id));
    expect(after?.state).toBe('resolved');
    expect(after?.resolvedAt).not.toBeNull();

    const actions = (await auditEntriesOf(app, admin.user.id)).map((e) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining(['alert_rule.update', 'alert_rules.evaluate', 'alert.acknowledge']),
    );
    const ruleEntry = (await auditEntriesOf(app, admin.user.id)).find(
      (e) => e.action === 'alert_rule.update',
    );
    expect(ruleEntry).toMatchObject({ targetType: 'alert_rule', targetId: 'failed_jobs' });
    expect(ruleEntry?.details).toMatchObject({ before: { threshold: 5 }, after: { threshold: 1 } });
  });

  it('a disabled rule measures nothing and closes its alert; bad input is refused', async () => {
    await asAdmin()({
      method: 'PATCH',
      url: '/api/admin/alerting/rules/database_size',
      payload: { threshold: 0 },
    });
    await evaluateAlertRules({ db: app.services.db });
    const open = await app.services.db.select().from(alerts).where(eq(alerts.ruleKey, 'database_size'));
    expect(open.some((a) => a.state === 'open')).toBe(true);
    const off = await asAdmin()({
      method: 'PATCH',
      url: '/api/admin/alerting/rules/database_size',
      payload: { enabled: false },
    });
    expect(off.json()).toMatchObject({ enabled: false });
    await evaluateAlertRules({ db: app.services.db });
    const closed = await app.services.db.select().from(alerts).where(eq(alerts.ruleKey, 'database_size'));
    expect(closed.every((a) => a.state === 'resolved')).toBe(true);

    for (const payload of [{}, { threshold: -1 }, { threshold: 'high' }]) {
      const bad = await asAdmin()({
        method: 'PATCH',
        url: '/api/admin/alerting/rules/database_size',
        payload,
      });
      expect(bad.statusCode, JSON.stringify(payload)).toBe(400);
    }
    const unknown = await asAdmin()({
      method: 'PATCH',
      url: '/api/admin/alerting/rules/moon_phase',
      payload: { threshold: 1 },
    });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('Cache Monitor', () => {
  it('lists the caches with hits and misses, and clears one (audited)', async () => {
    const token = `unknown${randomUUID().replaceAll('-', '')}`;
    for (let i = 0; i < 3; i++) await app.inject({ method: 'GET', url: `/t/o/${token}.gif` });
    const list = cacheListSchema.parse((await asAdmin()({ method: 'GET', url: '/api/admin/caches' })).json());
    expect(list.process).toBe('web');
    expect(list.caches.map((c) => c.name)).toEqual(
      expect.arrayContaining(['currency-rates', 'directory-stats', 'reference-cities', 'tracking-tokens']),
    );
    const tokens = list.caches.find((c) => c.name === 'tracking-tokens')!;
    expect(tokens.misses).toBeGreaterThanOrEqual(1);
    expect(tokens.hits).toBeGreaterThanOrEqual(2);
    expect(tokens.size).toBeGreaterThanOrEqual(1);
    expect(tokens.oldestEntryAt).not.toBeNull();
    expect(tokens.hitRate).toBeGreaterThan(0);

    const cleared = await asAdmin()({ method: 'POST', url: '/api/admin/caches/tracking-tokens/clear' });
    expect(cleared.statusCode).toBe(200);
    const after = cacheListSchema.parse(
      (await asAdmin()({ method: 'GET', url: '/api/admin/caches' })).json(),
    );
    expect(after.caches.find((c) => c.name === 'tracking-tokens')?.size).toBe(0);
    const entry = (await auditEntriesOf(app, admin.user.id)).find((e) => e.action === 'cache.clear');
    expect(entry).toMatchObject({ targetType: 'cache', targetId: 'tracking-tokens' });

    const missing = await asAdmin()({ method: 'POST', url: '/api/admin/caches/nothing-here/clear' });
    expect(missing.statusCode).toBe(404);
  });
});

// The password the factories use must never be in the table either (it went through /api/login above).
it('keeps no factory password in the log table', async () => {
  await app.services.logSink.flush();
  const rows = await rawRows<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM app_logs WHERE app_logs::text LIKE ${`%${TEST_PASSWORD}%`}`,
  );
  expect(Number(rows[0]?.n)).toBe(0);
});
