import { DAY_MS, dayKey, instantOfWallTime, isoWeekday, wallTimeAt } from '@server/lib/local-time';
import { isPlaceholderLink } from '@shared/placeholders';
import { extractLinks, visibleText } from '../personalization/personalization.service';
import { addStepDelay, type StepDelay } from './next-step';

/*
 * The pure parts of the pre-launch check: link judgement, the campaign's daily capacity and its estimated
 * finish, and the privacy-law countries. prelaunch.ts gathers the data and words the report.
 */

/** URL shorteners: spam filters distrust them (they hide where a link goes) and many are blocklisted. */
export const LINK_SHORTENERS = new Set([
  'bit.ly',
  'bitly.com',
  'bit.do',
  'tinyurl.com',
  'goo.gl',
  't.co',
  'ow.ly',
  'is.gd',
  'v.gd',
  'buff.ly',
  'rebrand.ly',
  'cutt.ly',
  'shorturl.at',
  'tiny.cc',
  'bl.ink',
  'lnkd.in',
  'rb.gy',
  't.ly',
  's.id',
  'shorte.st',
  'adf.ly',
  'soo.gd',
  'clck.ru',
  'qr.net',
  'tr.im',
  'x.co',
  'mcaf.ee',
  'su.pr',
  'db.tt',
  'po.st',
  'snip.ly',
  'short.io',
  'shorturl.com',
  'linktr.ee',
  'urlz.fr',
  'l.ead.me',
  'surl.li',
  'u.to',
  'zpr.io',
  'wa.link',
]);

export interface LinkProblems {
  shortened: string[];
  broken: { url: string; reason: string }[];
  insecure: string[];
}

function truncate(url: string): string {
  return url.length > 80 ? `${url.slice(0, 77)}…` : url;
}

