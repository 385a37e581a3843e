// The admin data screens at scale: seeds N synthetic directory contacts (default 1,000,000) and as many
// list members spread over 1,000 users' lists, then times through the API as a super admin: an address
// found by prefix and exactly (Contacts), its lookup, the first page of User Lists (rates, imports and
// a 1,000-member sample per list), and EXPLAINs the Contacts queries to show they read indexes only.
import { users } from '@server/db/schema/index';
import { seedDirectory } from '@server/seed/seed-directory';
import { eq, sql } from 'drizzle-orm';
import {
  type BenchDb,
  buildBenchApp,
  formatLatency,
  openBenchDatabase,
  percentile,
  rowsOf,
  signedInBenchUser,
} from './support';

const ROUNDS = 100;
const LISTS = 1_000;

export async function run(options: { db: BenchDb; count?: number }) {
  const count = options.count ?? 1_000_000;
  const bench = await openBenchDatabase(options.db);
  const { database } = bench;
  process.stdout.write(`seeding ${count.toLocaleString('en-US')} directory contacts on ${options.db}…\n`);
  await seedDirectory({ database, count, nodeEnv: 'test' });

  const app = await buildBenchApp(bench);
  const { id: adminId, cookie } = await signedInBenchUser(
    app,
    `bench-admin-${Date.now()}@tambari.test`,
    (id) => app.services.db.update(users).set({ role: 'super_admin' }).where(eq(users.id, id)),
  );

  // As many list members as directory rows, over LISTS lists of one owner each (copies of directory
  // addresses, as "add from lead discovery" makes them).
  process.stdout.write(`seeding ${count.toLocaleString('en-US')} list members in ${LISTS} lists…\n`);
  await database.db.execute(sql`
    INSERT INTO contact_lists (user_id, name)
    SELECT ${adminId}, 'Bench list ' || g FROM generate_series(1, ${LISTS}) g`);
  await database.db.execute(sql`
    INSERT INTO list_contacts (user_id, list_id, email, email_normalized, role_address, source)
    SELECT ${adminId}, l.id, d.email, lower(d.email), false, 'lead_discovery'
    FROM (SELECT email, row_number() OVER () AS n FROM directory_contacts) d
    JOIN (SELECT id, row_number() OVER (ORDER BY id) - 1 AS k FROM contact_lists) l ON l.k = d.n % ${LISTS}`);
  await database.db.execute(sql`ANALYZE`);

  const samples = rowsOf<{ e: string }>(
    await database.db.execute(
      sql`SELECT lower(email) AS e FROM directory_contacts TABLESAMPLE SYSTEM (1) LIMIT ${ROUNDS}`,
    ),
  );
  const time = async (url: string) => {
    const started = performance.now();
    const response = await app.inject({ method: 'GET', url, headers: { cookie } });
    const ms = performance.now() - started;
    if (response.statusCode !== 200)
      throw new Error(`${url} answered ${response.statusCode}: ${response.body}`);
    return ms;
  };
  const prefixMs: number[] = [];
  const exactMs: number[] = [];
  const lookupMs: number[] = [];
  for (const { e } of samples) {
    prefixMs.push(
      await time(`/api/admin/contacts/search?mode=prefix&q=${encodeURIComponent(e.slice(0, 4))}`),
    );
    exactMs.push(await time(`/api/admin/contacts/search?mode=exact&q=${encodeURIComponent(e)}`));
    lookupMs.push(await time(`/api/admin/contacts/lookup?email=${encodeURIComponent(e)}`));
  }
  const listsMs: number[] = [];
  for (let i = 0; i < 10; i++) listsMs.push(await time('/api/admin/user-lists?limit=25'));
  for (const list of [prefixMs, exactMs, lookupMs, listsMs]) list.sort((a, b) => a - b);

  const probe = samples[0]!.e;
  const plans: string[] = [];
  for (const query of [
    sql`EXPLAIN SELECT lower(email) COLLATE "C" AS e, count(*) FROM directory_contacts
        WHERE lower(email) COLLATE "C" >= ${probe.slice(0, 4)} AND lower(email) COLLATE "C" < ${`${probe.slice(0, 3)}${String.fromCharCode(probe.charCodeAt(3) + 1)}`}
        GROUP BY 1 ORDER BY 1 LIMIT 51`,
    sql`EXPLAIN SELECT count(*) FROM list_contacts WHERE email_normalized COLLATE "C" = ${probe}`,
    sql`EXPLAIN SELECT id FROM campaign_contacts WHERE lower(email) = ${probe}`,
    sql`EXPLAIN SELECT 1 FROM suppressions WHERE email_hash = ${'0'.repeat(64)}`,
  ]) {
    const plan = rowsOf<{ 'QUERY PLAN': string }>(await database.db.execute(query));
    plans.push(plan.map((r) => r['QUERY PLAN']).join(' | '));
  }
  const fmt = (list: number[]) => formatLatency(list, [50, 95]);
  process.stdout.write(
    `${count.toLocaleString('en-US')} directory contacts and list members on ${options.db}\n` +
      `  contacts prefix search: ${fmt(prefixMs)}\n` +
      `  contacts exact search:  ${fmt(exactMs)}\n` +
      `  contacts lookup:        ${fmt(lookupMs)}\n` +
      `  user lists, page 1:     ${fmt(listsMs)}\n` +
      `  plans:\n    ${plans.join('\n    ')}\n`,
  );
  await app.close();
  await bench.close();
  return {
    bench: 'admin-data',
    db: options.db,
    contacts: count,
    prefix_p95_ms: Number(percentile(prefixMs, 95).toFixed(1)),
    exact_p95_ms: Number(percentile(exactMs, 95).toFixed(1)),
    lookup_p95_ms: Number(percentile(lookupMs, 95).toFixed(1)),
    user_lists_p95_ms: Number(percentile(listsMs, 95).toFixed(1)),
    // campaign_contacts and suppressions are empty here, so the planner rightly scans them; the
    // directory and list plans are the ones a million rows test.
    directory_and_lists_indexed: plans.slice(0, 2).every((p) => !p.includes('Seq Scan')),
  };
}
