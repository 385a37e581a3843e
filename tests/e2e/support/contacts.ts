import { randomUUID } from 'node:crypto';
import { type APIRequestContext, expect } from '@playwright/test';

export interface DirectoryRow {
  company: string;
  contact: string;
  email: string;
  city: string;
  country: string;
  category: string;
}

/** A word no seeded company holds, so a keyword search finds exactly the rows a test made. */
export function uniqueToken(prefix = 'Zqx'): string {
  return `${prefix}${randomUUID().replaceAll('-', '').slice(0, 8)}`;
}

function toCsv(rows: DirectoryRow[]): string {
  const header = 'Company,Contact,Email,City,Country,Category';
  return [
    header,
    ...rows.map((row) =>
      [row.company, row.contact, row.email, row.city, row.country, row.category].join(','),
    ),
  ].join('\n');
}

/**
 * Adds businesses to the shared directory the way a super admin does (CSV import with target
 * `directory`), through the API, and waits for the import to finish.
 */
export async function importIntoDirectory(admin: APIRequestContext, rows: DirectoryRow[]): Promise<void> {
  const upload = await admin.post('/api/imports', {
    multipart: {
      target: 'directory',
      file: { name: 'directory.csv', mimeType: 'text/csv', buffer: Buffer.from(toCsv(rows)) },
    },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const { importId, suggestedMapping } = (await upload.json()) as {
    importId: string;
    suggestedMapping: Record<string, string>;
  };
  const start = await admin.post(`/api/imports/${importId}/start`, {
    data: { mapping: suggestedMapping, hasHeader: true },
  });
  expect(start.status(), await start.text()).toBe(200);
  await expect
    .poll(
      async () => ((await (await admin.get(`/api/imports/${importId}`)).json()) as { status: string }).status,
      { timeout: 60_000, intervals: [250, 500, 1000] },
    )
    .toBe('completed');
}

/** An admin plan change grants the plan (active, a month ahead). */
export async function setPlanViaAdmin(admin: APIRequestContext, email: string, plan: string): Promise<void> {
  const found = await admin.get(`/api/admin/users?search=${encodeURIComponent(email)}`);
  expect(found.status(), await found.text()).toBe(200);
  const { users } = (await found.json()) as { users: { id: string; email: string }[] };
  const user = users.find((candidate) => candidate.email === email);
  expect(user, `no user ${email}`).toBeTruthy();
  const changed = await admin.patch(`/api/admin/users/${user?.id}`, { data: { subscriptionPlan: plan } });
  expect(changed.status(), await changed.text()).toBe(200);
}
