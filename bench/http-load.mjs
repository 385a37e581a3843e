// The load generator of bench/tracking, run in its own process (forked with IPC) so it does not share
// the server's event loop: it receives autocannon options as a message and answers with the result.
import autocannon from 'autocannon';

/**
 * Each connection gets its own contiguous share of `requests` instead of all of them. autocannon
 * deep-clones the options and prebuilds every request for every connection after its clock has started:
 * 2,000 distinct requests × 50 connections spent ~0.75 s of a ~7.5 s run building 100,000 buffers,
 * with nothing sent meanwhile. Every request is still sent, in the same order within each share.
 */
function sharedOutRequests(options) {
  const { requests, connections } = options;
  if (!Array.isArray(requests) || requests.length <= connections) return options;
  const share = Math.ceil(requests.length / connections);
  let nextClient = 0;
  return {
    ...options,
    requests: requests.slice(0, 1),
    setupClient(client) {
      const start = (nextClient++ % connections) * share;
      const mine = requests.slice(start, start + share);
      client.setRequests(mine.length > 0 ? mine : requests.slice(0, share));
    },
  };
}

process.once('message', async (options) => {
  try {
    const cpuBefore = process.cpuUsage();
    const result = await autocannon(sharedOutRequests(options));
    const cpu = process.cpuUsage(cpuBefore);
    const responses = result['1xx'] + result['2xx'] + result['3xx'] + result['4xx'] + result['5xx'];
    process.send(
      {
        ok: true,
        responses,
        ok2xx: result['2xx'],
        ok3xx: result['3xx'],
        other: result['1xx'] + result['4xx'] + result['5xx'],
        errors: result.errors,
        timeouts: result.timeouts,
        durationS: result.duration,
        p50Ms: result.latency.p50,
        p99Ms: result.latency.p99,
        loaderCpuUs: cpu.user + cpu.system,
      },
      () => process.exit(0),
    );
  } catch (error) {
    process.send({ ok: false, message: String(error?.stack ?? error) }, () => process.exit(1));
  }
});
