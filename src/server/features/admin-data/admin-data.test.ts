import { randomUUID } from 'node:crypto';
import {
  campaignContacts,
  contactLists,
  directoryContacts,
  emailEvents,
  listContacts,
  outboxMessages,
  suppressions,
} from '@server/db/schema/index';
import {
  contactLocationsSchema,
  contactSearchResultSchema,
  eraseResultSchema,
  userListPageSchema,
} from '@shared/admin-data';
import { auditEntriesOf } from '@tests/factories/audit';
import { addStepViaApi, createCampaignViaApi, createListWithContacts } from '@tests/factories/campaigns';
import { insertDirectoryContacts, uniqueTag } from '@tests/factories/directory';
import { createSendingCampaign, createSinkAccount, queueForContacts } from '@tests/factories/dispatch';
import { importFile, uploadCsv } from '@tests/factories/imports';
import { createUser, type TestUser } from '@tests/factories/users';
import { as, createTestApp } from '@tests/setup/test-app';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashEmail } from '../suppression/suppression.service';
import { prefixUpperBound } from './contacts-erasure.service';
import { flagReasons } from './user-lists.service';

let app: FastifyInstance;
let admin: TestUser;
let owner: TestUser;
let dataEntry: TestUser;

beforeAll(async () => {
  app = await createTestApp();
  admin = await createUser(app, { role: 'super_admin' });
  owner = await createUser(app, {
    plan: 'starter',
    status: 'active',
    periodEnd: new Date(Date.now() + 30 * 86_400_000),
  });
  dataEntry = await createUser(app, { role: 'data_entry' });
});
afterAll(() => app.close());

const asAdmin = () => as(app, admin.cookie);

describe('access', () => {
  it('answers 401 signed out and 403 to a user and a data entry officer, changing nothing', async () => {
    const list = await createListWithContacts(app, owner.user.id, [{ email: `x-${randomUUID()}@acme.test` }]);
    const requests = [
      { method: 'GET', url: '/api/admin/contacts/search?q=abc' },
      { method: 'GET', url: '/api/admin/contacts/lookup?email=a@b.test' },
      {
        method: 'POST',
        url: '/api/admin/contacts/erase',
        payload: { email: 'a@b.test', confirm: 'a@b.test' },
      },
      { method: 'GET', url: '/api/admin/user-lists' },
      { method: 'POST', url: `/api/admin/user-lists/${list.id}/freeze`, payload: { reason: 'Bought list' } },
      { method: 'POST', url: `/api/admin/user-lists/${list.id}/unfreeze` },
      { method: 'GET', url: '/api/admin/data-entry/officers' },
      {
        method: 'PUT',
        url: `/api/admin/data-entry/officers/${dataEntry.user.id}/assignment`,
        payload: { countryCode: 'NG', category: null, queue: 'new_records', strict: true, dailyQuota: 5 },
      },
      { method: 'GET', url: `/api/admin/data-entry/officers/${dataEntry.user.id}/sample` },
      {
        method: 'POST',
        url: `/api/admin/data-entry/officers/${dataEntry.user.id}/reviews`,
        payload: { contactId: randomUUID(), outcome: 'correct' },
      },
    ] as const;
    for (const request of requests) {
      expect((await app.inject(request)).statusCode, `${request.method} ${request.url}`).toBe(401);
      for (const who of [owner, dataEntry]) {
        const response = await as(app, who.cookie)(request);
        expect(response.statusCode, `${who.user.role} ${request.method} ${request.url}`).toBe(403);
      }
    }
    const [row] = await app.services.db.select().from(contactLists).where(eq(contactLists.id, list.id));
    expect(row?.frozenAt).toBeNull();
  });
});

