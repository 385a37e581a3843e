import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { imports } from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import type { ImportUploadResult } from '@shared/imports';
import { makeList, runImportJob, uploadCsv } from '@tests/factories/imports';
import { createUser } from '@tests/factories/users';
import { createTestApp } from '@tests/setup/test-app';
import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stagingTable } from './import-staging';
import { purgeStaleImports, STUCK_IMPORT_MESSAGE } from './purge-stale-imports.job';

let app: FastifyInstance;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'tambari-imports-'));
  app = await createTestApp({ DATA_DIR: dataDir });
});

afterAll(async () => {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function importRow(id: string) {
  const [row] = await app.services.db.select().from(imports).where(eq(imports.id, id));
  return row!;
}

describe('purge-stale-imports', () => {
  it('cancels uploads nobody started, fails imports whose worker died, deletes orphan files', async () => {
    const user = await createUser(app);
    const list = await makeList(app, user.user.id);
    const content = `email\n${Array.from({ length: 30 }, (_, i) => `p${i}@example.com`).join('\n')}\n`;
    const abandoned = (
      await uploadCsv(app, user.cookie, content, { target: 'list', listId: list.id })
    ).json<ImportUploadResult>();
    const started = (
      await uploadCsv(app, user.cookie, content, { target: 'list', listId: list.id })
    ).json<ImportUploadResult>();
    await app.inject({
      method: 'POST',
      url: `/api/imports/${started.importId}/start`,
      headers: { cookie: user.cookie },
      payload: { mapping: { '0': 'email' }, hasHeader: true },
    });
    const controller = new AbortController();
    await runImportJob(app, started.importId, {
      batchSize: 10,
      signal: controller.signal,
      onBatch: () => controller.abort(),
    });
    const fresh = (
      await uploadCsv(app, user.cookie, content, { target: 'list', listId: list.id })
    ).json<ImportUploadResult>();
    const orphanDir = path.join(dataDir, 'uploads', 'deleted-user');
    mkdirSync(orphanDir, { recursive: true });
    const orphan = path.join(orphanDir, '00000000-0000-4000-8000-000000000000.csv');
    writeFileSync(orphan, 'email\nx@example.com\n');
    const old = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
    utimesSync(orphan, old, old);

    // Nothing of ours is stale yet; the orphan file goes at once.
    const first = await purgeStaleImports({ database: app.services.database, dataDir });
    expect(first.orphanFiles).toBe(1);
    expect(existsSync(orphan)).toBe(false);
    expect((await importRow(abandoned.importId)).status).toBe('uploaded');
    expect((await importRow(started.importId)).status).toBe('running');

    // A day later for these two (other test files share the database: only our rows age).
    const dayAgo = new Date(now().getTime() - 25 * 60 * 60 * 1000);
    await app.services.db
      .update(imports)
      .set({ updatedAt: dayAgo })
      .where(inArray(imports.id, [abandoned.importId, started.importId]));
    const result = await purgeStaleImports({ database: app.services.database, dataDir });
    expect(result.abandoned).toBeGreaterThanOrEqual(1);
    expect(result.stuck).toBeGreaterThanOrEqual(1);

    const gone = await importRow(abandoned.importId);
    expect(gone.status).toBe('cancelled');
    expect(existsSync(gone.filePath)).toBe(false);
    const failed = await importRow(started.importId);
    expect(failed).toMatchObject({ status: 'failed', errorMessage: STUCK_IMPORT_MESSAGE });
    expect(existsSync(failed.filePath)).toBe(false);
    const staging = await app.services.database.executeSql('SELECT to_regclass($1) AS t', [
      stagingTable(started.importId),
    ]);
    expect(staging.rows[0]!.t).toBeNull();
    // An upload still in use is left alone.
    const kept = await importRow(fresh.importId);
    expect(kept.status).toBe('uploaded');
    expect(existsSync(kept.filePath)).toBe(true);
  });
});
