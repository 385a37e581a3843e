import type { Database } from '@server/db/client';
import { devMailMessages } from '@server/db/schema/index';
import { notFound } from '@server/lib/errors';
import type { DevMail, DevMailSummary } from '@shared/admin';
import { desc, eq } from 'drizzle-orm';
import type { AddressObject, ParsedMail } from 'mailparser';

const LIST_LIMIT = 200;

function addressText(value: AddressObject | AddressObject[] | undefined): string {
  if (!value) return '';
  return (Array.isArray(value) ? value : [value]).map((a) => a.text).join(', ');
}

function headerValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof Date) return value.toISOString();
  if (value && typeof value === 'object' && 'text' in value) return String((value as { text: unknown }).text);
  return JSON.stringify(value);
}

export async function storeDevMail(options: { db: Database; parsed: ParsedMail }): Promise<void> {
  const { parsed } = options;
  await options.db.insert(devMailMessages).values({
    fromAddress: addressText(parsed.from),
    toAddress: addressText(parsed.to),
    subject: parsed.subject ?? '',
    html: typeof parsed.html === 'string' ? parsed.html : null,
    text: parsed.text ?? null,
    headers: headersOf(parsed),
  });
}

/**
 * The headers as they were written (name in its own case, value unfolded): mailparser's parsed map
 * merges some of them into objects (List-* becomes one "list" entry), which tells a developer little.
 */
function headersOf(parsed: ParsedMail): { key: string; value: string }[] {
  if (parsed.headerLines?.length) {
    return parsed.headerLines.map(({ line }) => {
      const colon = line.indexOf(':');
      return {
        key: colon > 0 ? line.slice(0, colon).trim() : line,
        value:
          colon > 0
            ? line
                .slice(colon + 1)
                .replace(/\r?\n[ \t]+/g, ' ')
                .trim()
            : '',
      };
    });
  }
  return [...parsed.headers.entries()].map(([key, value]) => ({ key, value: headerValue(value) }));
}

export async function listDevMail(options: { db: Database }): Promise<DevMailSummary[]> {
  const rows = await options.db
    .select({
      id: devMailMessages.id,
      from: devMailMessages.fromAddress,
      to: devMailMessages.toAddress,
      subject: devMailMessages.subject,
      receivedAt: devMailMessages.receivedAt,
    })
    .from(devMailMessages)
    .orderBy(desc(devMailMessages.receivedAt), desc(devMailMessages.id))
    .limit(LIST_LIMIT);
  return rows.map((row) => ({ ...row, receivedAt: row.receivedAt.toISOString() }));
}

export async function getDevMailById(options: { db: Database; id: string }): Promise<DevMail> {
  const [row] = await options.db
    .select()
    .from(devMailMessages)
    .where(eq(devMailMessages.id, options.id))
    .limit(1);
  if (!row) throw notFound('Message not found');
  return {
    id: row.id,
    from: row.fromAddress,
    to: row.toAddress,
    subject: row.subject,
    receivedAt: row.receivedAt.toISOString(),
    html: row.html,
    text: row.text,
    headers: row.headers,
  };
}

export async function clearDevMail(options: { db: Database }): Promise<void> {
  await options.db.delete(devMailMessages);
}