describe('Contacts: find and erase everywhere', () => {
  it('finds an address by prefix and exactly, across the directory and every user’s lists', async () => {
    const tag = uniqueTag().toLowerCase();
    const email = `${tag}.ade@lagosfoods.test`;
    const other = await createUser(app);
    await insertDirectoryContacts(app, tag, [{ email }, { email: `${tag}.bola@lagosfoods.test` }]);
    await createListWithContacts(app, owner.user.id, [{ email: email.toUpperCase() }]);
    await createListWithContacts(app, other.user.id, [{ email }]);

    const prefix = contactSearchResultSchema.parse(
      (await asAdmin()({ method: 'GET', url: `/api/admin/contacts/search?q=${tag}&mode=prefix` })).json(),
    );
    expect(prefix.matches).toEqual([
      { email, directoryRecords: 1, listMemberships: 2 },
      { email: `${tag}.bola@lagosfoods.test`, directoryRecords: 1, listMemberships: 0 },
    ]);
    const exact = contactSearchResultSchema.parse(
      (await asAdmin()({ method: 'GET', url: `/api/admin/contacts/search?q=${tag}&mode=exact` })).json(),
    );
    expect(exact.matches).toEqual([]);
    const short = await asAdmin()({ method: 'GET', url: '/api/admin/contacts/search?q=ab&mode=prefix' });
    expect(short.statusCode).toBe(400);

    const lookup = contactLocationsSchema.parse(
      (
        await asAdmin()({
          method: 'GET',
          url: `/api/admin/contacts/lookup?email=${encodeURIComponent(email)}`,
        })
      ).json(),
    );
    expect(lookup.directory).toHaveLength(1);
    expect(lookup.lists.map((l) => l.ownerEmail).sort()).toEqual([owner.email, other.email].sort());
    expect(lookup.erased).toBe(false);
  });

  it('erases an address everywhere, scrubs its mail and events, and leaves a hashed tombstone', async () => {
    const tag = uniqueTag().toLowerCase();
    const email = `${tag}@kanotextiles.test`;
    await insertDirectoryContacts(app, tag, [{ email }]);
    const list = await createListWithContacts(app, owner.user.id, [
      { email, firstName: 'Amina' },
      { email: `${tag}-keep@kanotextiles.test` },
    ]);
    const account = await createSinkAccount(app, owner.user.id);
    const campaign = await createSendingCampaign(app, owner.user.id, [account]);
    const {
      contactIds: [contactId],
      messageIds: [messageId],
    } = await queueForContacts(app, campaign, 1, { emails: [email] });
    await app.services.db.insert(emailEvents).values([
      {
        userId: owner.user.id,
        campaignId: campaign.id,
        campaignContactId: contactId,
        outboxMessageId: messageId,
        type: 'sent',
      },
      {
        userId: owner.user.id,
        campaignId: campaign.id,
        campaignContactId: contactId,
        outboxMessageId: messageId,
        type: 'clicked',
        detail: 'https://kanotextiles.test/offer',
        userAgent: 'Mozilla/5.0 Amina',
      },
    ]);
    // The owner's own unsubscribe entry for the address stays (it is a hash already).
    await app.services.db.insert(suppressions).values({
      userId: owner.user.id,
      emailHash: hashEmail(email),
      emailHint: 'x***@kanotextiles.test',
      reason: 'unsubscribed',
    });

    const lookup = contactLocationsSchema.parse(
      (await asAdmin()({ method: 'GET', url: `/api/admin/contacts/lookup?email=${email}` })).json(),
    );
    expect(lookup).toMatchObject({ campaignRecipients: 1, outboxMessages: 1, events: 2 });
    expect(lookup.suppressions).toEqual([
      expect.objectContaining({ ownerEmail: owner.email, reason: 'unsubscribed' }),
    ]);

    const mismatch = await asAdmin()({
      method: 'POST',
      url: '/api/admin/contacts/erase',
      payload: { email, confirm: 'someone@else.test' },
    });
    expect(mismatch.statusCode).toBe(400);

    const erased = await asAdmin()({
      method: 'POST',
      url: '/api/admin/contacts/erase',
      payload: { email: email.toUpperCase(), confirm: email.toUpperCase() },
    });
    expect(erased.statusCode).toBe(200);
    const result = eraseResultSchema.parse(erased.json());
    expect(result).toMatchObject({
      emailHash: hashEmail(email),
      directoryRecords: 1,
      listMemberships: 1,
      campaignRecipients: 1,
      outboxMessages: 1,
      eventsScrubbed: 1,
    });

    const { db } = app.services;
    expect(await db.select().from(directoryContacts).where(eq(directoryContacts.email, email))).toHaveLength(
      0,
    );
    const members = await db.select().from(listContacts).where(eq(listContacts.listId, list.id));
    expect(members.map((m) => m.emailNormalized)).toEqual([`${tag}-keep@kanotextiles.test`]);
    const [listRow] = await db.select().from(contactLists).where(eq(contactLists.id, list.id));
    expect(listRow?.contactCount).toBe(1);
    expect(await db.select().from(campaignContacts).where(eq(campaignContacts.id, contactId!))).toHaveLength(
      0,
    );
    expect(await db.select().from(outboxMessages).where(eq(outboxMessages.id, messageId!))).toHaveLength(0);
    const events = await db.select().from(emailEvents).where(eq(emailEvents.campaignId, campaign.id));
    expect(events).toHaveLength(2);
    expect(events.every((e) => e.detail === null && e.userAgent === null)).toBe(true);

    const [tombstone] = await db
      .select()
      .from(suppressions)
      .where(and(isNull(suppressions.userId), eq(suppressions.emailHash, hashEmail(email))));
    expect(tombstone).toMatchObject({ reason: 'erased', emailHint: '***@kanotextiles.test' });
    const [ownEntry] = await db
      .select()
      .from(suppressions)
      .where(and(eq(suppressions.userId, owner.user.id), eq(suppressions.emailHash, hashEmail(email))));
    expect(ownEntry?.reason).toBe('unsubscribed');

    const audit = (await auditEntriesOf(app, admin.user.id)).find(
      (e) => e.action === 'contact.erased' && e.targetId === hashEmail(email),
    );
    expect(audit).toBeDefined();
    expect(JSON.stringify(audit)).not.toContain(email);
    expect(JSON.stringify(audit)).not.toContain(tag);

    const after = contactLocationsSchema.parse(
      (await asAdmin()({ method: 'GET', url: `/api/admin/contacts/lookup?email=${email}` })).json(),
    );
    expect(after).toMatchObject({ erased: true, directory: [], lists: [], campaignRecipients: 0 });

    // Never added again: not by a list's owner, not by data entry, not by an import; never mailed.
    const add = await as(
      app,
      owner.cookie,
    )({
      method: 'POST',
      url: `/api/lists/${list.id}/contacts`,
      payload: { email },
    });
    expect(add.statusCode).toBe(400);
    expect(add.json().message).toMatch(/erased at its owner's request/);
    const entered = await as(
      app,
      dataEntry.cookie,
    )({
      method: 'POST',
      url: '/api/data-entry/contacts',
      payload: { companyName: `${tag} Textiles`, email, countryCode: 'NG', category: 'logistics' },
    });
    expect(entered.statusCode).toBe(400);
    const { outcome } = await importFile(
      app,
      owner.cookie,
      `email,first_name\n${email},Amina\n${tag}-new@kanotextiles.test,Bola\n`,
      {
        target: 'list',
        listId: list.id,
      },
    );
    expect(outcome).toBe('completed');
    const imported = await db.select().from(listContacts).where(eq(listContacts.listId, list.id));
    expect(imported.map((m) => m.emailNormalized).sort()).toEqual(
      [`${tag}-keep@kanotextiles.test`, `${tag}-new@kanotextiles.test`].sort(),
    );
    const { outcome: directoryOutcome } = await importFile(
      app,
      admin.cookie,
      `email,company,country,category\n${email},${tag} Textiles,NG,logistics\n`,
      { target: 'directory' },
    );
    expect(directoryOutcome).toBe('completed');
    expect(await db.select().from(directoryContacts).where(eq(directoryContacts.email, email))).toHaveLength(
      0,
    );

    // The tombstone cannot be lifted, even by a super admin.
    const removal = await asAdmin()({ method: 'DELETE', url: `/api/admin/suppressions/${tombstone!.id}` });
    expect([403, 404]).toContain(removal.statusCode);
    expect(await db.select().from(suppressions).where(eq(suppressions.id, tombstone!.id))).toHaveLength(1);
  });
});

describe('User Lists', () => {
  it('lists every user’s lists with owner, size, rates and imports, flags a suspicious one', async () => {
    const seller = await createUser(app, {
      plan: 'starter',
      status: 'active',
      periodEnd: new Date(Date.now() + 30 * 86_400_000),
    });
    const tag = uniqueTag().toLowerCase();
    const roles = [
      'info',
      'sales',
      'admin',
      'contact',
      'office',
      'hello',
      'support',
      'enquiries',
      'marketing',
      'accounts',
    ];
    const emails = Array.from({ length: 30 }, (_, i) => `${i < 10 ? roles[i] : `p${i}`}@${tag}-${i}.test`);
    const { upload } = await importFile(app, seller.cookie, `email\n${emails.join('\n')}\nnot-an-email\n`, {
      target: 'list',
      newListName: `${tag} bought`,
    });
    const [list] = await app.services.db
      .select()
      .from(contactLists)
      .where(eq(contactLists.name, `${tag} bought`));
    const account = await createSinkAccount(app, seller.user.id);
    const campaign = await createSendingCampaign(app, seller.user.id, [account], {
      audience: { listIds: [list!.id], leadFilters: [] },
    });
    await app.services.db.insert(emailEvents).values([
      ...Array.from({ length: 90 }, () => ({
        userId: seller.user.id,
        campaignId: campaign.id,
        type: 'sent' as const,
      })),
      ...Array.from({ length: 10 }, () => ({
        userId: seller.user.id,
        campaignId: campaign.id,
        type: 'bounced' as const,
      })),
    ]);

    const page = userListPageSchema.parse(
      (await asAdmin()({ method: 'GET', url: `/api/admin/user-lists?search=${tag}` })).json(),
    );
    expect(page.lists).toHaveLength(1);
    const row = page.lists[0]!;
    expect(row).toMatchObject({
      id: list!.id,
      ownerEmail: seller.email,
      size: 30,
      sent: 90,
      bounced: 10,
      campaigns: 1,
      sampleSize: 30,
      frozen: false,
    });
    expect(row.bounceRate).toBeCloseTo(10 / 90);
    expect(row.roleShare).toBeCloseTo(10 / 30);
    expect(row.imports).toMatchObject({ count: 1, files: ['contacts.csv'], invalidRows: 1 });
    expect(row.flagReasons.some((r) => r.startsWith('Bounce rate'))).toBe(true);
    expect(row.flagReasons.some((r) => r.includes('role addresses'))).toBe(true);
    expect(upload.importId).toBeTruthy();
  });

  it('pages biggest first with a cursor', async () => {
    const tag = uniqueTag().toLowerCase();
    for (const n of [3, 2, 1]) {
      await createListWithContacts(
        app,
        owner.user.id,
        Array.from({ length: n }, (_, i) => ({ email: `${tag}-${n}-${i}@page.test` })),
        { name: `${tag} size ${n}` },
      );
    }
    const first = userListPageSchema.parse(
      (await asAdmin()({ method: 'GET', url: `/api/admin/user-lists?search=${tag}&limit=2` })).json(),
    );
    expect(first.lists.map((l) => l.size)).toEqual([3, 2]);
    const second = userListPageSchema.parse(
      (
        await asAdmin()({
          method: 'GET',
          url: `/api/admin/user-lists?search=${tag}&limit=2&cursor=${first.nextCursor}`,
        })
      ).json(),
    );
    expect(second.lists.map((l) => l.size)).toEqual([1]);
    expect(second.nextCursor).toBeNull();
  });

  it('a frozen list cannot be launched to, imported into or added to; unfreezing restores it; both audited', async () => {
    const account = await createSinkAccount(app, owner.user.id);
    const list = await createListWithContacts(app, owner.user.id, [
      { email: `${randomUUID().slice(0, 8)}@frozen.test`, firstName: 'Ade' },
    ]);
    const campaign = await createCampaignViaApi(app, owner.cookie, {
      audience: { listIds: [list.id] },
      senderAccountIds: [account.id],
    });
    await addStepViaApi(app, owner.cookie, campaign.id);

    const freeze = await asAdmin()({
      method: 'POST',
      url: `/api/admin/user-lists/${list.id}/freeze`,
      payload: { reason: 'Looks bought: 40% bounces' },
    });
    expect(freeze.statusCode).toBe(200);
    const again = await asAdmin()({
      method: 'POST',
      url: `/api/admin/user-lists/${list.id}/freeze`,
      payload: { reason: 'Again' },
    });
    expect(again.statusCode).toBe(409);

    const launch = await as(
      app,
      owner.cookie,
    )({ method: 'POST', url: `/api/campaigns/${campaign.id}/launch` });
    // The pre-launch check names the frozen list as what blocks the launch.
    expect(launch.statusCode).toBe(422);
    expect(JSON.stringify(launch.json().errors)).toContain(
      'is frozen by the Tambari team (Looks bought: 40% bounces)',
    );
    const upload = await uploadCsv(app, owner.cookie, 'email\nnew@frozen.test\n', {
      target: 'list',
      listId: list.id,
    });
    expect(upload.statusCode).toBe(403);
    const add = await as(
      app,
      owner.cookie,
    )({ method: 'POST', url: `/api/lists/${list.id}/contacts`, payload: { email: 'one@frozen.test' } });
    expect(add.statusCode).toBe(403);

    const unfreeze = await asAdmin()({ method: 'POST', url: `/api/admin/user-lists/${list.id}/unfreeze` });
    expect(unfreeze.statusCode).toBe(200);
    const launched = await as(
      app,
      owner.cookie,
    )({ method: 'POST', url: `/api/campaigns/${campaign.id}/launch` });
    expect(launched.statusCode).toBe(200);

    const actions = (await auditEntriesOf(app, admin.user.id))
      .filter((e) => e.targetId === list.id)
      .map((e) => e.action);
    expect(actions).toEqual(['list.frozen', 'list.unfrozen']);
    const missing = await asAdmin()({
      method: 'POST',
      url: `/api/admin/user-lists/${randomUUID()}/freeze`,
      payload: { reason: 'Nope' },
    });
    expect(missing.statusCode).toBe(404);
  });
});

describe('helpers', () => {
  it('a prefix range ends right after the last address that starts with it', () => {
    expect(prefixUpperBound('abc')).toBe('abd');
    expect('abc@x.test' < prefixUpperBound('abc')).toBe(true);
    expect('abd' < prefixUpperBound('abc')).toBe(false);
  });

  it('flags only figures over their limits with enough data behind them', () => {
    const base = {
      sent: 0,
      bounceRate: 0,
      complaintRate: 0,
      sampleSize: 0,
      roleShare: 0,
      disposableShare: 0,
      importProcessed: 0,
      importInvalidShare: 0,
    };
    expect(flagReasons(base)).toEqual([]);
    expect(flagReasons({ ...base, sent: 10, bounceRate: 0.5 })).toEqual([]);
    expect(flagReasons({ ...base, sent: 100, bounceRate: 0.08 })).toEqual(['Bounce rate 8.0% (limit 5.0%)']);
    expect(flagReasons({ ...base, sampleSize: 100, disposableShare: 0.05 })).toEqual([
      '5.0% disposable addresses',
    ]);
  });
});