/** Links in a body (and bare URLs in its text) judged without fetching anything. */
export function checkLinks(html: string): LinkProblems {
  const problems: LinkProblems = { shortened: [], broken: [], insecure: [] };
  const seen = new Set<string>();
  const urls = extractLinks(html).map((link) => link.href);
  for (const match of visibleText(html).matchAll(/\bhttps?:\/\/[^\s<>"']+/gi)) urls.push(match[0]);
  for (const raw of urls) {
    const url = raw.trim();
    if (seen.has(url)) continue;
    seen.add(url);
    // A merge tag decides it per contact: nothing to judge here. A placeholder link blocks the launch
    // on its own (the placeholders check), so it is not also a broken link.
    if (url.includes('{{') || url.includes('{%') || isPlaceholderLink(url)) continue;
    if (url === '' || url === '#') {
      problems.broken.push({ url: url || '(empty)', reason: 'the link goes nowhere' });
      continue;
    }
    if (/^(mailto|tel|sms):/i.test(url)) {
      if (/^mailto:/i.test(url) && !/^mailto:[^@\s]+@[^@\s]+\.[^@\s]+/i.test(url)) {
        problems.broken.push({ url: truncate(url), reason: 'the email address is incomplete' });
      }
      continue;
    }
    if (/^\s*javascript:/i.test(url)) {
      problems.broken.push({ url: truncate(url), reason: 'scripts do not run in email' });
      continue;
    }
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      problems.broken.push({
        url: truncate(url),
        reason: /^www\./i.test(url) ? 'it needs https:// in front' : 'it is not a complete web address',
      });
      continue;
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      problems.broken.push({ url: truncate(url), reason: `${parsed.protocol} links do not open from email` });
      continue;
    }
    const host = parsed.hostname.toLowerCase();
    if (/\s/.test(url)) {
      problems.broken.push({ url: truncate(url), reason: 'it contains spaces' });
    } else if (host === 'localhost' || !host.includes('.') || !/\.([a-z]{2,}|xn--[a-z0-9-]+)$/i.test(host)) {
      problems.broken.push({ url: truncate(url), reason: 'the domain is not a public web address' });
    }
    if (LINK_SHORTENERS.has(host.replace(/^www\./, ''))) problems.shortened.push(truncate(url));
    else if (parsed.protocol === 'http:') problems.insecure.push(truncate(url));
  }
  return problems;
}

/** EU and EEA countries (GDPR), the UK (UK GDPR) and South Africa (POPIA): consent rules for cold email. */
export const CONSENT_COUNTRIES: Record<string, 'GDPR' | 'UK GDPR' | 'POPIA'> = Object.fromEntries([
  ...'AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE IS LI NO'
    .split(' ')
    .map((code) => [code, 'GDPR' as const]),
  ['GB', 'UK GDPR' as const],
  ['ZA', 'POPIA' as const],
]);

export interface CapacityAccount {
  /** Today's effective cap (warm-up applied). */
  cap: number;
}

/** Seconds of sending a day the window allows. start == end is all day; start > end runs overnight. */
export function windowSeconds(windowStartMinute: number, windowEndMinute: number): number {
  const start = windowStartMinute % 1440;
  const end = windowEndMinute % 1440;
  if (start === end) return 86_400;
  return ((end - start + 1440) % 1440) * 60;
}

/**
 * Messages a day: each account sends at most its cap, and no more than its random gaps leave room for in
 * the window (one message per average gap); the campaign's own cap bounds the sum.
 */
export function dailyCapacity(input: {
  accounts: CapacityAccount[];
  windowStartMinute: number;
  windowEndMinute: number;
  gapMinSeconds: number;
  gapMaxSeconds: number;
  dailyCap: number | null;
}): number {
  const averageGap = (input.gapMinSeconds + input.gapMaxSeconds) / 2;
  const seconds = windowSeconds(input.windowStartMinute, input.windowEndMinute);
  const byGap = averageGap > 0 ? Math.floor(seconds / averageGap) : Number.POSITIVE_INFINITY;
  let total = 0;
  for (const account of input.accounts) total += Math.max(0, Math.min(account.cap, byGap));
  if (input.dailyCap !== null) total = Math.min(total, input.dailyCap);
  return Number.isFinite(total) ? total : 0;
}

function safeWall(ms: number, timeZone: string) {
  try {
    return { wall: wallTimeAt(ms, timeZone), timeZone };
  } catch {
    return { wall: wallTimeAt(ms, 'UTC'), timeZone: 'UTC' };
  }
}

/**
 * The end of the `count`-th sending day from `from` (its own day counts while its window is still open):
 * the instant the window closes that day, in the campaign's zone.
 */
export function addSendingDays(input: {
  from: Date;
  count: number;
  sendDays: readonly number[];
  windowStartMinute: number;
  windowEndMinute: number;
  timeZone: string;
}): Date {
  const { wall, timeZone } = safeWall(input.from.getTime(), input.timeZone);
  const start = input.windowStartMinute % 1440;
  const end = input.windowEndMinute % 1440;
  const closesOn = (key: number) =>
    end <= start ? instantOfWallTime(key + DAY_MS, end, timeZone) : instantOfWallTime(key, end, timeZone);
  let key = dayKey(wall.year, wall.month, wall.day);
  if (input.count <= 0) return input.from;
  let counted = 0;
  for (let i = 0; i < 3_700; i++, key += DAY_MS) {
    if (!input.sendDays.includes(isoWeekday(key))) continue;
    const closes = closesOn(key);
    if (closes <= input.from.getTime()) continue;
    counted++;
    if (counted >= input.count) return new Date(closes);
  }
  return new Date(key);
}

/**
 * When the last message should have gone: all N × S messages at the daily capacity, but never before the
 * last step's own turn (the steps' delays after the first send, plus the days that step needs).
 */
export function estimateFinish(input: {
  start: Date;
  audienceSize: number;
  steps: StepDelay[];
  dailyCapacity: number;
  sendDays: readonly number[];
  windowStartMinute: number;
  windowEndMinute: number;
  timeZone: string;
}): Date | null {
  const { audienceSize, steps } = input;
  if (audienceSize <= 0 || steps.length === 0 || input.dailyCapacity <= 0) return null;
  const window = {
    sendDays: input.sendDays,
    windowStartMinute: input.windowStartMinute,
    windowEndMinute: input.windowEndMinute,
    timeZone: input.timeZone,
  };
  const allDays = Math.ceil((audienceSize * steps.length) / input.dailyCapacity);
  const byVolume = addSendingDays({ ...window, from: input.start, count: allDays });
  let lastStepStart = input.start;
  for (const step of steps.slice(1)) lastStepStart = addStepDelay(lastStepStart, step, input.timeZone);
  const byDelays = addSendingDays({
    ...window,
    from: lastStepStart,
    count: Math.ceil(audienceSize / input.dailyCapacity),
  });
  return byVolume.getTime() >= byDelays.getTime() ? byVolume : byDelays;
}
