import { performance } from 'node:perf_hooks';

const t0 = performance.now();
const { PGlite } = await import('@electric-sql/pglite');
const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
const t1 = performance.now();
const c = new PGlite({ extensions: { pg_trgm } });
await c.waitReady;
const t2 = performance.now();
await c.exec('CREATE EXTENSION IF NOT EXISTS pg_trgm; create table x(a int)');
const dump = await c.dumpDataDir('none');
const t3 = performance.now();
const c2 = new PGlite({ extensions: { pg_trgm }, loadDataDir: dump });
await c2.waitReady;
const t4 = performance.now();
console.log((await c2.query('select count(*) from x')).rows, {
  import: t1 - t0,
  init: t2 - t1,
  dump: t3 - t2,
  load: t4 - t3,
  size: dump.size,
});
