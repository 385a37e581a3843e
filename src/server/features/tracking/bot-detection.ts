/*
 * Tells tracking hits made by machines from hits made by people, so analytics can count them apart.
 * Nothing is dropped: every hit is recorded with `machine` and a `machineReason`.
 *
 * The rules, in the order they are tried:
 * - prefetch: a HEAD request, or a `Purpose`/`Sec-Purpose`/`X-Purpose`/`X-Moz` header asking for a
 *   prefetch or preview. Browsers and mail clients send these when they warm a link nobody clicked.
 * - scanner: user agents of security gateways and link checkers (Barracuda, Mimecast, Proofpoint,
 *   Microsoft SafeLinks/Defender/BingPreview, Symantec/Broadcom/MessageLabs, Cisco IronPort, Trend Micro,
 *   FireEye/Trellix, Forcepoint/Websense, Sophos, Fortinet…), HTTP libraries (curl, wget, python-requests,
 *   Go-http-client, okhttp, Java, node-fetch…), headless browsers and link-preview bots. A missing user
 *   agent counts as a scanner too: every mail client and browser sends one.
 * - apple_mpp: Apple Mail Privacy Protection downloads every remote image through Apple's proxies when the
 *   message reaches the device, whether or not the person reads it. Those fetches carry the bare user agent
 *   `Mozilla/5.0` (no platform, engine or version tokens, which no real browser omits) and come from
 *   Apple's own network, 17.0.0.0/8 (Apple holds the whole block). Published analyses by ESPs (SocketLabs,
 *   Litmus, Word to the Wise) use the same two signals. An open with either signal is apple_mpp. A click is
 *   apple_mpp only with both an Apple address and a bare or missing user agent (Apple Mail's background
 *   link checks); a bare `Mozilla/5.0` click from elsewhere is a scanner; a full browser user agent from
 *   17.0.0.0/8 is a person (Apple staff, iCloud Private Relay users).
 * - too_fast: a click less than 10 s after the message was sent; no person reads and clicks that quickly,
 *   a gateway that follows every link on delivery does.
 * - Open-time image proxies are NOT machines: Gmail's GoogleImageProxy and Yahoo's YahooMailProxy fetch the
 *   image when the person opens the message. They are recorded with machine = false and a reason
 *   ('google_proxy', 'image_proxy') so analytics can tell them apart if it wants to.
 */

export type TrackingHitKind = 'open' | 'click';

export type MachineReason = 'prefetch' | 'scanner' | 'apple_mpp' | 'too_fast';
export type ProxyReason = 'google_proxy' | 'image_proxy';

export interface MachineVerdict {
  machine: boolean;
  machineReason: MachineReason | ProxyReason | null;
}

export interface HitSignals {
  kind: TrackingHitKind;
  method: string;
  userAgent: string | undefined;
  /** The client address as Fastify resolved it (TRUST_PROXY decides whether X-Forwarded-For counts). */
  ip: string;
  /** `Purpose`, `Sec-Purpose`, `X-Purpose` and `X-Moz` header values, as sent. */
  purposeHeaders: readonly (string | string[] | undefined)[];
  /** When the message left; null when unknown (no click is then judged too fast). */
  sentAt: Date | null;
  at: Date;
}

/** A click this soon after sending was made by a gateway following links on delivery. */
export const TOO_FAST_CLICK_MS = 10_000;

const HUMAN: MachineVerdict = { machine: false, machineReason: null };
const PREFETCH: MachineVerdict = { machine: true, machineReason: 'prefetch' };
const SCANNER: MachineVerdict = { machine: true, machineReason: 'scanner' };
const APPLE_MPP: MachineVerdict = { machine: true, machineReason: 'apple_mpp' };
const TOO_FAST: MachineVerdict = { machine: true, machineReason: 'too_fast' };
const GOOGLE_PROXY: MachineVerdict = { machine: false, machineReason: 'google_proxy' };
const IMAGE_PROXY: MachineVerdict = { machine: false, machineReason: 'image_proxy' };

