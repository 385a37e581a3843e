import { describe, expect, it } from 'vitest';
import { parseUserAgent } from './user-agent';

const UA = {
  chromeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  edgeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.51',
  safariMac:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  safariIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  chromeIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0.6367.88 Mobile/15E148 Safari/604.1',
  firefoxLinux: 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
  chromeAndroidPhone:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
  samsungTablet:
    'Mozilla/5.0 (Linux; Android 13; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/24.0 Chrome/115.0.0.0 Safari/537.36',
  ipad: 'Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  opera:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 OPR/110.0.0.0',
  headless:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/124.0.0.0 Safari/537.36',
};

describe('parseUserAgent', () => {
  it.each([
    [UA.chromeWindows, 'Chrome on Windows', 'desktop'],
    [UA.edgeWindows, 'Edge on Windows', 'desktop'],
    [UA.opera, 'Opera on Windows', 'desktop'],
    [UA.safariMac, 'Safari on macOS', 'desktop'],
    [UA.safariIphone, 'Safari on iPhone', 'mobile'],
    [UA.chromeIphone, 'Chrome on iPhone', 'mobile'],
    [UA.firefoxLinux, 'Firefox on Linux', 'desktop'],
    [UA.chromeAndroidPhone, 'Chrome on Android', 'mobile'],
    [UA.samsungTablet, 'Samsung Internet on Android', 'tablet'],
    [UA.ipad, 'Safari on iPad', 'tablet'],
    [UA.headless, 'Headless Chrome on Linux', 'desktop'],
  ])('reads %s', (ua, label, device) => {
    const parsed = parseUserAgent(ua);
    expect(parsed.label).toBe(label);
    expect(parsed.device).toBe(device);
  });

  it('names a missing or unrecognised agent plainly', () => {
    expect(parseUserAgent(null)).toEqual({
      browser: null,
      os: null,
      device: 'unknown',
      label: 'Unknown device',
    });
    expect(parseUserAgent('   ').label).toBe('Unknown device');
    expect(parseUserAgent('curl/8.5.0').label).toBe('curl');
    expect(parseUserAgent('SomeBot/1.0').label).toBe('Unknown device');
  });
});
