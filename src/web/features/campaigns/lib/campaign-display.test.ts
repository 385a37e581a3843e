import { describe, expect, it } from 'vitest';
import {
  availableActions,
  campaignTab,
  clampPercent,
  filterByTab,
  formatGap,
  formatRate,
  formatSendDays,
  formatWindow,
  minutesToTime,
  readCampaignTab,
  timeToMinutes,
} from './campaign-display';

describe('campaign tabs', () => {
  it('puts each status under its tab and archived ones only under Archived', () => {
    expect(campaignTab({ status: 'draft', archivedAt: null })).toBe('drafts');
    expect(campaignTab({ status: 'paused', archivedAt: null })).toBe('active');
    expect(campaignTab({ status: 'scheduled', archivedAt: null })).toBe('active');
    expect(campaignTab({ status: 'stopped', archivedAt: null })).toBe('completed');
    expect(campaignTab({ status: 'completed', archivedAt: '2026-01-01T00:00:00Z' })).toBe('archived');
    const rows = [
      { id: 1, status: 'active' as const, archivedAt: null },
      { id: 2, status: 'draft' as const, archivedAt: null },
      { id: 3, status: 'completed' as const, archivedAt: null },
    ];
    expect(filterByTab(rows, 'drafts').map((r) => r.id)).toEqual([2]);
    expect(filterByTab(rows, 'active').map((r) => r.id)).toEqual([1]);
  });

  it('reads an unknown tab from the URL as Active', () => {
    expect(readCampaignTab('archived')).toBe('archived');
    expect(readCampaignTab('nonsense')).toBe('active');
    expect(readCampaignTab(null)).toBe('active');
  });
});

describe('numbers', () => {
  it('formats rates and leaves 0 of 0 without a rate', () => {
    expect(formatRate(0, 0)).toBe('—');
    expect(formatRate(1, 3)).toBe('33.3%');
    expect(formatRate(1, 8)).toBe('12.5%');
    expect(formatRate(1, 2)).toBe('50%');
    expect(formatRate(1, 200)).toBe('0.5%');
  });

  it('clamps progress', () => {
    expect(clampPercent(140)).toBe(100);
    expect(clampPercent(-3)).toBe(0);
    expect(clampPercent(Number.NaN)).toBe(0);
    expect(clampPercent(42.6)).toBe(43);
  });
});

describe('sending window', () => {
  it('converts times of day both ways and refuses nonsense', () => {
    expect(minutesToTime(510)).toBe('08:30');
    expect(minutesToTime(1440)).toBe('24:00');
    expect(timeToMinutes('08:30')).toBe(510);
    expect(timeToMinutes('24:00')).toBe(1440);
    expect(timeToMinutes('24:30')).toBeNull();
    expect(timeToMinutes('9:75')).toBeNull();
    expect(timeToMinutes('soon')).toBeNull();
  });

  it('describes days, window and gap in words', () => {
    expect(formatSendDays([1, 2, 3, 4, 5])).toBe('Mon–Fri');
    expect(formatSendDays([7, 1, 2, 3, 4, 5, 6])).toBe('Every day');
    expect(formatSendDays([1, 3, 5])).toBe('Mon, Wed, Fri');
    expect(
      formatWindow({
        windowStartMinute: 480,
        windowEndMinute: 1020,
        sendDays: [1, 2, 3, 4, 5],
        timezoneMode: 'fixed',
        timeZone: 'Africa/Dar_es_Salaam',
      }),
    ).toBe('08:00–17:00, Mon–Fri, Africa/Dar es Salaam');
    expect(
      formatWindow({
        windowStartMinute: 0,
        windowEndMinute: 0,
        sendDays: [1, 2, 3, 4, 5, 6, 7],
        timezoneMode: 'recipient',
        timeZone: 'Africa/Lagos',
      }),
    ).toBe("All day, Every day, each recipient's time zone");
    expect(formatGap(60, 180)).toBe('1 min–3 min');
    expect(formatGap(0, 0)).toBe('No gap');
    expect(formatGap(45, 45)).toBe('45 s');
  });
});

describe('actions by status', () => {
  it('offers launch and delete only for drafts, resume only when paused', () => {
    expect(availableActions('draft', false)).toMatchObject({ launch: true, delete: true, pause: false });
    expect(availableActions('active', false)).toMatchObject({
      launch: false,
      pause: true,
      stop: true,
      resume: false,
      archive: false,
      edit: false,
    });
    expect(availableActions('paused', false)).toMatchObject({ resume: true, edit: true, stop: true });
    expect(availableActions('completed', true)).toMatchObject({ archive: false, unarchive: true });
  });
});