// One alternation compiled once: this runs on every pixel and click.
const SCANNER_USER_AGENT = new RegExp(
  [
    'barracuda',
    'mimecast',
    'proofpoint',
    'safelinks',
    'bingpreview',
    'microsoft defender',
    'msoffice365',
    'symantec',
    'broadcom',
    'messagelabs',
    'ironport',
    'cisco',
    'trend ?micro',
    'fireeye',
    'trellix',
    'forcepoint',
    'websense',
    'sophos',
    'fortinet',
    'fortiguard',
    'zscaler',
    'checkpoint',
    'cloudmark',
    'spamassassin',
    'virustotal',
    'urlscan',
    'python-requests',
    'python-urllib',
    'aiohttp',
    'httpx',
    'curl/',
    'wget',
    'go-http-client',
    'okhttp',
    'java/',
    'apache-httpclient',
    'libwww-perl',
    'node-fetch',
    'undici',
    'axios/',
    'headlesschrome',
    'phantomjs',
    'puppeteer',
    'playwright',
    'selenium',
    'facebookexternalhit',
    'slackbot',
    'twitterbot',
    'linkedinbot',
    'discordbot',
    'telegrambot',
    'whatsapp',
    'skypeuripreview',
    'preview',
    String.raw`\bbot\b`,
    // Googlebot/2.1, bingbot/2.0, AhrefsBot/7.0…: a name ending in "bot" followed by its version.
    'bot/',
    'crawler',
    'spider',
  ].join('|'),
  'i',
);

const PREFETCH_PURPOSE = /prefetch|preview|prerender/i;

/** Apple owns 17.0.0.0/8 outright; MPP's proxies fetch from it. IPv4-mapped IPv6 counts too. */
export function isAppleNetwork(ip: string): boolean {
  return ip.startsWith('17.') || ip.startsWith('::ffff:17.');
}

type UserAgentKind = 'none' | 'bare_mozilla' | 'google_proxy' | 'yahoo_proxy' | 'scanner' | 'other';

function classifyUserAgent(raw: string | undefined): UserAgentKind {
  const userAgent = raw?.trim() ?? '';
  if (userAgent === '') return 'none';
  if (userAgent === 'Mozilla/5.0') return 'bare_mozilla';
  // The image proxies' user agents contain "Mozilla/5.0 … GoogleImageProxy"; test them before the scanner
  // list, whose generic words (bot, preview) must not catch them.
  if (userAgent.includes('GoogleImageProxy')) return 'google_proxy';
  if (userAgent.includes('YahooMailProxy')) return 'yahoo_proxy';
  if (SCANNER_USER_AGENT.test(userAgent)) return 'scanner';
  return 'other';
}

/*
 * What each user agent is, remembered: the scanner list is one long alternation run on every pixel and
 * click, while the hits of a day come from a few hundred distinct user agents (mail clients, browsers,
 * proxies). Bounded in entries and in key length, so odd or hostile user agents cannot grow it.
 */
const userAgentKinds = new Map<string, UserAgentKind>();
const USER_AGENT_KINDS_MAX = 2000;
const USER_AGENT_KIND_KEY_MAX = 512;

function userAgentKind(userAgent: string | undefined): UserAgentKind {
  if (userAgent === undefined) return 'none';
  let kind = userAgentKinds.get(userAgent);
  if (kind === undefined) {
    kind = classifyUserAgent(userAgent);
    if (userAgent.length <= USER_AGENT_KIND_KEY_MAX) {
      if (userAgentKinds.size >= USER_AGENT_KINDS_MAX) userAgentKinds.clear();
      userAgentKinds.set(userAgent, kind);
    }
  }
  return kind;
}

export function detectMachine(signals: HitSignals): MachineVerdict {
  if (signals.method === 'HEAD') return PREFETCH;
  for (const value of signals.purposeHeaders) {
    if (value === undefined) continue;
    if (PREFETCH_PURPOSE.test(Array.isArray(value) ? value.join(',') : value)) return PREFETCH;
  }

  const kind = userAgentKind(signals.userAgent);
  const bare = kind === 'none' || kind === 'bare_mozilla';
  const apple = isAppleNetwork(signals.ip);
  if (signals.kind === 'open') {
    if (kind === 'bare_mozilla' || apple) return APPLE_MPP;
  } else if (apple && bare) {
    return APPLE_MPP;
  }
  if (bare) return SCANNER;
  if (kind === 'google_proxy') return GOOGLE_PROXY;
  if (kind === 'yahoo_proxy') return IMAGE_PROXY;
  if (kind === 'scanner') return SCANNER;

  if (
    signals.kind === 'click' &&
    signals.sentAt !== null &&
    signals.at.getTime() - signals.sentAt.getTime() < TOO_FAST_CLICK_MS
  ) {
    return TOO_FAST;
  }
  return HUMAN;
}
