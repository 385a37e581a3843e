import { campaignSettingsSchema, OPEN_TRACKING_REASON } from '@shared/campaigns';
import { describe, expect, it } from 'vitest';
import {
  checkWithSharedSchema,
  describeLeadFilter,
  emptyCampaignForm,
  formFromCampaign,
  leadFilterCountParams,
  toCampaignSettings,
  validateAll,
  validateStep,
} from './campaign-form';

const NOW = new Date('2026-03-02T10:00:00Z');

function filled() {
  return {
    ...emptyCampaignForm('Lagos logistics intro'),
    listIds: ['7d4c3a44-2a0e-4d8e-9a43-5f0c0b6a1c11'],
    senderAccountIds: ['0f2e4d6c-8b1a-4c3e-9f5d-7a6b8c9d0e1f'],
  };
}

describe('campaign form steps', () => {
  it('asks for a name and an audience before going on', () => {
    const form = emptyCampaignForm();
    expect(validateStep('name', form, NOW)).toEqual({ name: 'Enter a name' });
    expect(validateStep('audience', form, NOW).audience).toMatch(/at least one list/);
    expect(validateStep('name', { ...form, name: 'x'.repeat(121) }, NOW).name).toMatch(/120/);
    expect(validateAll(filled(), NOW)).toEqual({});
  });

  it('refuses a start in the past, an empty window, a reversed gap and a silly cap', () => {
    const errors = validateStep(
      'schedule',
      {
        ...filled(),
        startMode: 'later',
        scheduledAt: '2026-03-01T09:00',
        windowStart: '09:00',
        windowEnd: '09:00',
        gapMinSeconds: '200',
        gapMaxSeconds: '100',
        dailyCap: '0',
        sendDays: [],
      },
      NOW,
    );
    expect(errors).toEqual({
      scheduledAt: 'Choose a time in the future',
      windowEnd: expect.stringMatching(/end after it starts/),
      gapMaxSeconds: 'The longest gap must be at least the shortest',
      dailyCap: 'Enter 1 to 100,000, or leave it empty',
      sendDays: 'Choose at least one sending day',
    });
    expect(validateStep('schedule', { ...filled(), gapMinSeconds: '-5' }, NOW).gapMinSeconds).toBeDefined();
  });
});

describe('campaign form pace and tracking domain', () => {
  it('checks the per-domain pace and the tracking domain, and keeps both through a round trip', () => {
    expect(validateStep('schedule', { ...filled(), domainPacePerHour: '0' }, NOW)).toEqual({
      domainPacePerHour: 'Enter 1 to 10,000, or leave it empty',
    });
    expect(validateStep('schedule', { ...filled(), trackingDomain: 'not a domain' }, NOW)).toEqual({
      trackingDomain: 'Enter a domain like track.example.com',
    });
    const body = toCampaignSettings({
      ...filled(),
      domainPacePerHour: '25',
      trackingDomain: ' https://Track.Example.com/ ',
    });
    const parsed = campaignSettingsSchema.parse(body);
    expect(parsed.domainPacePerHour).toBe(25);
    expect(parsed.trackingDomain).toBe('track.example.com');
    const back = formFromCampaign({ ...parsed, name: 'x' });
    expect(back.domainPacePerHour).toBe('25');
    expect(back.trackingDomain).toBe('track.example.com');
    expect(toCampaignSettings(filled()).domainPacePerHour).toBeNull();
    expect(toCampaignSettings(filled()).trackingDomain).toBeNull();
  });
});

