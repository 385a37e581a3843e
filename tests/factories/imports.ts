import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ImportRunOutcome, importContacts } from '@server/features/imports/import-run';
import { createList } from '@server/features/lists/lists.service';
import type { ImportStartInput, ImportUploadResult } from '@shared/imports';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

const FIXTURES = fileURLToPath(new URL('../fixtures/imports/', import.meta.url));

export function fixture(name: string): Buffer {
  return readFileSync(path.join(FIXTURES, name));
}

/** A multipart/form-data body built by hand: app.inject takes a Buffer payload and our header. */
export function multipartBody(
  fields: Record<string, string>,
  file?: { name: string; content: Buffer | string; type?: string },
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----tambari${randomUUID().replaceAll('-', '')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'text/csv'}\r\n\r\n`,
      ),
    );
    chunks.push(Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content, 'utf8'));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

export async function uploadCsv(
  app: FastifyInstance,
  cookie: string,
  content: Buffer | string,
  fields: Record<string, string>,
  fileName = 'contacts.csv',
): Promise<LightMyRequestResponse> {
  const body = multipartBody(fields, { name: fileName, content });
  return app.inject({
    method: 'POST',
    url: '/api/imports',
    payload: body.payload,
    headers: { ...body.headers, cookie },
  });
}

export async function makeList(
  app: FastifyInstance,
  userId: string,
  name = `List ${randomUUID().slice(0, 8)}`,
) {
  return createList({ db: app.services.db, userId, name });
}

/** The job's work, run here instead of waiting for the queue's polling. */
export function runImportJob(
  app: FastifyInstance,
  importId: string,
  options: Omit<Parameters<typeof importContacts>[0], 'database' | 'importId'> = {},
): Promise<ImportRunOutcome> {
  return importContacts({ database: app.services.database, importId, ...options });
}

/** Upload, start with the suggested mapping (or the one given), and run the job. */
export async function importFile(
  app: FastifyInstance,
  cookie: string,
  content: Buffer | string,
  fields: Record<string, string>,
  start: Partial<ImportStartInput> = {},
): Promise<{ upload: ImportUploadResult; outcome: ImportRunOutcome }> {
  const uploaded = await uploadCsv(app, cookie, content, fields);
  if (uploaded.statusCode !== 201) throw new Error(`upload failed ${uploaded.statusCode}: ${uploaded.body}`);
  const upload = uploaded.json<ImportUploadResult>();
  const started = await app.inject({
    method: 'POST',
    url: `/api/imports/${upload.importId}/start`,
    headers: { cookie },
    payload: { mapping: upload.suggestedMapping, hasHeader: upload.hasHeader, ...start },
  });
  if (started.statusCode !== 200) throw new Error(`start failed ${started.statusCode}: ${started.body}`);
  return { upload, outcome: await runImportJob(app, upload.importId) };
}
