// Authenticated request cost: GET /api/user (session cookie looked up in the database) against the bare
// /api/health route, over real HTTP on loopback, in the same run. Also sign-in throughput (argon2id).
import type { AddressInfo } from 'node:net';
import {
  BENCH_PASSWORD,
  type BenchDb,
  buildBenchApp,
  createBenchDatabase,
  load,
  percentile,
} from './support';

export async function run(options: { db: BenchDb; count?: number }) {
  const requests = options.count ?? 2000;
  const bench = options.db === 'postgres' ? await createBenchDatabase() : null;
  // The app opens its own database (in-memory PGlite without a URL).
  const app = await buildBenchApp({ url: bench?.url });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const json = { 'content-type': 'application/json' };

  const users = 20;
  const cookies: string[] = [];
  for (let i = 0; i < users; i++) {
    const email = `bench-${i}-${Date.now()}@tambari.test`;
    const res = await fetch(`${base}/api/register`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email, password: BENCH_PASSWORD, firstName: 'Bench' }),
    });
    cookies.push(res.headers.getSetCookie()[0]!.split(';')[0]!);
  }
  process.stdout.write(`registered ${users} users on ${options.db}\n`);

  const concurrency = 16;
  const health = await load(requests, concurrency, async () => {
    await (await fetch(`${base}/api/health`)).arrayBuffer();
  });
  const user = await load(requests, concurrency, async (i) => {
    const res = await fetch(`${base}/api/user`, { headers: { cookie: cookies[i % users]! } });
    if (res.status !== 200) throw new Error(`GET /api/user answered ${res.status}`);
    await res.arrayBuffer();
  });
  const logins = Math.min(200, requests);
  const login = await load(logins, 4, async (i) => {
    const res = await fetch(`${base}/api/login`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email: `nobody-${i}@tambari.test`, password: 'Wrong-pass-1' }),
    });
    await res.arrayBuffer();
  });
  process.stdout.write(
    `GET /api/health: ${health.perSecond} req/s, p95 ${percentile(health.timings, 95).toFixed(1)} ms\n` +
      `GET /api/user:   ${user.perSecond} req/s, p50 ${percentile(user.timings, 50).toFixed(1)} ms, p95 ${percentile(user.timings, 95).toFixed(1)} ms\n` +
      `POST /api/login (unknown email): ${login.perSecond} req/s\n`,
  );
  await app.close();
  await bench?.drop();
  return {
    bench: 'auth',
    db: options.db,
    requests,
    concurrency,
    health_rps: health.perSecond,
    user_rps: user.perSecond,
    user_p50_ms: Number(percentile(user.timings, 50).toFixed(2)),
    user_p95_ms: Number(percentile(user.timings, 95).toFixed(2)),
    ratio_vs_health: Number((user.perSecond / health.perSecond).toFixed(2)),
    failed_login_rps: login.perSecond,
    peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
  };
}