describe('open tracking of a cold campaign', () => {
  it('starts off in the form and in the API default, with the reason to show beside the toggle', () => {
    expect(emptyCampaignForm().trackOpens).toBe(false);
    expect(emptyCampaignForm().trackClicks).toBe(true);
    expect(toCampaignSettings(filled()).trackOpens).toBe(false);
    expect(campaignSettingsSchema.parse({ name: 'Lagos' }).trackOpens).toBe(false);
    // Turned on, it stays on; an existing campaign reads back as it is.
    expect(campaignSettingsSchema.parse({ name: 'Lagos', trackOpens: true }).trackOpens).toBe(true);
    expect(toCampaignSettings({ ...filled(), trackOpens: true }).trackOpens).toBe(true);
    expect(OPEN_TRACKING_REASON).toMatch(/HTML_IMAGE_ONLY/);
    expect(OPEN_TRACKING_REASON).toMatch(/Apple Mail and Gmail/);
    expect(OPEN_TRACKING_REASON).toMatch(/Replies and clicks/);
  });
});

describe('campaign form conversion', () => {
  it('produces a body the shared schema accepts, with the window in minutes', () => {
    const body = toCampaignSettings({
      ...filled(),
      windowStart: '07:30',
      windowEnd: '18:00',
      dailyCap: '120',
      sendDays: [5, 1, 3],
      startMode: 'later',
      scheduledAt: '2026-04-01T09:00',
    });
    const parsed = campaignSettingsSchema.parse(body);
    expect(parsed.windowStartMinute).toBe(450);
    expect(parsed.windowEndMinute).toBe(1080);
    expect(parsed.sendDays).toEqual([1, 3, 5]);
    expect(parsed.dailyCap).toBe(120);
    expect(parsed.scheduledAt).toBe(new Date('2026-04-01T09:00').toISOString());
    expect(checkWithSharedSchema(filled())).toEqual({});
  });

  it('sends all day as start = end and no cap as null, and reads a campaign back the same', () => {
    const body = toCampaignSettings({ ...filled(), allDay: true });
    expect(body.windowStartMinute).toBe(0);
    expect(body.windowEndMinute).toBe(0);
    expect(body.dailyCap).toBeNull();
    expect(body.scheduledAt).toBeNull();
    const back = formFromCampaign({
      ...campaignSettingsSchema.parse(body),
      name: 'Lagos logistics intro',
    });
    expect(back.allDay).toBe(true);
    expect(back.listIds).toEqual(filled().listIds);
    expect(back.dailyCap).toBe('');
    expect(back.startMode).toBe('now');
  });

  it('describes a lead selection and turns its keyword into the count query', () => {
    const filter = { country: ['NG'], category: ['logistics'], keyword: 'haul', verifiedOnly: true };
    expect(
      describeLeadFilter(filter, {
        country: (c) => (c === 'NG' ? 'Nigeria' : c),
        category: () => 'Logistics',
      }),
    ).toBe('Nigeria · Logistics · “haul”, verified only');
    expect(leadFilterCountParams(filter)).toMatchObject({ q: 'haul', verifiedOnly: true, country: ['NG'] });
    expect(leadFilterCountParams({ keyword: 'ab' }).q).toBeUndefined();
  });
});

describe('campaign form protection limits', () => {
  it('starts at 5% bounces and 0.3% complaints, takes a comma decimal, and refuses limits out of range', () => {
    const form = filled();
    expect(toCampaignSettings(form)).toMatchObject({ bouncePausePercent: 5, complaintPausePercent: 0.3 });
    const typed = { ...form, bouncePausePercent: '7,5', complaintPausePercent: '0.5%' };
    expect(validateStep('schedule', typed)).toEqual({});
    expect(toCampaignSettings(typed)).toMatchObject({ bouncePausePercent: 7.5, complaintPausePercent: 0.5 });
    expect(campaignSettingsSchema.safeParse(toCampaignSettings(typed)).success).toBe(true);
    expect(
      validateStep('schedule', { ...form, bouncePausePercent: '0', complaintPausePercent: 'lots' }),
    ).toEqual({
      bouncePausePercent: 'The bounce limit must be between 0.5% and 50%',
      complaintPausePercent: 'The complaint limit must be between 0.05% and 10%',
    });
  });
});
