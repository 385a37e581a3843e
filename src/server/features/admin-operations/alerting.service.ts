import type { Database } from '@server/db/client';
import { alertRules, alerts, users, workerHeartbeats } from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import { AppError, notFound } from '@server/lib/errors';
import { escapeHtml } from '@server/lib/html';
import type { SystemMailer } from '@server/lib/mailer';
import type {
  Alert,
  AlertingOverview,
  AlertRule,
  AlertRuleKey,
  AlertRuleUpdate,
} from '@shared/admin-operations';
import { and, desc, eq, ne, sql } from 'drizzle-orm';
import { type AuditActor, recordAuditEntry } from '../admin/audit.service';
import { ALERT_RULES, type AlertRuleDefinition, ruleDefinition } from './alert-rules';

/*
 * Alert rules and their alerts. The evaluate-alert-rules job measures every enabled rule each minute:
 * a rule at or over its threshold opens an alert (at most one active per rule) and mails the super
 * admins once; an active alert whose condition has cleared resolves itself. Acknowledging says someone
 * is on it; it still resolves by itself when the condition clears.
 */

interface Logger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

const HISTORY_SIZE = 100;

/** The rules' rows, created with their defaults the first time they are read. */
async function ensureRuleRows(db: Database) {
  await db
    .insert(alertRules)
    .values(ALERT_RULES.map((rule) => ({ key: rule.key, threshold: rule.defaultThreshold })))
    .onConflictDoNothing();
  return db.select().from(alertRules);
}

export async function getAlertingOverview({ db }: { db: Database }): Promise<AlertingOverview> {
  const rows = await ensureRuleRows(db);
  const active = await db
    .select()
    .from(alerts)
    .where(ne(alerts.state, 'resolved'))
    .orderBy(desc(alerts.openedAt));
  const resolved = await db
    .select()
    .from(alerts)
    .where(eq(alerts.state, 'resolved'))
    .orderBy(desc(alerts.openedAt))
    .limit(HISTORY_SIZE);
  const rules: AlertRule[] = ALERT_RULES.map((definition) => {
    const row = rows.find((r) => r.key === definition.key);
    return {
      key: definition.key,
      name: definition.name,
      description: definition.description,
      unit: definition.unit,
      enabled: row?.enabled ?? true,
      threshold: row?.threshold ?? definition.defaultThreshold,
      defaultThreshold: definition.defaultThreshold,
      lastValue: row?.lastValue ?? null,
      lastDetail: row?.lastDetail ?? null,
      lastEvaluatedAt: row?.lastEvaluatedAt?.toISOString() ?? null,
      updatedAt: (row?.updatedAt ?? now()).toISOString(),
      updatedBy: row?.updatedBy ?? null,
    };
  });
  return { generatedAt: now().toISOString(), rules, alerts: [...active, ...resolved].map(toAlert) };
}

function toAlert(row: typeof alerts.$inferSelect): Alert {
  const definition = ruleDefinition(row.ruleKey);
  return {
    id: row.id,
    ruleKey: row.ruleKey,
    ruleName: definition?.name ?? row.ruleKey,
    state: row.state,
    value: row.value,
    threshold: row.threshold,
    lastValue: row.lastValue,
    unit: definition?.unit ?? '',
    message: row.message,
    openedAt: row.openedAt.toISOString(),
    acknowledgedAt: row.acknowledgedAt?.toISOString() ?? null,
    acknowledgedBy: row.acknowledgedBy,
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
    notified: row.notified,
  };
}

export async function updateAlertRule(options: {
  db: Database;
  actor: AuditActor;
  key: string;
  update: AlertRuleUpdate;
}): Promise<AlertRule> {
  const definition = ruleDefinition(options.key);
  if (!definition) throw notFound('There is no alert rule with that name.');
  await ensureRuleRows(options.db);
  const [before] = await options.db.select().from(alertRules).where(eq(alertRules.key, definition.key));
  const [after] = await options.db
    .update(alertRules)
    .set({ ...options.update, updatedAt: now(), updatedBy: options.actor.email })
    .where(eq(alertRules.key, definition.key))
    .returning();
  await recordAuditEntry({
    db: options.db,
    actor: options.actor,
    action: 'alert_rule.update',
    targetType: 'alert_rule',
    targetId: definition.key,
    details: {
      before: { enabled: before?.enabled, threshold: before?.threshold },
      after: { enabled: after?.enabled, threshold: after?.threshold },
    },
  });
  const overview = await getAlertingOverview({ db: options.db });
  return overview.rules.find((rule) => rule.key === definition.key)!;
}

export async function acknowledgeAlert(options: {
  db: Database;
  actor: AuditActor;
  id: string;
}): Promise<Alert> {
  const [row] = await options.db.select().from(alerts).where(eq(alerts.id, options.id));
  if (!row) throw notFound('That alert does not exist.');
  if (row.state !== 'open') {
    throw new AppError(
      'conflict',
      row.state === 'acknowledged'
        ? 'This alert is already acknowledged.'
        : 'This alert is already resolved.',
    );
  }
  const [updated] = await options.db
    .update(alerts)
    .set({ state: 'acknowledged', acknowledgedAt: now(), acknowledgedBy: options.actor.email })
    .where(and(eq(alerts.id, options.id), eq(alerts.state, 'open')))
    .returning();
  await recordAuditEntry({
    db: options.db,
    actor: options.actor,
    action: 'alert.acknowledge',
    targetType: 'alert',
    targetId: options.id,
    details: { rule: row.ruleKey },
  });
  return toAlert(updated ?? row);
}

