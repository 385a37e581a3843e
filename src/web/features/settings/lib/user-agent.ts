export type DeviceKind = 'desktop' | 'mobile' | 'tablet' | 'unknown';

export interface ParsedUserAgent {
  browser: string | null;
  os: string | null;
  device: DeviceKind;
  /** "Chrome on Windows", "Safari on iPhone", or "Unknown device". */
  label: string;
}

// Order matters: Edge, Opera and Samsung Internet also announce Chrome, and Chrome announces Safari.
const BROWSERS: Array<[RegExp, string]> = [
  [/Edg(e|A|iOS)?\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/YaBrowser\//, 'Yandex Browser'],
  [/Vivaldi\//, 'Vivaldi'],
  [/HeadlessChrome\//, 'Headless Chrome'],
  [/CriOS\/|Chrome\/|Chromium\//, 'Chrome'],
  [/FxiOS\/|Firefox\//, 'Firefox'],
  [/Version\/[\d.]+.*Safari\//, 'Safari'],
  [/curl\//, 'curl'],
  [/node-fetch|undici|Node\.js/i, 'Node.js'],
];

function detectOs(ua: string): string | null {
  if (/iPad/.test(ua)) return 'iPad';
  if (/iPhone|iPod/.test(ua)) return 'iPhone';
  if (/Android/.test(ua)) return 'Android';
  if (/CrOS/.test(ua)) return 'ChromeOS';
  if (/Windows/.test(ua)) return 'Windows';
  if (/Mac OS X|Macintosh/.test(ua)) return 'macOS';
  if (/Linux|X11/.test(ua)) return 'Linux';
  return null;
}

function detectDevice(ua: string, os: string | null): DeviceKind {
  if (os === 'iPad' || /Tablet/.test(ua) || (os === 'Android' && !/Mobile/.test(ua))) return 'tablet';
  if (os === 'iPhone' || /Mobi/.test(ua)) return 'mobile';
  if (os) return 'desktop';
  return 'unknown';
}

/** A deliberately small parser: enough to let a user recognise their own sessions, not analytics. */
export function parseUserAgent(userAgent: string | null | undefined): ParsedUserAgent {
  const ua = userAgent?.trim() ?? '';
  if (!ua) return { browser: null, os: null, device: 'unknown', label: 'Unknown device' };
  const browser = BROWSERS.find(([pattern]) => pattern.test(ua))?.[1] ?? null;
  const os = detectOs(ua);
  const device = detectDevice(ua, os);
  let label: string;
  if (browser && os) label = `${browser} on ${os}`;
  else label = browser ?? os ?? 'Unknown device';
  return { browser, os, device, label };
}
