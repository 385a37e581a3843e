import {
  MAX_VARIANTS,
  STEP_CONDITION_LABELS,
  type StepCondition,
  type StepInput,
  stepInputSchema,
  THREAD_REPLY,
  VARIANT_KEYS,
  type VariantKey,
  variantsMissingFirstSubject,
  type WinnerMetric,
} from '@shared/campaigns';
import type { CampaignStatus } from '@shared/sending';
import type { CampaignStep } from '../api/campaigns';

/*
 * The step editor's form as the browser holds it, its checks (the server's stepInputSchema, with the
 * messages mapped onto the fields), the A/B split arithmetic and how a step's timing reads on screen.
 * Pure functions, tested beside this file.
 */

export interface VariantDraft {
  key: VariantKey;
  subject: string;
  bodyHtml: string;
  splitPercent: number;
}

export interface StepDraft {
  delayDays: number;
  delayHours: number;
  businessDays: boolean;
  condition: StepCondition;
  variants: VariantDraft[];
  winnerEnabled: boolean;
  winnerMetric: WinnerMetric;
  winnerAfterSends: number;
}

export const WINNER_METRIC_LABELS: Record<WinnerMetric, string> = {
  open: 'Open rate',
  click: 'Click rate',
  reply: 'Reply rate',
};

export const DEFAULT_WINNER_AFTER_SENDS = 100;
export const MIN_WINNER_AFTER_SENDS = 10;

/** Steps can be written while nothing is sending: before launch, while scheduled, or paused. */
export const EDITABLE_STATUSES: readonly CampaignStatus[] = ['draft', 'scheduled', 'paused'];
export function canEditSteps(status: CampaignStatus): boolean {
  return EDITABLE_STATUSES.includes(status);
}

/** Why the steps are read-only, in the words of the campaign's state. */
export function readOnlyReason(status: CampaignStatus): string | null {
  if (canEditSteps(status)) return null;
  if (status === 'active') return 'This campaign is sending. Pause it to edit its steps.';
  return 'This campaign has ended; its steps can no longer be changed.';
}

/** A new step: the first one goes out at once; a later one is a follow-up 3 days on, if no reply. */
export function newStepDraft(isFirst: boolean): StepDraft {
  return {
    delayDays: isFirst ? 0 : 3,
    delayHours: 0,
    businessDays: false,
    condition: isFirst ? 'always' : 'no_reply',
    variants: [{ key: 'A', subject: '', bodyHtml: '', splitPercent: 100 }],
    winnerEnabled: false,
    winnerMetric: 'open',
    winnerAfterSends: DEFAULT_WINNER_AFTER_SENDS,
  };
}

export function stepToDraft(step: CampaignStep): StepDraft {
  return {
    delayDays: step.delayDays,
    delayHours: step.delayHours,
    businessDays: step.businessDays,
    condition: step.condition,
    variants: [...step.variants]
      .sort((a, b) => a.key.localeCompare(b.key))
      .map(({ key, subject, bodyHtml, splitPercent }) => ({ key, subject, bodyHtml, splitPercent })),
    winnerEnabled: step.winnerRule !== null,
    winnerMetric: step.winnerRule?.metric ?? 'open',
    winnerAfterSends: step.winnerRule?.afterSends ?? DEFAULT_WINNER_AFTER_SENDS,
  };
}

export function draftToInput(draft: StepDraft): StepInput {
  return {
    delayDays: draft.delayDays,
    delayHours: draft.delayHours,
    businessDays: draft.businessDays,
    condition: draft.condition,
    variants: draft.variants.map((variant) => ({
      key: variant.key,
      subject: variant.subject,
      bodyHtml: variant.bodyHtml,
      splitPercent: variant.splitPercent,
    })),
    // A winner needs something to choose between.
    winnerRule:
      draft.winnerEnabled && draft.variants.length > 1
        ? { metric: draft.winnerMetric, afterSends: draft.winnerAfterSends }
        : null,
  };
}

/** Field errors keyed `delayDays`, `variants`, `variants.B.subject`, `winnerAfterSends`… */
export type StepErrors = Record<string, string>;

/**
 * The server's own schema, its messages placed on the fields the user can fix; plus an empty body, and
 * an empty subject on the first step (a follow-up's may be empty: it replies in the same thread).
 */
export function validateStepDraft(draft: StepDraft, isFirstStep: boolean): StepErrors {
  const errors: StepErrors = {};
  const parsed = stepInputSchema.safeParse(draftToInput(draft));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const [first, index, field] = issue.path;
      let key: string;
      if (first === 'variants' && typeof index === 'number' && typeof field === 'string') {
        key = `variants.${draft.variants[index]?.key ?? index}.${field}`;
      } else if (first === 'winnerRule') {
        key = 'winnerAfterSends';
      } else {
        key = String(first ?? 'form');
      }
      errors[key] ??= issue.message;
    }
  }
  for (const variant of draft.variants) {
    const key = `variants.${variant.key}.bodyHtml`;
    if (!errors[key] && variant.bodyHtml.trim() === '') errors[key] = 'Write the email body';
  }
  for (const index of variantsMissingFirstSubject(draft.variants, isFirstStep)) {
    errors[`variants.${draft.variants[index]!.key}.subject`] ??= THREAD_REPLY.firstStepNeedsSubject;
  }
  return errors;
}

