// CSV import throughput: the real import job (streamed parse, row rules, COPY into list_contacts, or into
// the staging table and one INSERT … SELECT) on a generated file with 5% duplicates and 3% invalid rows,
// against a bare COPY of as many rows into a clone of list_contacts with its keys and indexes, in the same
// run. The bare COPY's file holds the same rows with distinct, valid addresses and email_normalized filled
// in, so its unique key and email index do the work the import's inserts do (see bareCopy).
// `npm run bench -- csv-import --db postgres|pglite [--count N]` (default: 100,000 then 1,000,000).
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
  createReadStream,
  createWriteStream,
  mkdtempSync,
  openAsBlob,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { PGlite } from '@electric-sql/pglite';
import { type DatabaseHandle, openDatabase } from '@server/db/client';
import { imports, users } from '@server/db/schema/index';
import { INSPECT_BYTES, inspectHead } from '@server/features/imports/csv-inspect';
import { importContacts } from '@server/features/imports/import-run';
import { createList } from '@server/features/lists/lists.service';
import { seedPricingPlans } from '@server/features/plans/plans.service';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { createBenchDatabase, WORKER_NODE_FLAGS } from './support';

const COLUMNS = [
  'email',
  'first_name',
  'last_name',
  'company',
  'job_title',
  'phone',
  'website',
  'city',
  'country_code',
];
/** The bare COPY's columns: the file's, with the normalised address the import computes. */
const COPY_COLUMNS = ['email', 'email_normalized', ...COLUMNS.slice(1)];
const FIRST = [
  'Ada',
  'Chidi',
  'Ngozi',
  'Kwame',
  'Amara',
  'Tunde',
  'Wanjiru',
  'Thabo',
  'Efua',
  'Bola',
  'Zoë',
  'Yaw',
];
const LAST = ['Obi', 'Eze', 'Mensah', 'Okafor', 'Kamau', 'Dlamini', 'Adeyemi', 'Boateng', 'Nwosu', 'Ndlovu'];
const CITIES: [string, string][] = [
  ['Lagos', 'NG'],
  ['Abuja', 'NG'],
  ['Accra', 'GH'],
  ['Nairobi', 'KE'],
  ['Johannesburg', 'ZA'],
  ['Kano', 'NG'],
];
const TITLES = [
  'CEO',
  'Founder',
  'Head of Sales',
  'Procurement Manager',
  'Marketing Lead',
  'Operations Director',
];

/**
 * N data rows: 5% repeat an earlier address in another case, 3% hold an invalid address. `copyFile` gets
 * the bare COPY's N rows: the same rows, each with its own valid address (the form the valid rows have)
 * and that address as email_normalized.
 */
async function generateFile(
  file: string,
  copyFile: string,
  rows: number,
): Promise<{ duplicates: number; invalid: number }> {
  let duplicates = 0;
  let invalid = 0;
  let copyChunk = '';
  const copyOut = createWriteStream(copyFile);
  const copyWritten = new Promise<void>((resolve, reject) => {
    copyOut.on('finish', resolve);
    copyOut.on('error', reject);
  });
  const writeCopy = async (text: string) => {
    if (!copyOut.write(text)) await new Promise((resolve) => copyOut.once('drain', resolve));
  };
  async function* lines() {
    yield `${COLUMNS.join(',')}\n`;
    await writeCopy(`${COPY_COLUMNS.join(',')}\n`);
    let chunk = '';
    for (let i = 0; i < rows; i++) {
      const bucket = i % 100;
      const first = FIRST[i % FIRST.length]!;
      const last = LAST[(i * 7) % LAST.length]!;
      const [city, country] = CITIES[i % CITIES.length]!;
      let email: string;
      if (bucket < 3) {
        email = `${first.toLowerCase()}.${last.toLowerCase()}.${i}@@example`;
        invalid++;
      } else if (bucket < 8 && i >= 100) {
        // A case variant of an address 50 rows back (bucket 53–57: a valid original, never a copy).
        const j = i - 50;
        email = `${FIRST[j % FIRST.length]!}.${LAST[(j * 7) % LAST.length]!}.${j}@Example.COM`;
        duplicates++;
      } else {
        email = `${first.toLowerCase()}.${last.toLowerCase()}.${i}@example.com`;
      }
      const company = i % 11 === 0 ? `"${last} & Sons, Ltd"` : `${last} Holdings ${i % 997}`;
      const rest = `${first},${last},${company},${TITLES[i % TITLES.length]},+234 80${i % 10} ${String(1_000_000 + (i % 9_000_000)).slice(0, 7)},https://${last.toLowerCase()}${i % 997}.example.com,${city},${country}\n`;
      chunk += `${email},${rest}`;
      const distinct = `${first.toLowerCase()}.${last.toLowerCase()}.${i}@example.com`;
      copyChunk += `${distinct},${distinct},${rest}`;
      if (chunk.length > 1 << 16) {
        yield chunk;
        chunk = '';
        await writeCopy(copyChunk);
        copyChunk = '';
      }
    }
    yield chunk;
    await writeCopy(copyChunk);
    copyOut.end();
  }
  await pipeline(lines, createWriteStream(file));
  await copyWritten;
  return { duplicates, invalid };
}

