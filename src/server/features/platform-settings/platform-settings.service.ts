import type { Database } from '@server/db/client';
import { platformSettings } from '@server/db/schema/index';
import type { Env } from '@server/env';
import { now } from '@server/lib/clock';
import { AppError } from '@server/lib/errors';
import { escapeHtml } from '@server/lib/html';
import type { SystemMailIdentity } from '@server/lib/mailer';
import {
  DEFAULT_PLATFORM_SETTINGS,
  type PlatformSettings,
  type PlatformSettingsResponse,
  type PlatformSettingsUpdate,
  type ProviderStatus,
  platformSettingsSchema,
  type SenderDefaults,
  type SettingsChange,
  type SignupStatus,
} from '@shared/platform-settings';
import { desc } from 'drizzle-orm';
import { type AuditActor, listAuditEntriesFor, recordAuditEntry } from '../admin/audit.service';

type Section = keyof PlatformSettings;
const SETTINGS_AUDIT_ACTION = 'settings.update';
const SECTIONS = Object.keys(DEFAULT_PLATFORM_SETTINGS) as Section[];

/**
 * Hot paths (every registration, system email and sent message) read the settings; they change rarely.
 * A process keeps what it read for this long; a change made in the same process is seen at once, one made
 * in another process (web vs worker) within this window.
 */
const CACHE_MS = 15_000;
const cache = new WeakMap<Database, { at: number; settings: PlatformSettings }>();

/** A stored section merged over its defaults; a value an older version stored that no longer checks is dropped. */
function sectionFrom<S extends Section>(section: S, stored: unknown): PlatformSettings[S] {
  const schema = platformSettingsSchema.shape[section];
  const merged = { ...DEFAULT_PLATFORM_SETTINGS[section], ...(stored as object) };
  const parsed = schema.safeParse(merged);
  return (parsed.success ? parsed.data : DEFAULT_PLATFORM_SETTINGS[section]) as PlatformSettings[S];
}

async function readStored(db: Database) {
  const rows = await db.select().from(platformSettings).orderBy(desc(platformSettings.updatedAt));
  const settings = Object.fromEntries(
    SECTIONS.map((section) => [
      section,
      sectionFrom(section, rows.find((r) => r.section === section)?.value),
    ]),
  ) as PlatformSettings;
  return { settings, latest: rows[0] ?? null };
}

/** The settings now in force (defaults where nothing was saved). */
export async function getPlatformSettings(options: {
  db: Database;
  fresh?: boolean;
}): Promise<PlatformSettings> {
  const hit = cache.get(options.db);
  if (!options.fresh && hit && now().getTime() - hit.at < CACHE_MS) return hit.settings;
  const { settings } = await readStored(options.db);
  cache.set(options.db, { at: now().getTime(), settings });
  return settings;
}

/** Which outside services this deployment has: only whether each is set up, never a key or password. */
export function describeProviders(env: Env): ProviderStatus[] {
  const aiHost = env.AI_BASE_URL ? new URL(env.AI_BASE_URL).host : null;
  return [
    {
      id: 'smtp',
      name: 'System mail (SMTP)',
      configured: Boolean(env.SMTP_URL),
      detail: env.SMTP_URL
        ? 'SMTP_URL is set: password resets, receipts and notices go out through it.'
        : 'SMTP_URL is not set: system mail goes to the built-in development mailbox (Admin → Dev Mailbox).',
    },
    {
      id: 'paystack',
      name: 'Paystack',
      configured: Boolean(env.PAYSTACK_SECRET_KEY && env.PAYSTACK_PUBLIC_KEY),
      detail:
        env.PAYSTACK_SECRET_KEY && env.PAYSTACK_PUBLIC_KEY
          ? `Secret and public keys are set (API ${new URL(env.PAYSTACK_BASE_URL).host}).`
          : 'PAYSTACK_SECRET_KEY and PAYSTACK_PUBLIC_KEY are not both set: checkout cannot take payments.',
    },
    {
      id: 'ai',
      name: 'AI writing',
      configured: Boolean(env.AI_BASE_URL && env.AI_MODEL),
      detail: aiHost
        ? `Model ${env.AI_MODEL} at ${aiHost}${env.AI_API_KEY ? ' (API key set)' : ' (no API key)'}.`
        : 'AI_BASE_URL and AI_MODEL are not set: the AI buttons explain how to connect a provider.',
    },
  ];
}

export async function getPlatformSettingsForAdmin(options: {
  db: Database;
  env: Env;
}): Promise<PlatformSettingsResponse> {
  const { settings, latest } = await readStored(options.db);
  return {
    settings,
    providers: describeProviders(options.env),
    history: await listSettingsChanges({ db: options.db, limit: 20 }),
    updatedAt: latest?.updatedAt.toISOString() ?? null,
    updatedBy: latest?.updatedBy ?? null,
  };
}

