import { createHash } from 'node:crypto';
import type { SpamRuleHit } from '@shared/personalize';
import { SPAM_SCORE_THRESHOLD } from '@shared/personalize';
import { htmlImageOnly } from './spam-rules';
import { findSpamAssassin, type SpamAssassinVerdict, scoreWithSpamAssassin } from './spamassassin';

/*
 * The spam score of a message as it will be sent (the raw RFC 5322 bytes the dispatcher would hand to
 * SMTP): SpamAssassin's own verdict where it is installed, else the built-in emulation of the local rules
 * it fires on our messages. spam-parity.test.ts holds the built-in score within 0.5 points of
 * SpamAssassin's recorded one on every library template (tests/fixtures/spam-scores.json, recorded by
 * scripts/record-spam-scores.ts). Set SPAMASSASSIN=off to always use the built-in rules.
 */

export interface EngineVerdict {
  engine: 'spamassassin' | 'builtin';
  score: number;
  required: number;
  rules: SpamRuleHit[];
  /** The program that answered (`spamassassin, local rules`), or why the built-in rules did. */
  note: string;
}

const IMAGE_ONLY_DESCRIPTIONS: Record<string, string> = {
  HTML_IMAGE_ONLY_04: 'BODY: HTML: images with 0-400 bytes of words',
  HTML_IMAGE_ONLY_08: 'BODY: HTML: images with 400-800 bytes of words',
  HTML_IMAGE_ONLY_12: 'BODY: HTML: images with 800-1200 bytes of words',
  HTML_IMAGE_ONLY_16: 'BODY: HTML: images with 1200-1600 bytes of words',
  HTML_IMAGE_ONLY_20: 'BODY: HTML: images with 1600-2000 bytes of words',
  HTML_IMAGE_ONLY_24: 'BODY: HTML: images with 2000-2400 bytes of words',
  HTML_IMAGE_ONLY_28: 'BODY: HTML: images with 2400-2800 bytes of words',
  HTML_IMAGE_ONLY_32: 'BODY: HTML: images with 2800-3200 bytes of words',
};

/**
 * Our emulation of SpamAssassin's local rules (score set 0) on a composed message: the rules that fire
 * on the messages Tambari composes and carry points. HTML_MESSAGE, NO_RECEIVED and NO_RELAYS fire too but
 * score 0.001 or -0.001; they are left out.
 */
export function builtinVerdict(message: { html: string; raw: Buffer }): Omit<EngineVerdict, 'note'> {
  const rules: SpamRuleHit[] = [];
  const imageOnly = message.html ? htmlImageOnly(message.html) : null;
  if (imageOnly) {
    rules.push({
      rule: imageOnly.rule,
      score: imageOnly.score,
      description: IMAGE_ONLY_DESCRIPTIONS[imageOnly.rule] ?? 'BODY: HTML: images with little text',
    });
  }
  // LIST_PARTIAL_SHORT_MSG (72_active.cf, no score line: SpamAssassin's default 1.0): List-Unsubscribe
  // without List-Id, an HTML part of 1–1,024 characters, and no DKIM-Signature header. Our messages have
  // the first, never the second; the sender's mail server usually adds the DKIM signature after us, so a
  // receiving filter rarely sees this one fire, but the message as we compose it does.
  const headerEnd = message.raw.indexOf('\r\n\r\n');
  const headers = message.raw.subarray(0, headerEnd === -1 ? message.raw.length : headerEnd).toString('utf8');
  const htmlLength = [...message.html].length;
  if (
    /^List-Unsubscribe:/im.test(headers) &&
    !/^List-Id:/im.test(headers) &&
    !/^DKIM-Signature:/im.test(headers) &&
    htmlLength > 0 &&
    htmlLength <= 1024
  ) {
    rules.push({
      rule: 'LIST_PARTIAL_SHORT_MSG',
      score: 1,
      description: 'Incomplete mailing list headers + short message',
    });
  }
  const score = Math.round(rules.reduce((sum, r) => sum + r.score, 0) * 10) / 10;
  return { engine: 'builtin', score, required: SPAM_SCORE_THRESHOLD, rules };
}

// SpamAssassin's verdicts on messages already scored (a pre-launch check opened again): by content.
const cache = new Map<string, SpamAssassinVerdict>();
const CACHE_SIZE = 500;

export function spamAssassinEnabled(): boolean {
  return process.env.SPAMASSASSIN !== 'off';
}

/**
 * Scores one composed message. `key` identifies its content (the raw bytes carry a fresh boundary and
 * date each time); a SpamAssassin failure or timeout falls back to the built-in rules and says why.
 */
export async function scoreComposedMessage(message: {
  raw: Buffer;
  html: string;
  key: string;
  programs?: ReturnType<typeof findSpamAssassin>;
  timeoutMs?: number;
  /** Our rules only, whatever is installed (the launch's own check). */
  builtinOnly?: boolean;
}): Promise<EngineVerdict> {
  if (message.builtinOnly) {
    return { ...builtinVerdict(message), note: 'the launch checks with the built-in rules' };
  }
  if (!spamAssassinEnabled() && !message.programs) {
    return { ...builtinVerdict(message), note: 'SpamAssassin is turned off on this server' };
  }
  const programs = message.programs ?? findSpamAssassin();
  if (!programs.spamc && !programs.spamassassin) {
    return {
      ...builtinVerdict(message),
      note: 'SpamAssassin is not installed on this server',
    };
  }
  const key = createHash('sha256').update(message.key).digest('base64url');
  let verdict = cache.get(key) ?? null;
  if (!verdict) {
    try {
      verdict = await scoreWithSpamAssassin(message.raw, { programs, timeoutMs: message.timeoutMs });
    } catch (error) {
      return {
        ...builtinVerdict(message),
        note: `SpamAssassin failed: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
    if (!verdict) return { ...builtinVerdict(message), note: 'SpamAssassin gave no verdict' };
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(key, verdict);
  }
  return {
    engine: 'spamassassin',
    score: verdict.score,
    required: verdict.required,
    // The informational rules at 0 points (HTML_MESSAGE, NO_RECEIVED…) say nothing about the copy.
    rules: verdict.rules.filter((r) => r.score !== 0),
    note: `${verdict.program}, local rules`,
  };
}
