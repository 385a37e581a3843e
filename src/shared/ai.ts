import { z } from 'zod';
import type { PlanId } from './plans';

/*
 * AI-assisted writing: the request schemas, the per-plan daily limits, and the pure parsing of the
 * streamed "Subject: …\n\n<body html>" draft that the browser shows while it arrives.
 */

export const AI_KINDS = ['email', 'newsletter'] as const;
export type AiKind = (typeof AI_KINDS)[number];

export const AI_TONES = ['friendly', 'professional', 'persuasive', 'casual'] as const;
export type AiTone = (typeof AI_TONES)[number];
export const AI_TONE_LABELS: Record<AiTone, string> = {
  friendly: 'Friendly',
  professional: 'Professional',
  persuasive: 'Persuasive',
  casual: 'Casual',
};

export const AI_LENGTHS = ['short', 'medium', 'long'] as const;
export type AiLength = (typeof AI_LENGTHS)[number];
export const AI_LENGTH_LABELS: Record<AiLength, string> = {
  short: 'Short',
  medium: 'Medium',
  long: 'Long',
};

export const AI_LANGUAGES = ['en', 'fr', 'pcm', 'sw', 'ha', 'yo'] as const;
export type AiLanguage = (typeof AI_LANGUAGES)[number];
export const AI_LANGUAGE_LABELS: Record<AiLanguage, string> = {
  en: 'English',
  fr: 'French',
  pcm: 'Nigerian Pidgin',
  sw: 'Swahili',
  ha: 'Hausa',
  yo: 'Yoruba',
};

export const AI_REWRITE_ACTIONS = ['improve', 'shorten', 'rewrite', 'translate'] as const;
export type AiRewriteAction = (typeof AI_REWRITE_ACTIONS)[number];
export const AI_REWRITE_ACTION_LABELS: Record<AiRewriteAction, string> = {
  improve: 'Improve',
  shorten: 'Shorten',
  rewrite: 'Rewrite',
  translate: 'Translate',
};

/** Generations (writes and rewrites together) a user may ask for per UTC day, by the plan whose limits apply. */
export const AI_DAILY_LIMITS: Record<PlanId, number> = {
  free: 5,
  starter: 50,
  professional: 200,
  enterprise: 1000,
};

export const AI_GOAL_MAX = 1000;
export const AI_AUDIENCE_MAX = 500;
export const AI_REWRITE_TEXT_MAX = 20_000;

export const AI_MESSAGES = {
  /** What a customer reads: server settings are not theirs to see. */
  notConfigured: 'AI writing is not available on this installation. Write your text yourself for now.',
  /** What a super admin reads instead: how to connect a provider (docs/runbooks/connect-ai.md). */
  adminSetup:
    'No AI provider is connected. Set AI_BASE_URL to an OpenAI-compatible service (for example https://api.openai.com/v1, or a local Ollama at http://127.0.0.1:11434/v1), AI_MODEL to a model it serves and, when the service needs one, AI_API_KEY; then restart Tambari. The runbook "Connect an AI provider" in Documentation walks through both.',
  providerFailed: 'The AI provider did not answer. Please try again in a moment.',
  timedOut: 'The AI provider took too long to answer. Please try again.',
  dailyLimit: (limit: number, planName: string, upgradeTo: { name: string; limit: number } | null) =>
    `You have used all ${limit} AI generations your ${planName} plan includes today. They renew at midnight UTC.${upgradeTo ? ` Upgrade to ${upgradeTo.name} for ${upgradeTo.limit} a day.` : ''}`,
} as const;

export const aiStatusSchema = z.object({
  configured: z.boolean(),
  model: z.string().nullable(),
  usedToday: z.number().int().min(0),
  dailyLimit: z.number().int().min(0),
  /** When today's count starts again (next midnight UTC). */
  resetsAt: z.string(),
  /** Why it is unavailable, in words for the customer; present when not configured or switched off. */
  help: z.string().optional(),
  /** How to connect a provider; only for super admins, only when none is configured. */
  adminHelp: z.string().optional(),
});

/** What a visitor may be told about this installation before signing in (pricing, payment). */
export const publicCapabilitiesSchema = z.object({
  /** A provider is connected and the operator has not switched AI writing off. */
  aiWriting: z.boolean(),
});
export type PublicCapabilities = z.infer<typeof publicCapabilitiesSchema>;
export type AiStatus = z.infer<typeof aiStatusSchema>;

/** Tabs and line breaks are fine in a brief; other control characters are not text anyone typed. */
const noControlChars = (v: string) => {
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if ((c < 32 && c !== 9 && c !== 10 && c !== 13) || c === 127) return false;
  }
  return true;
};

export const aiWriteInputSchema = z.strictObject({
  kind: z.enum(AI_KINDS, { error: 'Choose an email or a newsletter' }),
  goal: z
    .string({ error: 'Describe what the email should achieve' })
    .trim()
    .min(10, 'Describe the goal in at least 10 characters')
    .max(AI_GOAL_MAX, `The goal must be at most ${AI_GOAL_MAX} characters`)
    .refine(noControlChars, 'The goal contains characters that are not allowed'),
  audience: z
    .string()
    .trim()
    .max(AI_AUDIENCE_MAX, `The audience must be at most ${AI_AUDIENCE_MAX} characters`)
    .refine(noControlChars, 'The audience contains characters that are not allowed')
    .default(''),
  tone: z.enum(AI_TONES, { error: 'Choose a tone' }).default('professional'),
  length: z.enum(AI_LENGTHS, { error: 'Choose a length' }).default('medium'),
  language: z.enum(AI_LANGUAGES, { error: 'Choose a supported language' }).default('en'),
});
export type AiWriteInput = z.infer<typeof aiWriteInputSchema>;

