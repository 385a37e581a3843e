import type { Database } from '@server/db/client';
import { directoryContacts, scrapeResults } from '@server/db/schema';
import { and, inArray, isNull, sql } from 'drizzle-orm';
import type { ExtractedBusiness } from './extract';

/**
 * Saves what a page says about a business: one review item per address (the directory holds one address
 * per record). An address already in the directory is saved as a duplicate of that record, so the crawl
 * report counts it but nobody reviews it; one already found by any crawl is not saved again.
 * Answers how many new items were saved.
 */
export async function saveFoundBusiness(options: {
  db: Database;
  jobId: string;
  sourceUrl: string;
  business: ExtractedBusiness;
}): Promise<number> {
  const { db, business } = options;
  const emails = business.emails.slice(0, 20);
  if (emails.length === 0) return 0;
  const existing = await db
    .select({ id: directoryContacts.id, email: sql<string>`lower(${directoryContacts.email})` })
    .from(directoryContacts)
    .where(and(isNull(directoryContacts.deletedAt), inArray(sql`lower(${directoryContacts.email})`, emails)));
  const duplicateOf = new Map(existing.map((row) => [row.email, row.id]));
  const website = new URL(options.sourceUrl).origin;
  const inserted = await db
    .insert(scrapeResults)
    .values(
      emails.map((email) => ({
        jobId: options.jobId,
        sourceUrl: options.sourceUrl,
        crawledAt: sql`now()`,
        companyName: business.companyName,
        email,
        phone: business.phones[0] ?? null,
        website,
        address: business.address,
        city: business.city,
        countryCode: business.countryCode,
        category: business.category,
        status: duplicateOf.has(email) ? ('duplicate' as const) : ('pending' as const),
        duplicateOfId: duplicateOf.get(email) ?? null,
      })),
    )
    .onConflictDoNothing()
    .returning({ id: scrapeResults.id });
  return inserted.length;
}
