import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER } from '../db/client';
import { createDirectoryGenerator, SEED_COLUMNS } from './directory-generator';
import { assertSyntheticDataAllowed, seedDirectory } from './seed-directory';

const column = (name: (typeof SEED_COLUMNS)[number]) => SEED_COLUMNS.indexOf(name);

describe('synthetic directory data', () => {
  it('is marked synthetic and never verified by the generator', () => {
    const next = createDirectoryGenerator({ seed: 11, now: new Date('2026-01-01T00:00:00Z') });
    const rows = Array.from({ length: 5_000 }, () => next());
    for (const row of rows) {
      expect(row[column('synthetic')]).toBe('true');
      expect(row[column('verification_status')]).not.toBe('verified');
      if (row[column('verification_status')] === 'unverified') expect(row[column('verified_at')]).toBeNull();
    }
  });

  it('is refused in production, before any database work', async () => {
    expect(() => assertSyntheticDataAllowed('production')).toThrow(/NODE_ENV=production/);
    expect(() => assertSyntheticDataAllowed('development')).not.toThrow();
    // No database at all: the guard must stop it first.
    await expect(
      seedDirectory({ database: null as never, count: 10, nodeEnv: 'production' }),
    ).rejects.toThrow(/Refusing to generate synthetic directory contacts/);
  });
});

describe('the sample-data migration', () => {
  let folder: string;
  beforeAll(() => {
    // The migrations up to the one before 0025, to load rows the old generator made.
    folder = mkdtempSync(path.join(tmpdir(), 'tambari-migrations-'));
    cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
    const journalPath = path.join(folder, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
    const last = journal.entries.findIndex((entry) => entry.tag === '0025_directory_sample_data');
    expect(last).toBeGreaterThan(0);
    journal.entries = journal.entries.slice(0, last);
    writeFileSync(journalPath, JSON.stringify(journal));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('marks rows on reserved domains synthetic, takes back every unproven "verified", keeps real ones', async () => {
    const [{ PGlite }, { pg_trgm }, { btree_gin }, { drizzle }, { migrate }] = await Promise.all([
      import('@electric-sql/pglite'),
      import('@electric-sql/pglite/contrib/pg_trgm'),
      import('@electric-sql/pglite/contrib/btree_gin'),
      import('drizzle-orm/pglite'),
      import('drizzle-orm/pglite/migrator'),
    ]);
    const client = new PGlite({ extensions: { pg_trgm, btree_gin } });
    try {
      await migrate(drizzle(client), { migrationsFolder: folder });
      await client.exec(`
        INSERT INTO directory_contacts (company_name, email, country_code, category, source, verification_status, verified_at)
        VALUES
          ('Gen One', 'ada@acme-1.ng.example.com', 'NG', 'logistics', 'seed', 'verified', now()),
          ('Gen Two', 'info@acme-2.test', 'GH', 'banking', 'seed', 'unverified', NULL),
          ('Gen Three', 'bad@acme-3.ke.example.com', 'KE', 'banking', 'seed', 'invalid', now()),
          ('Real One', 'ceo@realfirm.com.ng', 'NG', 'logistics', 'data_entry', 'verified', now()),
          ('Lookalike', 'sales@notexample.com', 'NG', 'logistics', 'import', 'verified', now()),
          ('Undated', 'md@undated.co.ke', 'KE', 'logistics', 'import', 'verified', NULL)`);
      const before = await client.query<{ v: string }>(
        `SELECT sum(verified)::text AS v FROM directory_facet_counts WHERE city = ''`,
      );
      expect(before.rows[0]!.v).toBe('4');

      await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER });

      const rows = await client.query<{
        company_name: string;
        synthetic: boolean;
        verification_status: string;
        verified_at: Date | null;
      }>(
        'SELECT company_name, synthetic, verification_status, verified_at FROM directory_contacts ORDER BY company_name',
      );
      const byName = Object.fromEntries(rows.rows.map((row) => [row.company_name, row]));
      expect(byName['Gen One']).toMatchObject({
        synthetic: true,
        verification_status: 'unverified',
        verified_at: null,
      });
      expect(byName['Gen Two']).toMatchObject({ synthetic: true, verification_status: 'unverified' });
      expect(byName['Gen Three']).toMatchObject({ synthetic: true, verification_status: 'invalid' });
      expect(byName['Real One']).toMatchObject({ synthetic: false, verification_status: 'verified' });
      expect(byName.Lookalike).toMatchObject({ synthetic: false, verification_status: 'verified' });
      // "Verified" without a date had no evidence: unverified now.
      expect(byName.Undated).toMatchObject({ synthetic: false, verification_status: 'unverified' });

      // The roll-up's verified column now counts real records only.
      const after = await client.query<{ v: string }>(
        `SELECT sum(verified)::text AS v FROM directory_facet_counts WHERE city = ''`,
      );
      expect(after.rows[0]!.v).toBe('2');

      // And no later write can call sample data verified.
      await expect(
        client.query(
          `UPDATE directory_contacts SET verification_status = 'verified', verified_at = now() WHERE company_name = 'Gen Two'`,
        ),
      ).rejects.toThrow(/directory_contacts_synthetic_unverified_check/);
    } finally {
      await client.close();
    }
  }, 60_000);
});
