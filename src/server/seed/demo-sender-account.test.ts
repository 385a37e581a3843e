import { createTestApp } from '@tests/setup/test-app';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactLists, listContacts, senderAccounts } from '../db/schema/index';
import { findUserByEmail } from '../features/auth/auth.service';
import { createAccount, DEMO_ACCOUNTS, generatePassword } from './demo-accounts';
import { DEMO_LIST_NAME, seedDemoList } from './demo-list';
import { seedDemoSenderAccount } from './demo-sender-account';

describe('seedDemoSenderAccount', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  it('gives the demo subscriber one ready test-mailbox account, however often it runs', async () => {
    const demo = DEMO_ACCOUNTS.find((a) => a.role === 'user')!;
    // On the shared PostgreSQL database an earlier run may have made the demo user (and its account).
    const existing = await findUserByEmail({ db: app.services.db, email: demo.email });
    const userId =
      existing?.id ?? (await createAccount(app.services, { ...demo, password: generatePassword() }));
    const lines: string[] = [];
    await seedDemoSenderAccount(app.services, { print: (line) => lines.push(line) });
    expect(await seedDemoSenderAccount(app.services, { print: (line) => lines.push(line) })).toBe(false);

    const accounts = await app.services.db
      .select()
      .from(senderAccounts)
      .where(and(eq(senderAccounts.userId, userId), eq(senderAccounts.isDevMailbox, true)));
    expect(accounts).toHaveLength(1);
    expect(accounts[0]).toMatchObject({
      label: 'Tambari test mailbox',
      fromEmail: demo.email,
      smtpHost: '127.0.0.1',
      smtpSecurity: 'none',
      dailyCap: 300,
      postalAddress: 'Demo Ventures Ltd, 12 Marina Road, Lagos, Nigeria',
      status: 'active',
    });
    expect(lines.length).toBeLessThanOrEqual(1);
  });

  it('does nothing when no development mailbox runs', async () => {
    expect(await seedDemoSenderAccount({ ...app.services, devMailbox: null }, { print: () => {} })).toBe(
      false,
    );
  });

  // In this file, not its own: test files run in parallel and both would create the demo user.
  it('gives the demo subscriber a list of twenty safe prospects when they have none', async () => {
    const demo = DEMO_ACCOUNTS.find((a) => a.role === 'user')!;
    const existing = await findUserByEmail({ db: app.services.db, email: demo.email });
    const userId =
      existing?.id ?? (await createAccount(app.services, { ...demo, password: generatePassword() }));
    const lines: string[] = [];
    expect(await seedDemoList(app.services, { print: (line) => lines.push(line) })).toBe(true);
    expect(await seedDemoList(app.services, { print: (line) => lines.push(line) })).toBe(false);
    expect(lines).toHaveLength(1);

    const lists = await app.services.db.select().from(contactLists).where(eq(contactLists.userId, userId));
    expect(lists.map((l) => l.name)).toEqual([DEMO_LIST_NAME]);
    expect(lists[0]!.customFields).toEqual(['industry']);
    const contacts = await app.services.db
      .select()
      .from(listContacts)
      .where(eq(listContacts.listId, lists[0]!.id));
    expect(contacts).toHaveLength(20);
    // Nobody real is ever mailed from the demo.
    expect(contacts.every((c) => /@[a-z0-9-]+\.example\.com$/.test(c.email))).toBe(true);
    expect(contacts.every((c) => c.firstName && c.company && c.city && c.countryCode)).toBe(true);
  });
});
