import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { logged } from './workers';

describe('job handlers', () => {
  it('a job that throws is logged with its name and id, and still fails for pg-boss', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const log = pino({ level: 'info' }, stream);
    const handler = logged(log, async () => {
      throw new Error('Unknown time zone');
    });
    const job = { id: 'job-123', name: 'dispatch-outbox', data: {}, signal: new AbortController().signal };
    await expect(handler([job])).rejects.toThrow('Unknown time zone');
    const entry = JSON.parse(lines.find((l) => l.includes('job failed'))!);
    expect(entry).toMatchObject({ jobId: 'job-123', job: 'dispatch-outbox', msg: 'job failed' });
    expect(entry.err.message).toBe('Unknown time zone');
  });
});
