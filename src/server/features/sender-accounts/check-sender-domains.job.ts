import type { Database } from '@server/db/client';
import { senderAccounts } from '@server/db/schema/index';
import { defineJob } from '@server/jobs/define-job';
import { now } from '@server/lib/clock';
import type { HostLookup, SenderNetwork } from '@server/lib/network-guard';
import { and, asc, gt, isNull, lt, or } from 'drizzle-orm';
import { z } from 'zod';
import { type DnsResolver, dnsResolverFromEnv } from './domain-check.service';
import { refreshSenderDomainCheck } from './sender-accounts.service';

export const checkSenderDomainsJob = defineJob({
  name: 'check-sender-domains',
  description: 'Re-checks SPF, DKIM, DMARC and MX of sender accounts whose last check is a day old.',
  payload: z.object({}),
  /**
   * Hourly, re-checking only accounts whose check is more than a day old: every account is re-checked
   * once a day, and the DNS work is spread over the day instead of landing at one hour.
   */
  cron: '23 * * * *',
  async run({ services, log }) {
    const { db, env } = services;
    const result = await checkStaleSenderDomains({
      db,
      network: env.SENDER_NETWORK,
      dnsResolver: dnsResolverFromEnv(env),
    });
    if (result.checked + result.failed > 0) log.info(result, 're-checked sender domains');
  },
});

export const DOMAIN_CHECK_MAX_AGE_MS = 24 * 60 * 60 * 1000;
const BATCH_SIZE = 50;
/** Checks in flight at once (each makes about 15 DNS queries). */
const CONCURRENCY = 5;

/**
 * Re-checks SPF, DKIM, DMARC and MX of the accounts whose check is older than 24 h (or missing), walking
 * them in id order in batches. Safe to run twice: a second run finds the fresh checks and skips them.
 */
export async function checkStaleSenderDomains(options: {
  db: Database;
  network: SenderNetwork;
  dnsResolver?: DnsResolver;
  lookup?: HostLookup;
  /** Stop after this many accounts (the next run carries on). */
  limit?: number;
}): Promise<{ checked: number; failed: number }> {
  const cutoff = new Date(now().getTime() - DOMAIN_CHECK_MAX_AGE_MS);
  const limit = options.limit ?? 5_000;
  let lastId: string | null = null;
  let checked = 0;
  let failed = 0;
  while (checked + failed < limit) {
    const batch: (typeof senderAccounts.$inferSelect)[] = await options.db
      .select()
      .from(senderAccounts)
      .where(
        and(
          or(isNull(senderAccounts.domainCheckedAt), lt(senderAccounts.domainCheckedAt, cutoff)),
          lastId ? gt(senderAccounts.id, lastId) : undefined,
        ),
      )
      .orderBy(asc(senderAccounts.id))
      .limit(Math.min(BATCH_SIZE, limit - checked - failed));
    if (batch.length === 0) break;
    lastId = batch.at(-1)!.id;
    for (let i = 0; i < batch.length; i += CONCURRENCY) {
      const results = await Promise.allSettled(
        batch.slice(i, i + CONCURRENCY).map((row) =>
          refreshSenderDomainCheck({
            db: options.db,
            row,
            network: options.network,
            dnsResolver: options.dnsResolver,
            lookup: options.lookup,
          }),
        ),
      );
      for (const result of results) {
        if (result.status === 'fulfilled') checked++;
        else failed++;
      }
    }
  }
  return { checked, failed };
}