/**
 * CPU time (µs) of each PostgreSQL backend of this database, from /proc (the database runs on this
 * machine and shares its two cores); null where /proc cannot tell.
 */
async function backendCpu(database: DatabaseHandle): Promise<Map<number, number> | null> {
  if (database.kind !== 'postgres') return null;
  const { rows } = await database.executeSql(
    'SELECT pid FROM pg_stat_activity WHERE datname = current_database()',
  );
  const cpu = new Map<number, number>();
  try {
    for (const row of rows as { pid: number }[]) {
      const stat = readFileSync(`/proc/${row.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // utime and stime, in clock ticks of 1/100 s.
      cpu.set(Number(row.pid), (Number(fields[11]) + Number(fields[12])) * 10_000);
    }
  } catch {
    return null;
  }
  return cpu;
}

/**
 * CPU time (µs) of this process and of the database's backends while `work` runs. Unlike rows/s, CPU
 * per row barely moves when other programs share the machine. A backend that ends during the work is
 * missed (none does here: the pool keeps its connections); one that starts counts whole.
 */
async function withCpu<T>(
  database: DatabaseHandle,
  work: () => Promise<T>,
): Promise<{ result: T; seconds: number; processUs: number; postgresUs: number | null }> {
  const before = await backendCpu(database);
  const usage = process.cpuUsage();
  const started = performance.now();
  const result = await work();
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(usage);
  const after = await backendCpu(database);
  let postgresUs: number | null = null;
  if (before && after) {
    postgresUs = 0;
    for (const [pid, us] of after) postgresUs += us - (before.get(pid) ?? 0);
  }
  return { result, seconds, processUs: used.user + used.system, postgresUs };
}

/**
 * Time (ms) this process's main thread and each backend of the database spent running and waiting for a
 * CPU so far (/proc/<pid>/schedstat); empty where /proc cannot tell.
 */
async function threadTimes(
  database: DatabaseHandle,
): Promise<Map<string, { running: number; waiting: number }>> {
  const times = new Map<string, { running: number; waiting: number }>();
  const pids: [string, string][] = [['node', `/proc/self/task/${process.pid}/schedstat`]];
  if (database.kind === 'postgres') {
    const { rows } = await database.executeSql(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database()',
    );
    for (const row of rows as { pid: number }[])
      pids.push([`backend ${row.pid}`, `/proc/${row.pid}/schedstat`]);
  }
  try {
    for (const [name, file] of pids) {
      const [running, waiting] = readFileSync(file, 'utf8').split(' ').map(Number);
      times.set(name, { running: running! / 1e6, waiting: waiting! / 1e6 });
    }
  } catch {
    times.clear();
  }
  return times;
}

/**
 * Where the import's threads spent its wall time: running, waiting for a CPU (the machine's other load),
 * or idle (waiting for the other side of the pipeline, or for I/O). Whether the pipeline overlaps shows
 * here whatever the load: a backend that is rarely idle while the file is read sets the pace; a busy
 * backend that is often idle waits for this process.
 */
function describeThreads(
  before: Map<string, { running: number; waiting: number }>,
  after: Map<string, { running: number; waiting: number }>,
  wallMs: number,
): string {
  const parts: string[] = [];
  for (const [name, end] of after) {
    const start = before.get(name) ?? { running: 0, waiting: 0 };
    const running = end.running - start.running;
    const waiting = end.waiting - start.waiting;
    // Connections the import hardly used (the bench's own, the pool's spare ones) are left out.
    if (running < wallMs / 50) continue;
    parts.push(
      `${name} ${Math.round(running)} / ${Math.round(waiting)} / ${Math.max(0, Math.round(wallMs - running - waiting))}`,
    );
  }
  return parts.join(', ');
}

/** Samples the resident set size while `work` runs. */
async function withPeakRss<T>(work: () => Promise<T>): Promise<{ result: T; peakRssMb: number }> {
  let peak = process.memoryUsage().rss;
  let atPeak = process.memoryUsage();
  const timer = setInterval(() => {
    // rss() alone is cheap; the full breakdown walks the heap's spaces, so it is taken only at a new peak
    // (taken every 50 ms it cost the import about 1 µs a row of this process's CPU).
    const rss = process.memoryUsage.rss();
    if (rss > peak) {
      peak = rss;
      atPeak = process.memoryUsage();
    }
  }, 50);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    const mb = (bytes: number) => Math.round(bytes / (1024 * 1024));
    process.stdout.write(
      `at the peak: heap used ${mb(atPeak.heapUsed)} MB of ${mb(atPeak.heapTotal)} MB, external ${mb(atPeak.external)} MB (array buffers ${mb(atPeak.arrayBuffers)} MB)\n`,
    );
    return { result, peakRssMb: Math.round(peak / (1024 * 1024)) };
  } finally {
    clearInterval(timer);
  }
}

/**
 * A bare COPY into a clone of list_contacts (defaults and identity; user_id, list_id and source default to
 * the import's), the yardstick of the import:
 * - 'keyed': the clone keeps list_contacts' primary key, unique key and indexes, and the file's N rows have
 *   distinct, valid addresses with email_normalized filled in ("a bare COPY with the same keys and
 *   indexes"): each row goes through the unique key and the email index as an imported row does.
 * - 'null-key': the import's own file into that clone with email_normalized left NULL (the yardstick
 *   before, kept for comparison): the file's duplicates cannot stop it, but NULL keys skip the unique
 *   check and sort to one end of both email indexes, about 2 µs a row of PostgreSQL's work less than
 *   any real insert of an address.
 * - 'unindexed': the import's file into columns only, the lower bound of any write into PostgreSQL.
 */
async function bareCopy(
  database: DatabaseHandle,
  files: { keyed: string; imported: string },
  userId: string,
  listId: string,
  mode: 'keyed' | 'null-key' | 'unindexed',
): Promise<{ seconds: number; processUs: number; postgresUs: number | null }> {
  const scratch = `bench_copy_${randomUUID().replaceAll('-', '')}`;
  await database.executeSql(
    `CREATE TABLE ${scratch} (LIKE list_contacts ${mode === 'unindexed' ? 'INCLUDING DEFAULTS INCLUDING IDENTITY' : 'INCLUDING ALL'});
     ALTER TABLE ${scratch} ALTER COLUMN user_id SET DEFAULT '${userId}', ALTER COLUMN list_id SET DEFAULT '${listId}',
       ALTER COLUMN source SET DEFAULT 'import'${mode === 'keyed' ? '' : ', ALTER COLUMN email_normalized DROP NOT NULL'}`,
  );
  const file = mode === 'keyed' ? files.keyed : files.imported;
  const columns = mode === 'keyed' ? COPY_COLUMNS : COLUMNS;
  const sql = `COPY ${scratch} (${columns.join(', ')}) FROM STDIN WITH (FORMAT csv, HEADER true)`;
  const client = (database.db as unknown as { $client: pg.Pool | PGlite }).$client;
  // The connection is taken before the clock starts, so its backend is counted before and after.
  const connection = database.kind === 'postgres' ? await (client as pg.Pool).connect() : null;
  try {
    const { seconds, processUs, postgresUs } = await withCpu(database, async () => {
      if (connection) await pipeline(createReadStream(file), connection.query(copyFrom(sql)));
      else
        await (client as PGlite).query(sql.replace('STDIN', "'/dev/blob'"), [], {
          blob: await openAsBlob(file),
        });
    });
    await database.executeSql(`DROP TABLE ${scratch}`);
    return { seconds, processUs, postgresUs };
  } finally {
    connection?.release();
  }
}

/**
 * The file is made by a child process, so the garbage of making it does not count in this process's
 * memory; the import runs after a full collection.
 */
function generateInChild(
  file: string,
  copyFile: string,
  rows: number,
): { duplicates: number; invalid: number } {
  const output = execFileSync(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), 'generate', file, copyFile, String(rows)],
    {
      encoding: 'utf8',
    },
  );
  return JSON.parse(output.trim().split('\n').at(-1)!);
}

/** The import runs in a worker process: bench/run.ts runs this file under the worker's V8 flags. */
export const NODE_FLAGS = WORKER_NODE_FLAGS;

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

async function runOnce(database: DatabaseHandle, rows: number, dir: string, kind: string) {
  const file = path.join(dir, `bench-${rows}.csv`);
  const keyedFile = path.join(dir, `bench-${rows}-keyed.csv`);
  const generated = generateInChild(file, keyedFile, rows);
  const size = statSync(file).size;
  process.stdout.write(
    `${kind}: generated ${rows.toLocaleString('en')} rows (${(size / 1e6).toFixed(1)} MB), ${generated.duplicates} duplicates, ${generated.invalid} invalid\n`,
  );

  const userId = `bench-${randomUUID()}`;
  await database.db.insert(users).values({
    id: userId,
    name: 'Bench',
    email: `${userId}@tambari.test`,
    subscriptionPlan: 'enterprise',
    subscriptionStatus: 'active',
    subscriptionCurrentPeriodEnd: new Date(Date.now() + 30 * 86_400_000),
  });
  const list = await createList({ db: database.db, userId, name: `Bench ${rows}` });
  const handle = await open(file, 'r');
  const head = Buffer.alloc(Math.min(size, INSPECT_BYTES));
  await handle.read(head, 0, head.length, 0);
  await handle.close();
  const { lineBreak, ...inspection } = inspectHead({
    head,
    complete: size <= head.length,
    fileSize: size,
    target: 'list',
  });
  const [row] = await database.db
    .insert(imports)
    .values({
      userId,
      target: 'list',
      listId: list.id,
      fileName: path.basename(file),
      filePath: file,
      sizeBytes: size,
      encoding: inspection.encoding,
      delimiter: inspection.delimiter,
      lineBreak,
      hasHeader: inspection.hasHeader,
      inspection,
      estimatedRows: inspection.estimatedRows,
      mapping: inspection.suggestedMapping,
      status: 'queued',
    })
    .returning();

  // The job deletes its file when done: keep a copy for the COPY baseline.
  const copyFile = path.join(dir, `bench-${rows}-copy.csv`);
  await pipeline(createReadStream(file), createWriteStream(copyFile));

  collectGarbage();
  process.stdout.write(
    `${kind}: RSS before the import ${Math.round(process.memoryUsage().rss / (1024 * 1024))} MB\n`,
  );
  let moveMs = 0;
  const log = {
    debug: (details: { ms?: number }, message: string) => {
      if (message === 'final move') moveMs = details.ms ?? 0;
    },
    info: () => {},
    error: (details: unknown, message: string) => process.stderr.write(`${message} ${String(details)}\n`),
    child: () => log,
  } as unknown as FastifyBaseLogger;
  const threadsBefore = await threadTimes(database);
  const {
    result: { result: outcome, peakRssMb },
    seconds,
    processUs,
    postgresUs,
  } = await withCpu(database, () => withPeakRss(() => importContacts({ database, importId: row!.id, log })));
  const threads = describeThreads(threadsBefore, await threadTimes(database), seconds * 1000);
  const [done] = await database.db.select().from(imports).where(eq(imports.id, row!.id));
  if (outcome !== 'completed') throw new Error(`import ended ${outcome}: ${done?.errorMessage}`);
  const expected = rows - generated.duplicates - generated.invalid;
  process.stdout.write(
    `${kind}: import ${seconds.toFixed(2)} s (reading + staging ${(seconds - moveMs / 1000).toFixed(2)} s, final move into list_contacts ${(moveMs / 1000).toFixed(2)} s), ${Math.round(rows / seconds).toLocaleString('en')} rows/s; imported ${done!.importedRows} (expected ${expected}), duplicates ${done!.duplicateRows}, invalid ${done!.invalidRows}, peak RSS ${peakRssMb} MB\n`,
  );
  if (threads) {
    process.stdout.write(
      `${kind}: the import's threads, ms running / waiting for a CPU / idle: ${threads}\n`,
    );
  }
  if (done!.importedRows !== expected || done!.duplicateRows !== generated.duplicates)
    throw new Error('wrong counts');

  const files = { keyed: keyedFile, imported: copyFile };
  const copy = await bareCopy(database, files, userId, list.id, 'keyed');
  const nullKeyCopy = await bareCopy(database, files, userId, list.id, 'null-key');
  const plainCopy = await bareCopy(database, files, userId, list.id, 'unindexed');
  const rate = (s: number) => Math.round(rows / s);
  const perRow = (us: number | null) => (us === null ? null : Number((us / rows).toFixed(1)));
  process.stdout.write(
    `${kind}: bare COPY into list_contacts' clone with its keys and indexes ${copy.seconds.toFixed(2)} s, ${rate(copy.seconds).toLocaleString('en')} rows/s; with NULL email_normalized ${nullKeyCopy.seconds.toFixed(2)} s, ${rate(nullKeyCopy.seconds).toLocaleString('en')} rows/s; into a clone with no index ${plainCopy.seconds.toFixed(2)} s, ${rate(plainCopy.seconds).toLocaleString('en')} rows/s\n`,
  );
  rmSync(copyFile, { force: true });
  rmSync(keyedFile, { force: true });
  rmSync(file, { force: true });
  const rowsPerS = rate(seconds);
  const copyRowsPerS = rate(copy.seconds);
  return {
    bench: 'csv-import',
    db: kind,
    rows,
    rows_per_s: rowsPerS,
    copy_rows_per_s: copyRowsPerS,
    ratio_vs_copy: Number((rowsPerS / copyRowsPerS).toFixed(2)),
    // The yardstick before (email_normalized NULL), for comparison with earlier figures.
    copy_null_key_rows_per_s: rate(nullKeyCopy.seconds),
    ratio_vs_null_key_copy: Number((rowsPerS / rate(nullKeyCopy.seconds)).toFixed(2)),
    copy_unindexed_rows_per_s: rate(plainCopy.seconds),
    peak_rss_mb: peakRssMb,
    // CPU per input row: this process and the PostgreSQL backends, for the import and the indexed COPY.
    cpu_us_per_row: perRow(processUs),
    pg_cpu_us_per_row: perRow(postgresUs),
    copy_cpu_us_per_row: perRow(copy.processUs),
    copy_pg_cpu_us_per_row: perRow(copy.postgresUs),
    copy_null_key_cpu_us_per_row: perRow(nullKeyCopy.processUs),
    copy_null_key_pg_cpu_us_per_row: perRow(nullKeyCopy.postgresUs),
  };
}

export async function run(options: { db: 'pglite' | 'postgres'; count?: number }) {
  const counts = options.count ? [options.count] : [100_000, 1_000_000];
  const dir = mkdtempSync(path.join(tmpdir(), 'tambari-bench-import-'));
  const bench = options.db === 'postgres' ? await createBenchDatabase() : null;
  const database = await openDatabase(
    bench ? { url: bench.url, poolSize: 4 } : { dataDir: path.join(dir, 'pglite') },
  );
  try {
    await database.migrate();
    await seedPricingPlans({ db: database.db });
    let last: Record<string, unknown> = {};
    for (const rows of counts) {
      last = await runOnce(database, rows, dir, options.db);
      if (counts.length > 1) process.stdout.write(`${JSON.stringify(last)}\n`);
    }
    return last;
  } finally {
    await database.close();
    await bench?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (
  process.argv[2] === 'generate' &&
  process.argv[1] &&
  import.meta.url === pathToFileURL(process.argv[1]).href
) {
  const counts = await generateFile(process.argv[3]!, process.argv[4]!, Number(process.argv[5]));
  process.stdout.write(`${JSON.stringify(counts)}\n`);
}
