import type { UnsafeUrl } from '@shared/mail-links';
import { placeholdersIntact, SENDER_PLACEHOLDERS, senderCompanyOr } from '../sending/sending.service';
import { countryAdjectiveOf } from './demonyms';
import { sanitizeMailHtml } from './link-sanitizer';
import { compileTemplate, pathLabel, renderTemplate } from './merge-tags';
import { spin } from './spintax';

/*
 * One recipient's copy of a message: spintax first (on the template, never on the contact's data), then
 * merge tags. The same seed gives the same text, so the preview of a contact is what they will receive.
 * Pure and synchronous: the sequencer and the newsletter sender call it per message.
 *
 * It is also where links are made safe (link-sanitizer.ts): every way a body reaches somebody — a
 * campaign step, a newsletter or bulk email, a test send, a preview, the web version — renders it here,
 * and here the merge values are in place and tracking has not yet rewritten a link.
 */

export interface PersonalizeContact {
  email: string;
  firstName?: string | null;
  lastName?: string | null;
  company?: string | null;
  city?: string | null;
  countryCode?: string | null;
  fields?: Record<string, string | null | undefined> | null;
}

/** A campaign contact (or any row with the same columns) as merge tags see it. */
export function toPersonalizeContact(row: {
  email: string;
  firstName: string | null;
  lastName: string | null;
  company: string | null;
  city: string | null;
  countryCode: string | null;
  fields: Record<string, string | null | undefined> | null;
}): PersonalizeContact {
  return {
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    company: row.company,
    city: row.city,
    countryCode: row.countryCode,
    fields: row.fields ?? {},
  };
}

export interface PersonalizeSender {
  fromName: string;
  fromEmail: string;
  /** The sender account's company (`{{ senderCompany }}`); null or absent: none. */
  company?: string | null;
}

export interface RenderedForContact {
  subject: string;
  html: string;
  /** Merge tags the template reads that this contact has no value for (their fallback, or nothing, was used). */
  fallbacksUsed: string[];
  /** Liquid errors met while rendering (the text was sent without its merge tags); empty when all is well. */
  templateErrors: string[];
  /** URL attributes removed from this copy (script, data or relative links, a contact's value among them). */
  removedLinks: UnsafeUrl[];
}

/** A contact for previews when the audience is empty or the editor has no campaign. */
export const SAMPLE_CONTACT: PersonalizeContact = {
  email: 'amaka.okonkwo@example.com',
  firstName: 'Amaka',
  lastName: 'Okonkwo',
  company: 'Kano Foods',
  city: 'Lagos',
  countryCode: 'NG',
  fields: {},
};

/**
 * The seed for a contact's copy of one step: stable before and after launch (the preview of an audience
 * contact runs before campaign_contacts exist), different per step so each email spins anew.
 */
export function renderSeed(input: { campaignId: string; stepId?: string | null; email: string }): string {
  return `${input.campaignId}:${input.stepId ?? ''}:${input.email.trim().toLowerCase()}`;
}

let regionNames: Intl.DisplayNames | null = null;
const countryNames = new Map<string, string>();

/** "NG" → "Nigeria", cached; an unknown code stays as it is. */
export function countryNameOf(code: string | null | undefined): string {
  if (!code) return '';
  const upper = code.trim().toUpperCase();
  const cached = countryNames.get(upper);
  if (cached !== undefined) return cached;
  let name = upper;
  try {
    regionNames ??= new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
    if (/^[A-Z]{2}$/.test(upper)) name = regionNames.of(upper) ?? upper;
  } catch {
    name = upper;
  }
  countryNames.set(upper, name);
  return name;
}

const clean = (value: string | null | undefined): string => (typeof value === 'string' ? value.trim() : '');

/** What a template can read: the contact, its custom fields (also by bare name), and the sender. */
export function mergeScope(
  contact: PersonalizeContact,
  sender: PersonalizeSender | null,
): Record<string, unknown> {
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(contact.fields ?? {})) {
    if (typeof value === 'string' && value.trim() !== '') fields[key] = value.trim();
  }
  const firstName = clean(contact.firstName);
  const lastName = clean(contact.lastName);
  const country = countryNameOf(contact.countryCode);
  // Custom fields first, so a field called "company" never hides the contact's own column.
  return {
    ...fields,
    firstName,
    lastName,
    fullName: [firstName, lastName].filter(Boolean).join(' '),
    email: clean(contact.email),
    company: clean(contact.company),
    city: clean(contact.city),
    country,
    countryAdjective: countryAdjectiveOf(contact.countryCode, country),
    countryCode: clean(contact.countryCode).toUpperCase(),
    senderName: clean(sender?.fromName),
    senderEmail: clean(sender?.fromEmail),
    senderCompany: clean(sender?.company),
    fields,
  };
}

