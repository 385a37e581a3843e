// `npm run bench -- verification [--count N]`: the email verifier's engine against 50 receiving mail servers
// on loopback (real SMTP servers answering RCPT TO: existing mailboxes, unknown ones, and catch-all
// domains). In life verification waits on the network; this shows the engine itself is not the limit.
// Goal: ≥ 200 addresses/s. No database: the verdicts are computed, not stored.

import { type MailHost, verifyAddresses } from '@server/features/verification/verify-addresses';
import { startMailExchanger } from '@tests/fakes/mail-exchanger';

const DOMAINS = 50;

export async function run(options: { count?: number }): Promise<Record<string, unknown>> {
  const count = options.count ?? 10_000;
  const perDomain = Math.ceil(count / DOMAINS);
  const hosts = new Map<string, MailHost[]>();
  const servers = [];
  const emails: string[] = [];
  for (let d = 0; d < DOMAINS; d++) {
    const domain = `company${d}.co.ke`;
    const mailboxes = Array.from({ length: perDomain }, (_, i) => `person${i}@${domain}`);
    // Every fifth domain accepts anything (catch-all); elsewhere one address in four does not exist.
    const server = await startMailExchanger({
      catchAll: d % 5 === 0,
      mailboxes: mailboxes.filter((_, i) => i % 4 !== 3),
    });
    servers.push(server);
    hosts.set(domain, [{ host: '127.0.0.1', port: server.port }]);
    emails.push(...mailboxes);
  }
  const started = performance.now();
  const verdicts = await verifyAddresses(emails.slice(0, count), {
    mailHostsOf: async (domain) => hosts.get(domain) ?? [],
    heloName: 'bench.tambari.test',
    mailFrom: 'verify@bench.tambari.test',
    concurrency: 20,
    perHostConcurrency: 2,
  });
  const seconds = (performance.now() - started) / 1000;
  const byStatus: Record<string, number> = {};
  for (const verdict of verdicts)
    byStatus[`${verdict.status}/${verdict.reason}`] =
      (byStatus[`${verdict.status}/${verdict.reason}`] ?? 0) + 1;
  const connections = servers.reduce((sum, s) => sum + s.connections, 0);
  const dataAttempts = servers.reduce((sum, s) => sum + s.dataAttempts, 0);
  await Promise.all(servers.map((s) => s.close()));
  return {
    bench: 'verification',
    addresses: verdicts.length,
    domains: DOMAINS,
    seconds: Number(seconds.toFixed(2)),
    addressesPerSecond: Math.round(verdicts.length / seconds),
    goalPerSecond: 200,
    smtpConnections: connections,
    messagesSent: dataAttempts,
    verdicts: byStatus,
  };
}
