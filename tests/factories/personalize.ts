import { randomUUID } from 'node:crypto';
import {
  campaignSenderAccounts,
  campaignSteps,
  campaignStepVariants,
  campaigns,
  contactLists,
  listContacts,
  senderAccounts,
} from '@server/db/schema/index';
import { encryptSecret } from '@server/lib/crypto';
import type { CampaignAudience } from '@shared/campaigns';
import type { DomainCheck } from '@shared/sending';
import type { FastifyInstance } from 'fastify';

/*
 * Rows for the personalisation and pre-launch tests, written straight with Drizzle so these tests do not
 * depend on the campaign routes' validation.
 */

export const PASSING_DOMAIN_CHECK: DomainCheck = {
  domain: 'sender.test',
  checkedAt: new Date().toISOString(),
  spf: { status: 'pass', detail: 'SPF allows the server', found: 'v=spf1 mx -all', fix: null },
  dkim: { status: 'pass', detail: 'DKIM key found', found: null, fix: null, selector: 'default' },
  dmarc: { status: 'pass', detail: 'DMARC policy found', found: 'v=DMARC1; p=none', fix: null },
  mx: { status: 'pass', detail: 'MX found', found: 'mx.sender.test', fix: null },
};

export async function addSenderAccount(
  app: FastifyInstance,
  options: {
    userId: string;
    port?: number;
    status?: 'active' | 'paused' | 'failing';
    domainCheck?: DomainCheck | null;
    dailyCap?: number;
    /** What `{{ senderCompany }}` renders; none by default. */
    company?: string | null;
    /** Sends through the app's own development mailbox (tests read it with tests/setup/dev-mail.ts). */
    devMailbox?: boolean;
  },
) {
  const slug = randomUUID().slice(0, 8);
  const [account] = await app.services.db
    .insert(senderAccounts)
    .values({
      userId: options.userId,
      label: `Sender ${slug}`,
      fromName: 'Tunde Bello',
      fromEmail: `tunde-${slug}@sender.test`,
      postalAddress: '12 Marina Road, Lagos, Nigeria',
      smtpHost: '127.0.0.1',
      smtpPort: options.port ?? 587,
      smtpSecurity: 'none',
      smtpUser: `user-${slug}`,
      smtpPasswordEnc: encryptSecret('test-password', app.services.secrets.encryptionKey),
      status: options.status ?? 'active',
      isDevMailbox: options.devMailbox ?? false,
      dailyCap: options.dailyCap ?? 50,
      company: options.company ?? null,
      domainCheck: options.domainCheck === undefined ? PASSING_DOMAIN_CHECK : options.domainCheck,
    })
    .returning();
  return account!;
}

export interface ListContactInput {
  email: string;
  firstName?: string | null;
  lastName?: string | null;
  company?: string | null;
  countryCode?: string | null;
  city?: string | null;
  customFields?: Record<string, string>;
}

export async function addList(
  app: FastifyInstance,
  options: { userId: string; customFields?: string[]; contacts: ListContactInput[] },
) {
  const { db } = app.services;
  const [list] = await db
    .insert(contactLists)
    .values({
      userId: options.userId,
      name: `List ${randomUUID().slice(0, 8)}`,
      customFields: options.customFields ?? [],
      contactCount: options.contacts.length,
    })
    .returning();
  if (options.contacts.length > 0) {
    await db.insert(listContacts).values(
      options.contacts.map((c) => ({
        userId: options.userId,
        listId: list!.id,
        email: c.email,
        emailNormalized: c.email.trim().toLowerCase(),
        firstName: c.firstName ?? null,
        lastName: c.lastName ?? null,
        company: c.company ?? null,
        countryCode: c.countryCode ?? null,
        city: c.city ?? null,
        customFields: c.customFields ?? {},
        source: 'manual' as const,
      })),
    );
  }
  return list!;
}

export interface VariantFixture {
  key?: 'A' | 'B' | 'C' | 'D';
  subject: string;
  bodyHtml: string;
  splitPercent?: number;
}

export async function addCampaign(
  app: FastifyInstance,
  options: {
    userId: string;
    audience?: CampaignAudience;
    accountIds?: string[];
    steps?: { delayDays?: number; businessDays?: boolean; variants: VariantFixture[] }[];
    settings?: Partial<typeof campaigns.$inferInsert>;
  },
) {
  const { db } = app.services;
  const [campaign] = await db
    .insert(campaigns)
    .values({
      userId: options.userId,
      name: `Campaign ${randomUUID().slice(0, 8)}`,
      audience: options.audience ?? { listIds: [], leadFilters: [] },
      // As the API creates a cold campaign (the column's default stays true for older rows).
      trackOpens: false,
      ...options.settings,
    })
    .returning();
  if (options.accountIds?.length) {
    await db
      .insert(campaignSenderAccounts)
      .values(options.accountIds.map((senderAccountId) => ({ campaignId: campaign!.id, senderAccountId })));
  }
  const steps = [];
  for (const [index, step] of (options.steps ?? []).entries()) {
    const [row] = await db
      .insert(campaignSteps)
      .values({
        campaignId: campaign!.id,
        userId: options.userId,
        position: index + 1,
        delayDays: step.delayDays ?? 0,
        businessDays: step.businessDays ?? false,
      })
      .returning();
    await db.insert(campaignStepVariants).values(
      step.variants.map((v, i) => ({
        stepId: row!.id,
        campaignId: campaign!.id,
        key: v.key ?? (['A', 'B', 'C', 'D'] as const)[i]!,
        subject: v.subject,
        bodyHtml: v.bodyHtml,
        splitPercent: v.splitPercent ?? Math.floor(100 / step.variants.length),
      })),
    );
    steps.push(row!);
  }
  return { campaign: campaign!, steps };
}