function isEmpty(scope: Record<string, unknown>, path: string[]): boolean {
  let value: unknown = scope;
  for (const segment of path) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, segment)) return true;
    value = (value as Record<string, unknown>)[segment];
  }
  return value === null || value === undefined || value === '';
}

function collectFallbacks(source: string, scope: Record<string, unknown>, into: Set<string>): void {
  for (const path of compileTemplate(source).variables) {
    if (path.includes('?')) continue;
    if (isEmpty(scope, path)) into.add(pathLabel(path));
  }
}

export function renderForContact(input: {
  subject: string;
  html: string;
  contact: PersonalizeContact;
  sender: PersonalizeSender | null;
  seed: string;
}): RenderedForContact {
  const scope = mergeScope(input.contact, input.sender);
  let subjectSource = spin(input.subject, `${input.seed}|subject`);
  let htmlSource = spin(input.html, `${input.seed}|html`);
  if (input.sender?.company === SENDER_PLACEHOLDERS.company) {
    subjectSource = companyFallbacksToMarkers(subjectSource, 'text');
    htmlSource = companyFallbacksToMarkers(htmlSource, 'html');
  }
  const subject = renderTemplate(subjectSource, scope, 'text');
  const html = renderTemplate(htmlSource, scope, 'html');
  const fallbacks = new Set<string>();
  collectFallbacks(subjectSource, scope, fallbacks);
  collectFallbacks(htmlSource, scope, fallbacks);
  const templateErrors = [subject.error, html.error].filter((e): e is string => e !== null);
  const safe = sanitizeMailHtml(html.output);
  return {
    // A subject is one line; a newline from a contact's data or a template would end the header.
    subject: subject.output.replace(/[\r\n\t]+/g, ' ').trim(),
    html: safe.html,
    fallbacksUsed: [...fallbacks],
    templateErrors,
    removedLinks: safe.removed,
  };
}

/** A sender account a queued message may be rendered for. */
export interface SenderIdentity extends PersonalizeSender {
  id: string;
}

/**
 * A message rendered at queue time, before the account that sends it is known: `{{ senderName }}`,
 * `{{ senderEmail }}` and `{{ senderCompany }}` (with its fallback) become placeholders that the
 * dispatcher fills with the sending account's values (sending/sender-placeholders.ts). A template that cuts or reshapes them (`truncate`, `slice`, a
 * comparison) cannot be filled later: it is rendered for a real account instead — the one the contact
 * is bound to, else the campaign's first — and `renderedFor` names it, so the message goes from it.
 */
export function renderForQueue(input: {
  subject: string;
  html: string;
  contact: PersonalizeContact;
  seed: string;
  /** The account to render for when placeholders cannot be used; null when the campaign has none. */
  fallbackSender: SenderIdentity | null;
}): RenderedForContact & { renderedFor: string | null } {
  if (!reshapesSender(input.subject) && !reshapesSender(input.html)) {
    const rendered = renderForContact({ ...input, sender: SENDER_PLACEHOLDERS });
    if (placeholdersIntact(rendered.subject) && placeholdersIntact(rendered.html)) {
      return { ...rendered, renderedFor: null };
    }
  }
  const sender = input.fallbackSender;
  return { ...renderForContact({ ...input, sender }), renderedFor: sender?.id ?? null };
}

// `{{ senderName }}` or `{{ senderName | default: "…" }}`: a value a placeholder can stand in for.
const PLAIN_SENDER_OUTPUT =
  /\{\{-?\s*sender(?:Name|Email|Company)\s*(?:\|\s*default\s*:\s*(?:"[^"]*"|'[^']*')\s*)?-?\}\}/g;
const SENDER_TAG = /sender(?:Name|Email|Company)/;
// The company may be empty at send time, so its fallback travels with the placeholder.
const COMPANY_WITH_FALLBACK = /\{\{-?\s*senderCompany\s*\|\s*default\s*:\s*(?:"([^"]*)"|'([^']*)')\s*-?\}\}/g;

function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** `{{ senderCompany | default: "x" }}` as the marker the dispatcher fills (the fallback as its part shows it). */
function companyFallbacksToMarkers(source: string, mode: 'html' | 'text'): string {
  if (!source.includes('senderCompany')) return source;
  return source.replace(
    COMPANY_WITH_FALLBACK,
    (_, double: string | undefined, single: string | undefined) => {
      const fallback = double ?? single ?? '';
      return senderCompanyOr(mode === 'html' ? escapeHtml(fallback) : fallback);
    },
  );
}
const reshapes = new Map<string, boolean>();

/** Whether a template uses the sender's values other than as plain output (a filter, a condition, an assign). */
function reshapesSender(source: string): boolean {
  if (!SENDER_TAG.test(source)) return false;
  let answer = reshapes.get(source);
  if (answer === undefined) {
    answer = SENDER_TAG.test(source.replace(PLAIN_SENDER_OUTPUT, ''));
    if (reshapes.size > 1_000) reshapes.clear();
    reshapes.set(source, answer);
  }
  return answer;
}