export async function listSettingsChanges(options: {
  db: Database;
  limit: number;
}): Promise<SettingsChange[]> {
  const rows = await listAuditEntriesFor({
    db: options.db,
    action: SETTINGS_AUDIT_ACTION,
    limit: options.limit,
  });
  return rows.map((row) => ({
    id: row.id,
    section: row.targetId ?? '',
    actorEmail: row.actorEmail,
    at: row.createdAt,
    changes: (row.details.changes ?? {}) as SettingsChange['changes'],
  }));
}

/** The fields of `after` that differ from `before`, each as { before, after } (for the audit trail). */
function changedFields(before: Record<string, unknown>, after: Record<string, unknown>) {
  const changes: Record<string, { before: unknown; after: unknown }> = {};
  for (const key of Object.keys(after)) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key]))
      changes[key] = { before: before[key] ?? null, after: after[key] };
  }
  return changes;
}

/**
 * Saves the given sections (each whole, already checked by the shared schema). One audit entry per
 * section that changed, naming each field's value before and after; a save that changes nothing writes
 * nothing.
 */
export async function updatePlatformSettings(options: {
  db: Database;
  env: Env;
  actor: AuditActor;
  update: PlatformSettingsUpdate;
}): Promise<PlatformSettingsResponse> {
  const sections = SECTIONS.filter((section) => options.update[section] !== undefined);
  if (sections.length === 0) throw new AppError('validation', 'Nothing to save: send at least one section.');
  await options.db.transaction(async (tx) => {
    const { settings: current } = await readStored(tx);
    for (const section of sections) {
      const after = options.update[section] as Record<string, unknown>;
      const before = current[section] as Record<string, unknown>;
      const changes = changedFields(before, after);
      if (Object.keys(changes).length === 0) continue;
      const at = now();
      await tx
        .insert(platformSettings)
        .values({ section, value: after, updatedBy: options.actor.email, updatedAt: at })
        .onConflictDoUpdate({
          target: platformSettings.section,
          set: { value: after, updatedBy: options.actor.email, updatedAt: at },
        });
      await recordAuditEntry({
        db: tx,
        actor: options.actor,
        action: SETTINGS_AUDIT_ACTION,
        targetType: 'platform_settings',
        targetId: section,
        details: { section, changes },
      });
    }
  });
  cache.delete(options.db);
  return getPlatformSettingsForAdmin(options);
}

export async function getSignupStatus(options: { db: Database }): Promise<SignupStatus> {
  const { signups } = await getPlatformSettings(options);
  return { open: signups.open, message: signups.open ? '' : signups.closedMessage };
}

/** Registration asks this first: closed sign-ups refuse every new account with the operator's message. */
export async function assertSignupsOpen(options: { db: Database }): Promise<void> {
  const status = await getSignupStatus(options);
  if (!status.open) throw new AppError('forbidden', status.message, { reason: 'signups_closed' });
}

export async function getSenderDefaults(options: { db: Database }): Promise<SenderDefaults> {
  return (await getPlatformSettings(options)).senderDefaults;
}

/** Whether an optional feature is switched on. */
export async function isFeatureEnabled(options: {
  db: Database;
  feature: keyof PlatformSettings['features'];
}): Promise<boolean> {
  return (await getPlatformSettings(options)).features[options.feature];
}

/** The platform tracking domain, used when a campaign names none; null = APP_URL. */
export async function getDefaultTrackingDomain(options: { db: Database }): Promise<string | null> {
  return (await getPlatformSettings(options)).tracking.domain || null;
}

/** The From name and footer of system mail, from the company identity and support address. */
export async function getSystemMailIdentity(options: { db: Database }): Promise<SystemMailIdentity> {
  const { company, systemMail, support } = await getPlatformSettings(options);
  const address = company.postalAddress.replace(/\s*\n\s*/g, ', ');
  const lines = [company.name === address ? address : `${company.name} · ${address}`];
  lines.push(`Questions? ${support.email}${company.website ? ` · ${company.website}` : ''}`);
  return {
    fromName: systemMail.fromName,
    footerText: lines.join('\n'),
    footerHtml: `<hr style="border:none;border-top:1px solid #e5e7eb;margin:24px 0 12px"><p style="color:#6b7280;font-size:12px;line-height:1.5">${lines.map(escapeHtml).join('<br>')}</p>`,
  };
}

/** For tests: forget what this process read. */
export function forgetCachedSettings(db: Database): void {
  cache.delete(db);
}
