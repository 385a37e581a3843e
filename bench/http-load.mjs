// The load generator of bench/tracking, run in its own process (forked with IPC) so it does not share
// the server's event loop: it receives autocannon options as a message and answers with the result.
import autocannon from 'autocannon';

process.once('message', async (options) => {
  try {
    const cpuBefore = process.cpuUsage();
    const result = await autocannon(options);
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
