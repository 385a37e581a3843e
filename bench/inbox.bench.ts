// The unified inbox at scale: 1,000,000 inbound messages (--count sets it) across 1,000 users, each with
// a sender account, a campaign and 100 contacts, over the last 180 days, a third of them unread and a few
// snoozed. Then times opening a user's inbox through the real app — its first page and its counts, the
// two calls the page makes — for 20 signed-in users, 10 times each, one at a time; and the first page
// of each filter kind (unread, a category, a search).
// Goal (PostgreSQL): opening the inbox p95 ≤ 50 ms. INBOX_BENCH_DATABASE_URL reuses a seeded database.
import type { DatabaseHandle } from '@server/db/client';
import { sql } from 'drizzle-orm';
import {
  type BenchDb,
  buildBenchApp,
  latencyStats,
  loginBenchUser,
  openBenchDatabase,
  registerBenchUser,
  say,
  scalar,
  timedStep,
} from './support';

const USERS = 1_000;
const SIGNED_IN = 20;
const OPENS_PER_USER = 10;
const CONTACTS_PER_USER = 100;

/** Everyone's accounts, campaigns, contacts and mail, written by the database itself. */
async function seed(database: DatabaseHandle, messages: number, realUserIds: string[]) {
  const exec = (text: string) => database.db.execute(sql.raw(text));
  const synthetic = USERS - realUserIds.length;
  await timedStep('users, sender accounts, campaigns, contacts', async () => {
    await exec(`
      INSERT INTO "user" (id, name, email, created_at, updated_at, first_name)
      SELECT 'bench-inbox-' || g, 'Bench ' || g, 'bench-inbox' || g || '@tambari.test', now(), now(), 'Bench'
      FROM generate_series(1, ${synthetic}) g`);
    await exec(`CREATE TEMP TABLE bench_users AS
      SELECT id, row_number() OVER (ORDER BY id) AS n FROM "user"
      WHERE id LIKE 'bench-inbox-%' OR id IN (${realUserIds.map((id) => `'${id}'`).join(',') || "''"})`);
    await exec(`
      INSERT INTO sender_accounts (id, user_id, label, from_name, from_email, postal_address, smtp_host,
        smtp_port, smtp_security, smtp_user, smtp_password_enc)
      SELECT md5('acct' || u.id)::uuid, u.id, 'Sales ' || u.n, 'Ada', 'ada' || u.n || '@sender.test',
        '12 Marina Road, Lagos', 'smtp.sender.test', 587, 'starttls', 'ada', 'sealed'
      FROM bench_users u`);
    await exec(`
      INSERT INTO campaigns (id, user_id, name, status)
      SELECT md5('camp' || u.id)::uuid, u.id, 'Outreach ' || u.n, 'active' FROM bench_users u`);
    await exec(`
      INSERT INTO campaign_contacts (id, campaign_id, user_id, email, first_name, status)
      SELECT md5('contact' || u.id || '-' || c)::uuid, md5('camp' || u.id)::uuid, u.id,
        'lead' || c || '-' || u.n || '@client.test', 'Lead' || c, 'replied'
      FROM bench_users u, generate_series(1, ${CONTACTS_PER_USER}) c`);
  });
  await timedStep(`${messages.toLocaleString('en-US')} inbound messages`, async () => {
    const perUser = Math.ceil(messages / USERS);
    await exec(`
      INSERT INTO inbound_messages (user_id, sender_account_id, campaign_id, campaign_contact_id, kind,
        message_id_header, from_address, subject, text_body, received_at, category, category_source,
        read_at, snoozed_until)
      SELECT u.id, md5('acct' || u.id)::uuid, md5('camp' || u.id)::uuid,
        md5('contact' || u.id || '-' || (1 + m % ${CONTACTS_PER_USER}))::uuid,
        (ARRAY['reply','reply','reply','out_of_office','bounce_hard','unsubscribe_request','other'])[1 + m % 7],
        'bench-' || u.n || '-' || m || '@client.test',
        'lead' || (1 + m % ${CONTACTS_PER_USER}) || '-' || u.n || '@client.test',
        'Re: Deliveries between Kano and Lagos ' || (m % 50),
        'Thanks for your message. ' || repeat('We move goods every week and would like to know more. ', 4) || m,
        now() - (m * interval '15 minutes') - (u.n * interval '1 second'),
        (ARRAY['interested','question','not_now','out_of_office','bounce','unsubscribe_request','auto_reply'])[1 + m % 7],
        'rule',
        CASE WHEN m % 3 = 0 THEN NULL ELSE now() END,
        CASE WHEN m % 97 = 0 THEN now() + interval '2 days' ELSE NULL END
      FROM bench_users u, generate_series(1, ${perUser}) m`);
  });
  // As autovacuum leaves a settled table: statistics, and the visibility map index-only scans rely on.
  await timedStep('vacuum analyze', () => exec('VACUUM ANALYZE inbound_messages'));
}

