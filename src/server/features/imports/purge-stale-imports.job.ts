import { readdir, rmdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { DatabaseHandle } from '@server/db/client';
import { defineJob } from '@server/jobs/define-job';
import { now } from '@server/lib/clock';
import { z } from 'zod';
import { stagingTable } from './import-staging';

export const purgeStaleImportsJob = defineJob({
  name: 'purge-stale-imports',
  description:
    'Cancels abandoned uploads, fails imports whose worker died, and deletes orphaned upload files.',
  payload: z.object({}),
  /** Hourly. */
  cron: '41 * * * *',
  async run({ services, log }) {
    const result = await purgeStaleImports({ database: services.database, dataDir: services.env.DATA_DIR });
    if (result.abandoned + result.stuck + result.orphanFiles > 0) log.info(result, 'purged stale imports');
  },
});

/** An upload never started is dropped after this long. */
export const ABANDONED_UPLOAD_MS = 24 * 60 * 60 * 1000;
/** A queued or running import that saved no progress for this long has lost its worker for good. */
export const STUCK_IMPORT_MS = 6 * 60 * 60 * 1000;

export const STUCK_IMPORT_MESSAGE =
  'The import stopped and could not be resumed. Your list was not changed; please upload the file again.';

/**
 * Safe to run twice. Uploads nobody started are cancelled and their files deleted; imports whose worker
 * died for good are failed (their staging table dropped); files under DATA_DIR/uploads that no live
 * import owns (a deleted account's, a crash between writing and recording) are deleted.
 */
export async function purgeStaleImports(input: {
  database: DatabaseHandle;
  dataDir: string;
}): Promise<{ abandoned: number; stuck: number; orphanFiles: number }> {
  const { database } = input;
  const at = now();
  const abandoned = await database.executeSql(
    `UPDATE imports SET status = 'cancelled', finished_at = $1, updated_at = $1
     WHERE status = 'uploaded' AND updated_at < $2 RETURNING file_path`,
    [at, new Date(at.getTime() - ABANDONED_UPLOAD_MS)],
  );
  const stuck = await database.executeSql(
    `UPDATE imports SET status = 'failed', error_message = $3, finished_at = $1, updated_at = $1
     WHERE status IN ('queued', 'running') AND updated_at < $2 RETURNING id, file_path`,
    [at, new Date(at.getTime() - STUCK_IMPORT_MS), STUCK_IMPORT_MESSAGE],
  );
  for (const row of [...abandoned.rows, ...stuck.rows]) await unlink(String(row.file_path)).catch(() => {});
  for (const row of stuck.rows)
    await database.executeSql(`DROP TABLE IF EXISTS ${stagingTable(String(row.id))}`);
  return {
    abandoned: abandoned.rows.length,
    stuck: stuck.rows.length,
    orphanFiles: await purgeOrphanFiles(input, at),
  };
}

async function purgeOrphanFiles(
  input: { database: DatabaseHandle; dataDir: string },
  at: Date,
): Promise<number> {
  const root = path.resolve(input.dataDir, 'uploads');
  const owners = await readdir(root).catch(() => [] as string[]);
  let removed = 0;
  for (const owner of owners) {
    const dir = path.join(root, owner);
    const names = await readdir(dir).catch(() => [] as string[]);
    const ids = names
      .map((name) => /^([0-9a-f-]{36})\.csv$/.exec(name)?.[1])
      .filter((id): id is string => !!id);
    const live = new Set<string>();
    if (ids.length > 0) {
      const { rows } = await input.database.executeSql(
        `SELECT id::text AS id FROM imports WHERE id = ANY($1::uuid[]) AND status IN ('uploaded', 'queued', 'running')`,
        [ids],
      );
      for (const row of rows) live.add(String(row.id));
    }
    for (const name of names) {
      const id = /^([0-9a-f-]{36})\.csv$/.exec(name)?.[1];
      if (id && live.has(id)) continue;
      const file = path.join(dir, name);
      const info = await stat(file).catch(() => null);
      // Young files may belong to an upload still being recorded.
      if (!info?.isFile() || at.getTime() - info.mtimeMs < ABANDONED_UPLOAD_MS) continue;
      await unlink(file).catch(() => {});
      removed++;
    }
    await rmdir(dir).catch(() => {});
  }
  return removed;
}
