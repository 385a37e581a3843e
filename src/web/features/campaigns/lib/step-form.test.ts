import { describe, expect, it } from 'vitest';
import type { CampaignStep } from '../api/campaigns';
import {
  addVariant,
  canEditSteps,
  describeStepTiming,
  draftToInput,
  evenSplit,
  firstVariantWithError,
  isDraftDirty,
  moveStep,
  newStepDraft,
  readOnlyReason,
  removeVariant,
  setVariantSplit,
  splitTotal,
  stepToDraft,
  validateStepDraft,
} from './step-form';

const filled = () => {
  const draft = newStepDraft(true);
  draft.variants = [
    {
      key: 'A',
      subject: 'Hi {{ firstName | default: "there" }}',
      bodyHtml: '<p>Hello</p>',
      splitPercent: 100,
    },
  ];
  return draft;
};

describe('step form', () => {
  it('starts the first step at once and a later one as a follow-up 3 days on if no reply', () => {
    expect(newStepDraft(true)).toMatchObject({ delayDays: 0, condition: 'always' });
    expect(newStepDraft(false)).toMatchObject({ delayDays: 3, condition: 'no_reply' });
  });

  it('splits evenly in whole percentages that add up to 100', () => {
    expect(evenSplit(1)).toEqual([100]);
    expect(evenSplit(2)).toEqual([50, 50]);
    expect(evenSplit(3)).toEqual([34, 33, 33]);
    expect(evenSplit(4)).toEqual([25, 25, 25, 25]);
  });

  it('adds variants B, C, D from A and never more than four', () => {
    let variants = filled().variants;
    variants = addVariant(variants);
    expect(variants.map((v) => [v.key, v.splitPercent, v.subject])).toEqual([
      ['A', 50, 'Hi {{ firstName | default: "there" }}'],
      ['B', 50, 'Hi {{ firstName | default: "there" }}'],
    ]);
    variants = addVariant(addVariant(variants));
    expect(variants.map((v) => v.key)).toEqual(['A', 'B', 'C', 'D']);
    expect(addVariant(variants)).toHaveLength(4);
    // Removing B frees its letter for the next one.
    variants = removeVariant(variants, 'B');
    expect(variants.map((v) => [v.key, v.splitPercent])).toEqual([
      ['A', 34],
      ['C', 33],
      ['D', 33],
    ]);
    expect(addVariant(variants).map((v) => v.key)).toEqual(['A', 'C', 'D', 'B']);
    expect(removeVariant([variants[0]!], 'A')).toHaveLength(1);
  });

  it('keeps a two-way split at 100 and lets a wider split be balanced by hand', () => {
    const two = addVariant(filled().variants);
    expect(setVariantSplit(two, 'A', 70).map((v) => v.splitPercent)).toEqual([70, 30]);
    expect(setVariantSplit(two, 'B', 140).map((v) => v.splitPercent)).toEqual([0, 100]);
    const three = addVariant(two);
    const changed = setVariantSplit(three, 'A', 50);
    expect(changed.map((v) => v.splitPercent)).toEqual([50, 33, 33]);
    expect(splitTotal(changed)).toBe(116);
  });

  it('reports the server schema messages on the fields and opens the variant at fault', () => {
    const draft = addVariant(filled().variants);
    const step = { ...filled(), variants: draft };
    expect(validateStepDraft(step, true)).toEqual({});
    step.variants = setVariantSplit(addVariant(step.variants), 'A', 90);
    step.variants[1] = { ...step.variants[1]!, subject: ' ' };
    step.variants[2] = { ...step.variants[2]!, bodyHtml: '' };
    const errors = validateStepDraft(step, true);
    expect(errors.variants).toBe('The A/B split must add up to 100%');
    expect(errors['variants.B.subject']).toBe('Enter a subject');
    expect(errors['variants.C.bodyHtml']).toBe('Write the email body');
    expect(firstVariantWithError(errors)).toBe('B');
    expect(validateStepDraft({ ...filled(), delayHours: 30 }, true).delayHours).toBeDefined();
    expect(
      validateStepDraft(
        {
          ...step,
          variants: addVariant(filled().variants),
          winnerEnabled: true,
          winnerAfterSends: 3,
        },
        true,
      ),
    ).toHaveProperty('winnerAfterSends');
  });

  it('lets a follow-up leave the subject empty (a reply in the same thread), never the first step', () => {
    const noSubject = { ...filled(), variants: [{ ...filled().variants[0]!, subject: '  ' }] };
    expect(validateStepDraft(noSubject, false)).toEqual({});
    expect(validateStepDraft(noSubject, true)).toEqual({ 'variants.A.subject': 'Enter a subject' });
  });

  it('sends a winner rule only when there is more than one variant', () => {
    const draft = { ...filled(), winnerEnabled: true, winnerMetric: 'reply' as const, winnerAfterSends: 200 };
    expect(draftToInput(draft).winnerRule).toBeNull();
    expect(draftToInput({ ...draft, variants: addVariant(draft.variants) }).winnerRule).toEqual({
      metric: 'reply',
      afterSends: 200,
    });
  });

  it('round-trips a saved step and notices changes', () => {
    const step: CampaignStep = {
      id: 's1',
      position: 2,
      delayDays: 3,
      delayHours: 0,
      businessDays: true,
      condition: 'no_reply',
      winnerRule: { metric: 'click', afterSends: 50 },
      winnerVariantKey: null,
      variants: [
        { id: 'v2', key: 'B', subject: 'b', bodyHtml: '<p>b</p>', splitPercent: 40 },
        { id: 'v1', key: 'A', subject: 'a', bodyHtml: '<p>a</p>', splitPercent: 60 },
      ],
    };
    const draft = stepToDraft(step);
    expect(draft.variants.map((v) => v.key)).toEqual(['A', 'B']);
    expect(draftToInput(draft)).toMatchObject({
      businessDays: true,
      winnerRule: { metric: 'click', afterSends: 50 },
    });
    expect(isDraftDirty(draft, stepToDraft(step))).toBe(false);
    expect(isDraftDirty({ ...draft, delayDays: 4 }, stepToDraft(step))).toBe(true);
  });

  it('describes a step timing the way the timeline shows it', () => {
    expect(describeStepTiming({ delayDays: 0, delayHours: 0, businessDays: false }, true)).toBe(
      'As soon as the campaign starts',
    );
    expect(describeStepTiming({ delayDays: 3, delayHours: 0, businessDays: true }, false)).toBe(
      '3 business days after the previous step',
    );
    expect(describeStepTiming({ delayDays: 1, delayHours: 4, businessDays: false }, false)).toBe(
      '1 day and 4 hours after the previous step',
    );
    expect(describeStepTiming({ delayDays: 0, delayHours: 0, businessDays: false }, false)).toBe(
      'Right after the previous step',
    );
  });

  it('moves steps up and down and leaves the ends alone', () => {
    expect(moveStep(['a', 'b', 'c'], 1, -1)).toEqual(['b', 'a', 'c']);
    expect(moveStep(['a', 'b', 'c'], 1, 1)).toEqual(['a', 'c', 'b']);
    expect(moveStep(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moveStep(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
  });

  it('lets steps be edited only while nothing sends', () => {
    expect(canEditSteps('draft')).toBe(true);
    expect(canEditSteps('paused')).toBe(true);
    expect(canEditSteps('active')).toBe(false);
    expect(readOnlyReason('active')).toMatch(/Pause it/);
    expect(readOnlyReason('completed')).toMatch(/ended/);
    expect(readOnlyReason('scheduled')).toBeNull();
  });
});