export const aiRewriteInputSchema = z
  .strictObject({
    action: z.enum(AI_REWRITE_ACTIONS, { error: 'Choose improve, shorten, rewrite or translate' }),
    text: z
      .string({ error: 'Select the text to rewrite' })
      .min(1, 'Select the text to rewrite')
      .max(AI_REWRITE_TEXT_MAX, `Select at most ${AI_REWRITE_TEXT_MAX.toLocaleString('en-US')} characters`)
      .refine((v) => v.trim().length > 0, 'Select the text to rewrite'),
    tone: z.enum(AI_TONES, { error: 'Choose a tone' }).optional(),
    language: z.enum(AI_LANGUAGES, { error: 'Choose a supported language' }).optional(),
  })
  .refine((v) => v.action !== 'translate' || v.language !== undefined, {
    message: 'Choose the language to translate into',
    path: ['language'],
  });
export type AiRewriteInput = z.infer<typeof aiRewriteInputSchema>;

/** A draft as far as it has arrived: the subject once its line is complete, and the body after it. */
export interface AiDraft {
  subject: string;
  html: string;
  /** True once the subject line has ended (a newline followed it). */
  subjectComplete: boolean;
}

const SUBJECT_PREFIX =
  /^(?:\*\*)?\s*(?:subject(?:\s+line)?|objet|sujet|kichwa|batun|àkọlé|akole)\s*(?:\*\*)?\s*:\s*(?:\*\*)?/i;

/**
 * Removes what chat models wrap around an answer despite being told not to: Markdown code fences
 * (possibly still open while streaming) and surrounding blank lines.
 */
export function stripFences(text: string): string {
  let out = text.replace(/^\uFEFF/, '');
  // The opening of a fence still arriving ("`" or "``") is not text yet.
  if (/^\s*`{1,2}$/.test(out)) return '';
  out = out.replace(/^\s*```[a-zA-Z]*[ \t]*\r?\n?/, '');
  out = out.replace(/\r?\n?```\s*$/, '');
  // A fence that only started arriving ("`" or "``") at the very end is not text either.
  out = out.replace(/\n`{1,2}$/, '\n');
  return out;
}

/**
 * Splits the accumulated stream into subject and body. Works on any prefix of the stream, so the
 * preview can be redrawn after every chunk: until the first line ends the subject is still arriving.
 * A model that leaves out the "Subject:" line gets an empty subject and its whole text as the body.
 */
export function parseAiDraft(accumulated: string): AiDraft {
  const text = stripFences(accumulated).replace(/\r\n/g, '\n').replace(/^\s+/, '');
  if (text === '') return { subject: '', html: '', subjectComplete: false };
  const newline = text.indexOf('\n');
  const firstLine = newline === -1 ? text : text.slice(0, newline);
  const looksLikeSubject = SUBJECT_PREFIX.test(firstLine);
  // While only part of the word "Subject" has arrived we cannot know yet: treat it as a subject in progress.
  const maybeSubjectPrefix =
    newline === -1 && /^(?:\*\*)?s(?:u(?:b(?:j(?:e(?:c(?:t)?)?)?)?)?)?$/i.test(firstLine);
  if (!looksLikeSubject) {
    if (maybeSubjectPrefix) return { subject: '', html: '', subjectComplete: false };
    return { subject: '', html: text.trim(), subjectComplete: true };
  }
  const subject = cleanSubject(firstLine.replace(SUBJECT_PREFIX, ''));
  if (newline === -1) return { subject, html: '', subjectComplete: false };
  return { subject, html: text.slice(newline + 1).trim(), subjectComplete: true };
}

function cleanSubject(value: string): string {
  return value
    .replace(/\*\*/g, '')
    .replace(/<[^>]*>/g, '')
    .trim()
    .replace(/^["“'](.*)["”']$/, '$1')
    .slice(0, 200);
}

/**
 * The body as HTML: a model that answered in plain paragraphs (no tags at all) gets them wrapped in <p>,
 * keeping merge tags as they are.
 */
export function ensureHtmlParagraphs(body: string): string {
  const trimmed = body.trim();
  if (trimmed === '' || /<[a-z][^>]*>/i.test(trimmed)) return trimmed;
  return trimmed
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${escapeText(paragraph.trim()).replace(/\n/g, '<br>')}</p>`)
    .join('\n');
}

function escapeText(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The final result of a rewrite stream: fences and a stray "Here is…" preamble line removed. */
export function cleanRewrite(accumulated: string): string {
  return stripFences(accumulated)
    .replace(/^\s*(?:here(?:'s| is) (?:the|your|a)[^\n]*:\s*\n)/i, '')
    .trim();
}

/** A rewrite of a plain-text selection, in case the model answered with HTML tags anyway. */
export function toPlainText(text: string): string {
  return text
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(?:p|div|h[1-6]|li)>\s*/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
