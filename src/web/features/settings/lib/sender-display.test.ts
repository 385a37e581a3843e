import type { DomainCheck, DomainCheckItem } from '@shared/sending';
import { describe, expect, it } from 'vitest';
import { capacityDisplay, imapDisplay, senderStatusDisplay, summarizeDomainCheck } from './sender-display';

const when = (iso: string) => `at ${iso.slice(11, 16)}`;

describe('senderStatusDisplay', () => {
  it('shows an active account with no explanation', () => {
    expect(
      senderStatusDisplay({ status: 'active', statusReason: null, statusChangedAt: null }, when),
    ).toEqual({
      label: 'Active',
      tone: 'success',
      detail: null,
    });
  });

  it('says why and since when a failing account stopped', () => {
    const display = senderStatusDisplay(
      {
        status: 'failing',
        statusReason: 'The server refused the password',
        statusChangedAt: '2026-03-01T09:30:00Z',
      },
      when,
    );
    expect(display.label).toBe('Failing');
    expect(display.tone).toBe('destructive');
    expect(display.detail).toContain('Failing since at 09:30: The server refused the password.');
  });

  it('marks a paused account without a reason', () => {
    const display = senderStatusDisplay(
      { status: 'paused', statusReason: null, statusChangedAt: null },
      when,
    );
    expect(display).toMatchObject({ label: 'Paused', tone: 'secondary' });
    expect(display.detail).toBe('Paused. Campaigns skip it until you resume it.');
  });
});

describe('capacityDisplay', () => {
  it('counts today against the cap after warm-up and explains the ramp', () => {
    const display = capacityDisplay({ sentToday: 5, effectiveCap: 20, dailyCap: 50, warmupEnabled: true });
    expect(display).toMatchObject({ percent: 25, label: '5 of 20 sent today', full: false });
    expect(display.warmupNote).toBe("Warming up: today's limit is 20, rising each day to 50.");
  });

  it('has no warm-up note once the ramp reached the cap, and reports a full day', () => {
    const display = capacityDisplay({ sentToday: 50, effectiveCap: 50, dailyCap: 50, warmupEnabled: true });
    expect(display).toMatchObject({ percent: 100, full: true, warmupNote: null });
  });

  it('never draws past 100%', () => {
    expect(
      capacityDisplay({ sentToday: 70, effectiveCap: 50, dailyCap: 50, warmupEnabled: false }).percent,
    ).toBe(100);
  });
});

describe('imapDisplay', () => {
  it('covers off, not yet checked, checked and failing', () => {
    expect(imapDisplay({ imapEnabled: false, imapCheckedAt: null, imapError: null }, when).state).toBe('off');
    expect(imapDisplay({ imapEnabled: true, imapCheckedAt: null, imapError: null }, when).state).toBe(
      'waiting',
    );
    expect(
      imapDisplay({ imapEnabled: true, imapCheckedAt: '2026-03-01T10:05:00Z', imapError: null }, when),
    ).toEqual({
      state: 'ok',
      text: 'Mailbox checked at 10:05.',
    });
    expect(
      imapDisplay(
        { imapEnabled: true, imapCheckedAt: '2026-03-01T10:05:00Z', imapError: 'Login refused' },
        when,
      ),
    ).toEqual({ state: 'error', text: 'Mailbox check failed: Login refused' });
  });
});

const item = (status: DomainCheckItem['status']): DomainCheckItem => ({
  status,
  detail: '',
  found: null,
  fix:
    status === 'pass' ? null : { type: 'TXT', host: 'kora.ng', value: 'v=spf1 include:_spf.google.com ~all' },
});

function check(statuses: Record<'spf' | 'dkim' | 'dmarc' | 'mx', DomainCheckItem['status']>): DomainCheck {
  return {
    domain: 'kora.ng',
    checkedAt: '2026-03-01T10:00:00Z',
    spf: item(statuses.spf),
    dkim: { ...item(statuses.dkim), selector: null },
    dmarc: item(statuses.dmarc),
    mx: item(statuses.mx),
  };
}

describe('summarizeDomainCheck', () => {
  it('says so when the domain was never checked', () => {
    expect(summarizeDomainCheck(null)).toMatchObject({ overall: 'unchecked', items: [], problems: 0 });
  });

  it('lists the four records in order and passes when all pass', () => {
    const summary = summarizeDomainCheck(check({ spf: 'pass', dkim: 'pass', dmarc: 'pass', mx: 'pass' }));
    expect(summary.items.map((entry) => entry.label)).toEqual(['SPF', 'DKIM', 'DMARC', 'MX']);
    expect(summary).toMatchObject({ overall: 'pass', problems: 0 });
    expect(summary.headline).toBe('SPF, DKIM, DMARC and MX all pass for kora.ng.');
  });

  it('takes the worst status and counts what to fix', () => {
    const failing = summarizeDomainCheck(check({ spf: 'fail', dkim: 'warn', dmarc: 'fail', mx: 'pass' }));
    expect(failing).toMatchObject({ overall: 'fail', problems: 3 });
    expect(failing.headline).toBe('2 records to fix on kora.ng: mail may land in spam.');
    const warning = summarizeDomainCheck(check({ spf: 'pass', dkim: 'pass', dmarc: 'warn', mx: 'pass' }));
    expect(warning).toMatchObject({
      overall: 'warn',
      problems: 1,
      headline: '1 record to improve on kora.ng.',
    });
  });
});
