import { randomUUID } from 'node:crypto';
import { contactLists, listContacts } from '@server/db/schema/index';
import type { Campaign, CampaignStep, StepInput } from '@shared/campaigns';
import type { FastifyInstance } from 'fastify';
import { as } from '../setup/test-app';

/*
 * Campaigns for tests: a list of contacts written straight to the database, a step body, a campaign
 * created through the API with settings that send around the clock with no gap.
 */

export interface ListContactInput {
  email: string;
  firstName?: string | null;
  lastName?: string | null;
  company?: string | null;
  city?: string | null;
  countryCode?: string | null;
  customFields?: Record<string, string>;
}

export async function createListWithContacts(
  app: FastifyInstance,
  userId: string,
  contacts: ListContactInput[],
  options: { name?: string; customFields?: string[] } = {},
): Promise<{ id: string }> {
  const [list] = await app.services.db
    .insert(contactLists)
    .values({
      userId,
      name: options.name ?? `List ${randomUUID().slice(0, 8)}`,
      customFields: options.customFields ?? [],
    })
    .returning({ id: contactLists.id });
  if (contacts.length > 0) {
    await app.services.db.insert(listContacts).values(
      contacts.map((c) => ({
        userId,
        listId: list!.id,
        email: c.email,
        emailNormalized: c.email.trim().toLowerCase(),
        firstName: c.firstName ?? null,
        lastName: c.lastName ?? null,
        company: c.company ?? null,
        city: c.city ?? null,
        countryCode: c.countryCode ?? null,
        customFields: c.customFields ?? {},
        source: 'manual' as const,
      })),
    );
  }
  return list!;
}

/** Unique addresses on a test domain (the shared PostgreSQL database outlives each test). */
export function testEmails(count: number, prefix = 'lead'): string[] {
  const run = randomUUID().slice(0, 8);
  return Array.from({ length: count }, (_, i) => `${prefix}${i}-${run}@kanofoods.test`);
}

export function stepBody(overrides: Partial<StepInput> = {}): StepInput {
  return {
    delayDays: 0,
    delayHours: 0,
    businessDays: false,
    condition: 'always',
    variants: [
      {
        key: 'A',
        subject: 'Hello {{ firstName | default: "there" }}',
        bodyHtml:
          '<p>Hi {{ firstName | default: "there" }}, a word from {{ company | default: "your team" }}.</p>',
        splitPercent: 100,
      },
    ],
    winnerRule: null,
    ...overrides,
  };
}

export const ROUND_THE_CLOCK = {
  windowStartMinute: 0,
  windowEndMinute: 1440,
  sendDays: [1, 2, 3, 4, 5, 6, 7],
  gapMinSeconds: 0,
  gapMaxSeconds: 0,
  timezoneMode: 'fixed' as const,
  timeZone: 'Africa/Lagos',
};

export async function createCampaignViaApi(
  app: FastifyInstance,
  cookie: string,
  body: Record<string, unknown> = {},
): Promise<Campaign> {
  const response = await as(
    app,
    cookie,
  )({
    method: 'POST',
    url: '/api/campaigns',
    payload: { name: `Campaign ${randomUUID().slice(0, 6)}`, ...ROUND_THE_CLOCK, ...body },
  });
  if (response.statusCode !== 201)
    throw new Error(`create campaign ${response.statusCode}: ${response.body}`);
  return response.json<Campaign>();
}

export async function addStepViaApi(
  app: FastifyInstance,
  cookie: string,
  campaignId: string,
  step: Partial<StepInput> = {},
): Promise<CampaignStep> {
  const response = await as(
    app,
    cookie,
  )({
    method: 'POST',
    url: `/api/campaigns/${campaignId}/steps`,
    payload: stepBody(step),
  });
  if (response.statusCode !== 201) throw new Error(`add step ${response.statusCode}: ${response.body}`);
  return response.json<CampaignStep>();
}
