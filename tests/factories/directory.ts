import { randomUUID } from 'node:crypto';
import { directoryContacts } from '@server/db/schema/index';
import type { FastifyInstance } from 'fastify';

export type DirectoryInsert = typeof directoryContacts.$inferInsert;
export type DirectoryRow = typeof directoryContacts.$inferSelect;

/**
 * A tag that keeps a test's rows apart from every other test's: on PostgreSQL all test files share one
 * directory, so assertions filter by the tag (company names start with it, cities are named after it).
 */
export function uniqueTag(): string {
  return `Zq${randomUUID().replaceAll('-', '').slice(0, 10)}`;
}

/** Inserts directory contacts straight into the table (what an import or the seeder would do). */
export async function insertDirectoryContacts(
  app: FastifyInstance,
  tag: string,
  rows: Partial<DirectoryInsert>[],
): Promise<DirectoryRow[]> {
  if (rows.length === 0) return [];
  return app.services.db
    .insert(directoryContacts)
    .values(
      rows.map((row, i) => ({
        companyName: `${tag} Company ${String(i).padStart(3, '0')}`,
        email: `${tag.toLowerCase()}-${i}@example.test`,
        countryCode: 'NG',
        category: 'logistics',
        city: `${tag}ville`,
        source: 'seed' as const,
        ...row,
        // A verified record carries its date, as every real writer records it (an explicit null stays).
        verifiedAt:
          row.verifiedAt === undefined && row.verificationStatus === 'verified' ? new Date() : row.verifiedAt,
      })),
    )
    .returning();
}