export interface EvaluationResult {
  evaluated: number;
  opened: number;
  resolved: number;
}

/**
 * Measures every enabled rule once. Safe to run twice and in several processes at once: the unique
 * index on active alerts lets one insert win, and only the winner mails.
 */
export async function evaluateAlertRules(options: {
  db: Database;
  mailer?: SystemMailer;
  appUrl?: string;
  log?: Logger;
  /** Only these rules (the web process checks "worker not seen" itself). */
  only?: AlertRuleKey[];
}): Promise<EvaluationResult> {
  const { db } = options;
  const rows = await ensureRuleRows(db);
  const result: EvaluationResult = { evaluated: 0, opened: 0, resolved: 0 };
  for (const definition of ALERT_RULES) {
    if (options.only && !options.only.includes(definition.key)) continue;
    const row = rows.find((r) => r.key === definition.key);
    const at = now();
    const [active] = await db
      .select()
      .from(alerts)
      .where(and(eq(alerts.ruleKey, definition.key), ne(alerts.state, 'resolved')));
    if (!row?.enabled) {
      // A switched-off rule watches nothing: its alert closes rather than staying open for ever.
      if (active) result.resolved += await resolve(db, active.id, at);
      continue;
    }
    let measure: Awaited<ReturnType<AlertRuleDefinition['measure']>>;
    try {
      measure = await definition.measure({ db, at });
    } catch (error) {
      options.log?.error({ err: error, rule: definition.key }, 'alert rule could not be measured');
      continue;
    }
    result.evaluated++;
    await db
      .update(alertRules)
      .set({ lastValue: measure.value, lastDetail: measure.detail, lastEvaluatedAt: at })
      .where(eq(alertRules.key, definition.key));
    const firing = measure.value >= row.threshold;
    if (firing && active) {
      await db
        .update(alerts)
        .set({ lastValue: measure.value, lastEvaluatedAt: at })
        .where(eq(alerts.id, active.id));
    } else if (firing) {
      const message = `${definition.name}: ${measure.value} ${definition.unit} (threshold ${row.threshold} ${definition.unit}). ${measure.detail}`;
      const [inserted] = await db
        .insert(alerts)
        .values({
          ruleKey: definition.key,
          state: 'open',
          value: measure.value,
          threshold: row.threshold,
          lastValue: measure.value,
          lastEvaluatedAt: at,
          openedAt: at,
          message,
        })
        .onConflictDoNothing()
        .returning({ id: alerts.id });
      if (inserted) {
        result.opened++;
        options.log?.warn(
          { rule: definition.key, value: measure.value, threshold: row.threshold },
          'alert opened',
        );
        const notified = await notifySuperAdmins({ ...options, definition, message });
        await db.update(alerts).set({ notified }).where(eq(alerts.id, inserted.id));
      }
    } else if (active) {
      result.resolved += await resolve(db, active.id, at, measure.value);
      options.log?.info({ rule: definition.key, value: measure.value }, 'alert resolved');
    }
  }
  return result;
}

async function resolve(db: Database, id: string, at: Date, lastValue?: number): Promise<number> {
  const updated = await db
    .update(alerts)
    .set({
      state: 'resolved',
      resolvedAt: at,
      lastEvaluatedAt: at,
      ...(lastValue === undefined ? {} : { lastValue }),
    })
    .where(and(eq(alerts.id, id), ne(alerts.state, 'resolved')))
    .returning({ id: alerts.id });
  return updated.length;
}

/** One mail per super admin (no one sees the others' addresses). Answers how many were sent. */
async function notifySuperAdmins(options: {
  db: Database;
  mailer?: SystemMailer;
  appUrl?: string;
  log?: Logger;
  definition: AlertRuleDefinition;
  message: string;
}): Promise<number> {
  if (!options.mailer) return 0;
  const admins = await options.db
    .select({ email: users.email })
    .from(users)
    .where(and(eq(users.role, 'super_admin'), sql`coalesce(${users.banned}, false) = false`));
  const link = `${options.appUrl ?? ''}/admin/alerting-dashboard`;
  let sent = 0;
  for (const admin of admins) {
    try {
      await options.mailer.send({
        to: admin.email,
        subject: `Tambari alert: ${options.definition.name}`,
        text: `${options.message}\n\nSee and acknowledge it on the Alerting screen: ${link}\n\nThis alert resolves by itself when the condition clears.`,
        html: `<p>${escapeHtml(options.message)}</p><p><a href="${escapeHtml(link)}">Open the Alerting screen</a> to acknowledge it.</p><p>This alert resolves by itself when the condition clears.</p>`,
      });
      sent++;
    } catch (error) {
      options.log?.error({ err: error, rule: options.definition.key }, 'alert mail could not be sent');
    }
  }
  return sent;
}

/** A worker process's sign of life, for the "worker not seen" rule. */
export async function recordWorkerHeartbeat(options: {
  db: Database;
  id: string;
  hostname: string;
  pid: number;
  startedAt: Date;
}): Promise<void> {
  const seenAt = now();
  await options.db
    .insert(workerHeartbeats)
    .values({
      id: options.id,
      hostname: options.hostname,
      pid: options.pid,
      startedAt: options.startedAt,
      seenAt,
    })
    .onConflictDoUpdate({ target: workerHeartbeats.id, set: { seenAt } });
  // Processes gone for a day are forgotten, so the list stays the live set plus recent deaths.
  await options.db.execute(
    sql`DELETE FROM worker_heartbeats WHERE seen_at < ${new Date(seenAt.getTime() - 86_400_000).toISOString()}::timestamptz`,
  );
}
