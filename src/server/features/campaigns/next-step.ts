import { campaignSteps, campaigns } from '@server/db/schema/index';
import { DAY_MS, dayKey, isoWeekday, wallTimeAt } from '@server/lib/local-time';
import { inArray, sql } from 'drizzle-orm';
import type { SentStepHook } from '../sending/sending.service';

/*
 * When a contact's next step comes due. The dispatcher calls scheduleNextSteps when it records a sent
 * message (delivery-outcomes.ts); it is handed to the dispatcher where that is composed (the worker), so
 * the sending engine never imports campaigns.
 */

const HOUR_MS = 3_600_000;

export interface StepDelay {
  delayDays: number;
  delayHours: number;
  businessDays: boolean;
}

function weekdayIn(instantMs: number, timeZone: string): number {
  let wall: ReturnType<typeof wallTimeAt>;
  try {
    wall = wallTimeAt(instantMs, timeZone);
  } catch {
    wall = wallTimeAt(instantMs, 'UTC');
  }
  return isoWeekday(dayKey(wall.year, wall.month, wall.day));
}

/**
 * `from` plus the step's delay. Business days count Monday–Friday in the campaign's zone: Friday + 1
 * business day is Monday, Saturday + 1 is Monday too. Hours are added after the days.
 */
export function addStepDelay(from: Date, delay: StepDelay, timeZone: string): Date {
  let at = from.getTime();
  if (delay.businessDays) {
    let counted = 0;
    while (counted < delay.delayDays) {
      at += DAY_MS;
      if (weekdayIn(at, timeZone) <= 5) counted++;
    }
  } else {
    at += delay.delayDays * DAY_MS;
  }
  return new Date(at + delay.delayHours * HOUR_MS);
}

/**
 * Called in the transaction that records sent messages: each contact whose step message was just sent
 * gets its next step's due time (sent time + that step's delay), or, after the last step, 'completed'.
 * Guarded by the contact's current step, so a late redelivery of an old step changes nothing.
 * Newsletter and bulk messages (no step) are left alone.
 */
export const scheduleNextSteps: SentStepHook = async (options) => {
  const messages = options.messages.filter((m) => m.stepId);
  if (messages.length === 0) return;
  const campaignIds = [...new Set(messages.map((m) => m.campaignId))];
  const [steps, zones] = await Promise.all([
    options.db
      .select({
        id: campaignSteps.id,
        campaignId: campaignSteps.campaignId,
        position: campaignSteps.position,
        delayDays: campaignSteps.delayDays,
        delayHours: campaignSteps.delayHours,
        businessDays: campaignSteps.businessDays,
      })
      .from(campaignSteps)
      .where(inArray(campaignSteps.campaignId, campaignIds)),
    options.db
      .select({ id: campaigns.id, timeZone: campaigns.timeZone })
      .from(campaigns)
      .where(inArray(campaigns.id, campaignIds)),
  ]);
  const stepById = new Map(steps.map((s) => [s.id, s]));
  const stepAt = new Map(steps.map((s) => [`${s.campaignId}:${s.position}`, s]));
  const zoneOf = new Map(zones.map((z) => [z.id, z.timeZone]));
  const rows = messages.flatMap((m) => {
    const step = stepById.get(m.stepId!);
    if (!step) return [];
    const next = stepAt.get(`${m.campaignId}:${step.position + 1}`);
    const due = next ? addStepDelay(options.sentAt, next, zoneOf.get(m.campaignId) ?? 'UTC') : null;
    return [{ contactId: m.campaignContactId, position: step.position, due }];
  });
  if (rows.length === 0) return;
  const at = options.sentAt.toISOString();
  const values = sql.join(
    rows.map(
      (r) => sql`(${r.contactId}::uuid, ${r.position}::int, ${r.due?.toISOString() ?? null}::timestamptz)`,
    ),
    sql`, `,
  );
  await options.db.execute(sql`
    UPDATE campaign_contacts AS c
    SET next_step_at = v.due,
        status = CASE WHEN v.due IS NULL AND c.status = 'active' THEN 'completed' ELSE c.status END,
        status_changed_at = CASE WHEN v.due IS NULL AND c.status = 'active' THEN ${at}::timestamptz ELSE c.status_changed_at END,
        updated_at = ${at}::timestamptz
    FROM (VALUES ${values}) AS v(id, position, due)
    WHERE c.id = v.id AND c.current_step = v.position AND c.status IN ('active', 'paused')`);
};