export async function run(options: { db: BenchDb; count?: number }) {
  const messages = options.count ?? 1_000_000;
  const bench = await openBenchDatabase(options.db, { reuseUrlEnv: 'INBOX_BENCH_DATABASE_URL' });
  const { database } = bench;
  const app = await buildBenchApp(bench);

  const existing = await scalar(database, sql`SELECT count(*) FROM inbound_messages`);
  const cookies: string[] = [];
  const emails = Array.from({ length: SIGNED_IN }, (_, i) => `bench-inbox-real-${i}@tambari.test`);
  if (existing < messages) {
    say(`seeding on ${options.db}…`);
    const ids: string[] = [];
    for (const email of emails) ids.push(await registerBenchUser(app, email));
    await seed(database, messages, ids);
  } else {
    say('reusing the seeded database');
  }
  for (const email of emails) cookies.push(await loginBenchUser(app, email));
  const total = await scalar(database, sql`SELECT count(*) FROM inbound_messages`);
  const users = await scalar(database, sql`SELECT count(DISTINCT user_id) FROM inbound_messages`);
  say(`${total.toLocaleString('en-US')} inbound messages across ${users} users`);

  const get = async (cookie: string, url: string) => {
    const response = await app.inject({ method: 'GET', url, headers: { cookie } });
    if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
    return response;
  };
  const measure = async (label: string, task: (cookie: string) => Promise<unknown>) => {
    const timings: number[] = [];
    for (const cookie of cookies) await task(cookie); // warm the plan cache and the session cache
    // The app process's CPU time per call: less at the mercy of a busy machine than the wall clock.
    const cpuBefore = process.cpuUsage();
    for (let round = 0; round < OPENS_PER_USER; round++) {
      for (const cookie of cookies) {
        const started = performance.now();
        await task(cookie);
        timings.push(performance.now() - started);
      }
    }
    const cpu = process.cpuUsage(cpuBefore);
    const cpuMs = Math.round(((cpu.user + cpu.system) / 1000 / timings.length) * 10) / 10;
    const { p50, p95 } = latencyStats(timings);
    say(`${label}: p50 ${p50} ms, p95 ${p95} ms, app CPU ${cpuMs} ms a call (${timings.length} calls)`);
    return { p50, p95, cpuMs };
  };

  const firstPage = (await get(cookies[0]!, '/api/inbox')).json<{ items: unknown[] }>();
  if (firstPage.items.length === 0) throw new Error('the signed-in users have no inbox');
  const open = await measure('open the inbox (first page + counts)', async (cookie) => {
    await Promise.all([get(cookie, '/api/inbox'), get(cookie, '/api/inbox/counts')]);
  });
  const list = await measure('first page', (cookie) => get(cookie, '/api/inbox'));
  const counts = await measure('counts', (cookie) => get(cookie, '/api/inbox/counts'));
  const unread = await measure('unread', (cookie) => get(cookie, '/api/inbox?status=unread'));
  const category = await measure('one category', (cookie) => get(cookie, '/api/inbox?category=not_now'));
  const search = await measure('search', (cookie) => get(cookie, '/api/inbox?q=Lagos%2049'));

  await app.close();
  await bench.close();
  return {
    bench: 'inbox',
    db: options.db,
    inbound_messages: total,
    users,
    open_p50_ms: open.p50,
    open_p95_ms: open.p95,
    open_app_cpu_ms: open.cpuMs,
    first_page_p95_ms: list.p95,
    counts_p95_ms: counts.p95,
    unread_p95_ms: unread.p95,
    category_p95_ms: category.p95,
    search_p95_ms: search.p95,
  };
}