/** The first variant (by letter) a field error belongs to, so the editor can open that tab. */
export function firstVariantWithError(errors: StepErrors): VariantKey | null {
  let first: VariantKey | null = null;
  for (const key of Object.keys(errors)) {
    const match = /^variants\.([A-D])\./.exec(key);
    if (match && (first === null || match[1]! < first)) first = match[1] as VariantKey;
  }
  return first;
}

/** Whole percentages that add up to 100, the first ones taking the remainder (34/33/33). */
export function evenSplit(count: number): number[] {
  if (count <= 0) return [];
  const base = Math.floor(100 / count);
  const remainder = 100 - base * count;
  return Array.from({ length: count }, (_, i) => base + (i < remainder ? 1 : 0));
}

function withSplits(variants: VariantDraft[], splits: number[]): VariantDraft[] {
  return variants.map((variant, i) => ({ ...variant, splitPercent: splits[i] ?? 0 }));
}

/** Adds the next free letter (copying the subject and body of A as a starting point) and splits evenly. */
export function addVariant(variants: VariantDraft[]): VariantDraft[] {
  if (variants.length >= MAX_VARIANTS) return variants;
  const used = new Set(variants.map((v) => v.key));
  const key = VARIANT_KEYS.find((k) => !used.has(k));
  if (!key) return variants;
  const source = variants[0];
  const next = [
    ...variants,
    { key, subject: source?.subject ?? '', bodyHtml: source?.bodyHtml ?? '', splitPercent: 0 },
  ];
  return withSplits(next, evenSplit(next.length));
}

/** Removes a variant (never the last one) and splits the rest evenly. */
export function removeVariant(variants: VariantDraft[], key: VariantKey): VariantDraft[] {
  if (variants.length <= 1) return variants;
  const next = variants.filter((v) => v.key !== key);
  return withSplits(next, evenSplit(next.length));
}

/**
 * Sets one variant's share. With two variants the other one takes the rest, so the split always adds up
 * to 100; with more, the user balances them (or presses "Split evenly").
 */
export function setVariantSplit(variants: VariantDraft[], key: VariantKey, percent: number): VariantDraft[] {
  const value = Number.isFinite(percent) ? Math.min(100, Math.max(0, Math.round(percent))) : 0;
  if (variants.length === 2) {
    return variants.map((v) => ({ ...v, splitPercent: v.key === key ? value : 100 - value }));
  }
  return variants.map((v) => (v.key === key ? { ...v, splitPercent: value } : v));
}

export function splitTotal(variants: VariantDraft[]): number {
  return variants.reduce((sum, v) => sum + v.splitPercent, 0);
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** "3 days", "3 business days and 4 hours", "" when there is no wait. */
export function formatDelay(step: Pick<StepDraft, 'delayDays' | 'delayHours' | 'businessDays'>): string {
  const parts: string[] = [];
  if (step.delayDays > 0) parts.push(plural(step.delayDays, step.businessDays ? 'business day' : 'day'));
  if (step.delayHours > 0) parts.push(plural(step.delayHours, 'hour'));
  return parts.join(' and ');
}

/** How a step's timing reads on its card. */
export function describeStepTiming(
  step: Pick<StepDraft, 'delayDays' | 'delayHours' | 'businessDays'>,
  isFirst: boolean,
): string {
  const delay = formatDelay(step);
  if (isFirst) return delay ? `${delay} after the campaign starts` : 'As soon as the campaign starts';
  return delay ? `${delay} after the previous step` : 'Right after the previous step';
}

/** "If no reply" → "Only if they have not replied"; the card reads the condition as a sentence. */
export function describeCondition(condition: StepCondition, isFirst: boolean): string {
  if (isFirst) return 'Sent to everyone in the audience';
  switch (condition) {
    case 'always':
      return 'Sent to everyone still in the sequence';
    case 'no_reply':
      return 'Only to contacts who have not replied';
    case 'not_opened':
      return 'Only to contacts who did not open an earlier email';
    case 'clicked':
      return 'Only to contacts who clicked a link';
  }
}

export function conditionLabel(condition: StepCondition): string {
  return STEP_CONDITION_LABELS[condition];
}

/** The step ids after moving the one at `index` by `delta` (−1 up, +1 down); unchanged at the ends. */
export function moveStep(ids: readonly string[], index: number, delta: -1 | 1): string[] {
  const target = index + delta;
  if (index < 0 || index >= ids.length || target < 0 || target >= ids.length) return [...ids];
  const next = [...ids];
  const [moved] = next.splice(index, 1);
  next.splice(target, 0, moved as string);
  return next;
}

/** Subject and body of a draft compared with the saved step, to warn about unsaved changes. */
export function isDraftDirty(draft: StepDraft, saved: StepDraft): boolean {
  return JSON.stringify(draftToInput(draft)) !== JSON.stringify(draftToInput(saved));
}
