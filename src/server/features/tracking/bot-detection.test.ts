import { describe, expect, it } from 'vitest';
import { detectMachine, type HitSignals, isAppleNetwork } from './bot-detection';

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const OUTLOOK = 'Microsoft Office/16.0 (Windows NT 10.0; Microsoft Outlook 16.0.17328; Pro)';
const GMAIL_PROXY =
  'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)';

const sentAt = new Date('2026-03-02T09:00:00Z');
const anHourLater = new Date('2026-03-02T10:00:00Z');

function signals(overrides: Partial<HitSignals>): HitSignals {
  return {
    kind: 'open',
    method: 'GET',
    userAgent: CHROME,
    ip: '102.89.34.10',
    purposeHeaders: [],
    sentAt,
    at: anHourLater,
    ...overrides,
  };
}

describe('detectMachine', () => {
  it('takes a browser or mail client an hour after sending for a person', () => {
    expect(detectMachine(signals({}))).toEqual({ machine: false, machineReason: null });
    expect(detectMachine(signals({ userAgent: OUTLOOK }))).toEqual({ machine: false, machineReason: null });
    expect(detectMachine(signals({ kind: 'click', userAgent: IPHONE_SAFARI }))).toEqual({
      machine: false,
      machineReason: null,
    });
  });

  it("flags Apple Mail Privacy Protection's prefetch of the pixel: bare user agent or Apple's network", () => {
    expect(detectMachine(signals({ userAgent: 'Mozilla/5.0' }))).toEqual({
      machine: true,
      machineReason: 'apple_mpp',
    });
    expect(detectMachine(signals({ ip: '17.58.101.4' }))).toEqual({
      machine: true,
      machineReason: 'apple_mpp',
    });
    expect(detectMachine(signals({ ip: '::ffff:17.58.101.4' })).machineReason).toBe('apple_mpp');
    // 170.x and 117.x are not Apple's.
    expect(detectMachine(signals({ ip: '170.10.1.1' })).machine).toBe(false);
    expect(detectMachine(signals({ ip: '117.1.1.1' })).machine).toBe(false);
  });

  it("takes a person's browser click from Apple's network for a person, a bare one for Apple's check", () => {
    expect(
      detectMachine(signals({ kind: 'click', ip: '17.58.101.4', userAgent: IPHONE_SAFARI })).machine,
    ).toBe(false);
    expect(detectMachine(signals({ kind: 'click', ip: '17.58.101.4', userAgent: 'Mozilla/5.0' }))).toEqual({
      machine: true,
      machineReason: 'apple_mpp',
    });
    // No real browser sends only "Mozilla/5.0": elsewhere it is a scanner.
    expect(detectMachine(signals({ kind: 'click', userAgent: 'Mozilla/5.0' }))).toEqual({
      machine: true,
      machineReason: 'scanner',
    });
  });

  it("records Gmail's and Yahoo's image proxies as people, with the proxy named", () => {
    expect(detectMachine(signals({ userAgent: GMAIL_PROXY }))).toEqual({
      machine: false,
      machineReason: 'google_proxy',
    });
    expect(
      detectMachine(
        signals({ userAgent: 'YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html' }),
      ),
    ).toEqual({
      machine: false,
      machineReason: 'image_proxy',
    });
  });

  it.each([
    'Mozilla/5.0 (compatible; Barracuda Sentinel (EE))',
    'Mimecast-URL-Protect/1.0',
    'Mozilla/5.0 (compatible; proofpoint-urldefense)',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) BingPreview/1.0b',
    'Microsoft SafeLinks Detonation',
    'Symantec Web Security Service',
    'Cisco IronPort Email Security Appliance',
    'TrendMicro-URL-Scanner/3.0',
    'FireEye Email Security',
    'Forcepoint Email Security',
    'python-requests/2.32.3',
    'curl/8.5.0',
    'Go-http-client/1.1',
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0.0.0 Safari/537.36',
    'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
  ])('flags the scanner %s on opens and clicks', (userAgent) => {
    expect(detectMachine(signals({ userAgent }))).toEqual({ machine: true, machineReason: 'scanner' });
    expect(detectMachine(signals({ kind: 'click', userAgent }))).toEqual({
      machine: true,
      machineReason: 'scanner',
    });
  });

  it('flags a missing user agent as a scanner', () => {
    expect(detectMachine(signals({ userAgent: undefined })).machineReason).toBe('scanner');
    expect(detectMachine(signals({ kind: 'click', userAgent: '  ' })).machineReason).toBe('scanner');
  });

  it('flags HEAD requests and prefetch purposes, whatever the user agent', () => {
    expect(detectMachine(signals({ method: 'HEAD' }))).toEqual({ machine: true, machineReason: 'prefetch' });
    expect(
      detectMachine(signals({ kind: 'click', purposeHeaders: [undefined, 'prefetch;prerender'] })),
    ).toEqual({
      machine: true,
      machineReason: 'prefetch',
    });
    expect(detectMachine(signals({ kind: 'click', purposeHeaders: ['prefetch'] })).machineReason).toBe(
      'prefetch',
    );
    expect(detectMachine(signals({ purposeHeaders: [undefined, undefined, 'preview'] })).machineReason).toBe(
      'prefetch',
    );
    expect(detectMachine(signals({ purposeHeaders: ['something-else'] })).machine).toBe(false);
  });

  it('flags a click within 10 s of sending as too fast, and only clicks', () => {
    const soon = new Date(sentAt.getTime() + 9_999);
    const later = new Date(sentAt.getTime() + 10_000);
    expect(detectMachine(signals({ kind: 'click', at: soon }))).toEqual({
      machine: true,
      machineReason: 'too_fast',
    });
    expect(detectMachine(signals({ kind: 'click', at: later })).machine).toBe(false);
    expect(detectMachine(signals({ kind: 'open', at: soon })).machine).toBe(false);
    expect(detectMachine(signals({ kind: 'click', at: soon, sentAt: null })).machine).toBe(false);
  });

  it('gives a user agent seen before the same verdict, for opens and clicks, near or far from sending', () => {
    const userAgents = [
      CHROME,
      IPHONE_SAFARI,
      OUTLOOK,
      GMAIL_PROXY,
      'YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html',
      'Mozilla/5.0',
      ' Mozilla/5.0 ',
      '',
      '   ',
      undefined,
      'curl/8.5.0',
      'Googlebot/2.1 (+http://www.google.com/bot.html)',
      // Longer than what is remembered: judged afresh every time.
      `Mozilla/5.0 ${'x'.repeat(600)} curl/8.5.0`,
      `Mozilla/5.0 ${'x'.repeat(600)}`,
    ];
    const cases = userAgents.flatMap((userAgent) =>
      (['open', 'click'] as const).flatMap((kind) =>
        ['102.89.34.10', '17.58.1.1'].flatMap((ip) =>
          [anHourLater, new Date(sentAt.getTime() + 2000)].map((at) => signals({ userAgent, kind, ip, at })),
        ),
      ),
    );
    const first = cases.map((c) => detectMachine(c));
    expect(first.some((v) => v.machineReason === 'scanner')).toBe(true);
    expect(
      detectMachine(signals({ userAgent: `Mozilla/5.0 ${'x'.repeat(600)} curl/8.5.0` })).machineReason,
    ).toBe('scanner');
    // Reversed, so each user agent's second verdict comes after every other's first.
    const again = [...cases].reverse().map((c) => detectMachine(c));
    expect(again.reverse()).toEqual(first);
  });

  it("knows Apple's network", () => {
    expect(isAppleNetwork('17.0.0.1')).toBe(true);
    expect(isAppleNetwork('172.17.0.1')).toBe(false);
    expect(isAppleNetwork('2001:db8::17')).toBe(false);
  });
});
