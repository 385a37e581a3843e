import type { Database } from '@server/db/client';
import {
  campaignContacts,
  campaignSenderAccounts,
  contactLists,
  senderAccounts,
  users,
} from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import { AppError } from '@server/lib/errors';
import { type CampaignStep, variantsMissingFirstSubject } from '@shared/campaigns';
import { judgeMailUrl, shownUrl, type UrlRole, urlRoleOf } from '@shared/mail-links';
import {
  OPEN_TRACKING_WARNING,
  type PrelaunchItem,
  type PrelaunchReport,
  type PrelaunchSpam,
  SPAM_SCORE_THRESHOLD,
} from '@shared/personalize';
import { isIanaTimeZone } from '@shared/time-zone';
import { and, asc, eq, gt, inArray, isNull } from 'drizzle-orm';
import {
  analyzeMergeTags,
  type EngineVerdict,
  findCopyPlaceholders,
  flattenSpintax,
  htmlImageOnly,
  mergeScope,
  pathLabel,
  renderTemplate,
  SAMPLE_CONTACT,
  scanTemplateUrls,
  scoreComposedMessage,
  scoreSpam,
  suggestTag,
  visibleText,
} from '../personalization/personalization.service';
import type { SenderAccountRow } from '../sender-accounts/sender-accounts.service';
import { effectiveDailyCap } from '../sender-accounts/sender-accounts.service';
import { composeMessageAsSent, resolveTrackingBaseUrl } from '../sending/sending.service';
import { type AudienceContact, resolveAudience } from './audience.service';
import { type CampaignRow, getCampaignRow } from './campaigns.service';
import { CONSENT_COUNTRIES, checkLinks, dailyCapacity, estimateFinish } from './prelaunch-checks';
import { loadSteps } from './steps.service';

/*
 * The pre-launch check: everything that would make a campaign fail or land in spam, found before the first
 * email leaves. Blockers stop the launch (launch.service.ts calls getPrelaunchReport); warnings are shown
 * and left to the user. It reads the whole audience once (the same resolution the launch uses) to count
 * the contacts who would get a fallback and where they live.
 */

const LONG_FINISH_DAYS = 60;

const TAG_LABELS: Record<string, string> = {
  firstName: 'first name',
  lastName: 'last name',
  fullName: 'name',
  email: 'email address',
  company: 'company',
  city: 'city',
  country: 'country',
  countryCode: 'country',
  countryAdjective: 'country',
  senderName: 'sender name',
  senderEmail: 'sender email',
  senderCompany: 'sender company',
};

function where(step: CampaignStep, variantKey: string): string {
  const single = step.variants.length === 1;
  return `Step ${step.position}${single ? '' : ` (${variantKey})`}`;
}

/** The custom field names of the audience's lists. */
async function audienceFields(db: Database, userId: string, listIds: string[]): Promise<string[]> {
  if (listIds.length === 0) return [];
  const rows = await db
    .select({ customFields: contactLists.customFields })
    .from(contactLists)
    .where(
      and(eq(contactLists.userId, userId), inArray(contactLists.id, listIds), isNull(contactLists.deletedAt)),
    );
  return [...new Set(rows.flatMap((r) => r.customFields ?? []))];
}

async function campaignAccounts(
  db: Database,
  campaignId: string,
  userId: string,
): Promise<SenderAccountRow[]> {
  const rows = await db
    .select({ account: senderAccounts })
    .from(campaignSenderAccounts)
    .innerJoin(senderAccounts, eq(senderAccounts.id, campaignSenderAccounts.senderAccountId))
    .where(and(eq(campaignSenderAccounts.campaignId, campaignId), eq(senderAccounts.userId, userId)))
    .orderBy(asc(senderAccounts.createdAt), asc(senderAccounts.id));
  return rows.map((r) => r.account);
}

/** Launched campaigns read their copied contacts; drafts (and scheduled ones) their audience, as launch will. */
async function* audienceOf(
  db: Database,
  campaign: CampaignRow,
  role: string | null,
): AsyncGenerator<AudienceContact> {
  const [copied] = await db
    .select({ id: campaignContacts.id })
    .from(campaignContacts)
    .where(eq(campaignContacts.campaignId, campaign.id))
    .limit(1);
  if (!copied) {
    yield* resolveAudience({ db, userId: campaign.userId, role, audience: campaign.audience });
    return;
  }
  let lastId: string | null = null;
  for (;;) {
    const rows: (typeof campaignContacts.$inferSelect)[] = await db
      .select()
      .from(campaignContacts)
      .where(
        and(
          eq(campaignContacts.campaignId, campaign.id),
          ...(lastId ? [gt(campaignContacts.id, lastId)] : []),
        ),
      )
      .orderBy(asc(campaignContacts.id))
      .limit(1_000);
    if (rows.length === 0) return;
    lastId = rows.at(-1)!.id;
    for (const r of rows) {
      yield {
        email: r.email,
        firstName: r.firstName,
        lastName: r.lastName,
        company: r.company,
        city: r.city,
        countryCode: r.countryCode,
        fields: r.fields ?? {},
      };
    }
  }
}

/** A URL attribute whose contact value decides whether it stays (`href="{{ website }}"`). */
interface PerContactUrl {
  at: string;
  ids: { stepId: string; variantKey: string };
  template: string;
  role: UrlRole;
  removedFor: number;
  examples: string[];
}

interface VariantCopy {
  step: CampaignStep;
  key: string;
  subject: string;
  html: string;
}

/** What the checks found, in the order they found it (the report keeps that order). */
interface Findings {
  blockers: PrelaunchItem[];
  warnings: PrelaunchItem[];
  passed: PrelaunchItem[];
}

/** What every check reads: the campaign, its steps and sender accounts, and the audience's custom fields. */
interface PrelaunchContext {
  db: Database;
  campaign: CampaignRow;
  ownerRole: string | null;
  steps: CampaignStep[];
  accounts: SenderAccountRow[];
  knownFields: string[];
  appUrl?: string;
  spamEngine: 'auto' | 'builtin';
}

/** What the copy checks hand to the audience check: the merge tags used and the per-contact URLs. */
interface CopyFindings {
  copies: VariantCopy[];
  usedPaths: Map<string, { path: string[]; withDefault: boolean }>;
  perContactUrls: PerContactUrl[];
}

/** Running counts over all copies, for the "passed" lines and the open-tracking detail. */
interface CopyTally {
  tagProblems: number;
  linkProblems: number;
}

export async function getPrelaunchReport(options: {
  db: Database;
  userId: string;
  campaignId: string;
  /** APP_URL: the open pixel and tracked links are built on it (their length counts for spam filters). */
  appUrl?: string;
  /**
   * `auto` (the check the user runs): SpamAssassin where installed. `builtin`: our rules only — the launch
   * reads the report for its blockers, which no spam score is, so it does not wait for SpamAssassin.
   */
  spamEngine?: 'auto' | 'builtin';
}): Promise<PrelaunchReport> {
  const { db, userId } = options;
  const campaign = await getCampaignRow({ db, userId, id: options.campaignId });
  const [owner] = await db.select({ role: users.role }).from(users).where(eq(users.id, userId)).limit(1);
  const [steps, accounts, knownFields] = await Promise.all([
    loadSteps({ db, campaignId: campaign.id }),
    campaignAccounts(db, campaign.id, userId),
    audienceFields(db, userId, campaign.audience.listIds ?? []),
  ]);
  const ctx: PrelaunchContext = {
    db,
    campaign,
    ownerRole: owner?.role ?? null,
    steps,
    accounts,
    knownFields,
    appUrl: options.appUrl,
    spamEngine: options.spamEngine ?? 'auto',
  };
  const findings: Findings = { blockers: [], warnings: [], passed: [] };

  const copy = checkCopy(ctx, findings);
  const spam = await checkSpamAsSent(ctx, copy.copies, findings);
  const audienceSize = await checkAudience(ctx, copy, findings);
  checkTimeZones(ctx, findings);
  const active = checkSenders(ctx, findings);
  checkSenderCompany(ctx, copy, findings);
  checkDomains(active, findings);
  const schedule = checkSchedule(ctx, active, audienceSize, findings);

  return {
    ready: findings.blockers.length === 0,
    ...findings,
    audienceSize,
    estimatedFinish: schedule.finish ? schedule.finish.toISOString() : null,
    dailyCapacity: schedule.capacity,
    spam,
  };
}

// --- The copy: merge tags, unsubscribe tags, links, spam score -----------------------------------------

/** Composes a copy as it will be sent (sending's composer): body format, pixel, tracked links, footer, headers. */
function sentMessageComposer(ctx: PrelaunchContext) {
  const { campaign, accounts } = ctx;
  let trackingBaseUrl = (ctx.appUrl ?? 'https://app.tambari.ng').replace(/\/+$/, '');
  try {
    trackingBaseUrl = resolveTrackingBaseUrl({
      appUrl: trackingBaseUrl,
      trackingDomain: campaign.trackingDomain,
    });
  } catch {
    // A malformed tracking domain is the settings form's to report; APP_URL is near enough for lengths.
  }
  const account = accounts.find((a) => a.status === 'active') ?? accounts[0] ?? null;
  const sampleScope = mergeScope(
    SAMPLE_CONTACT,
    account ? { fromName: account.fromName, fromEmail: account.fromEmail, company: account.company } : null,
  );
  return (copy: { subject: string; html: string }, pixel?: 'always') => {
    const input = {
      subject: renderTemplate(flattenSpintax(copy.subject), sampleScope, 'text').output,
      html: renderTemplate(flattenSpintax(copy.html), sampleScope, 'html').output,
      trackOpens: campaign.trackOpens,
      trackClicks: campaign.trackClicks,
      trackingBaseUrl,
      bodyFormat: campaign.bodyFormat,
      kind: campaign.kind,
      account,
      to: {
        name: [SAMPLE_CONTACT.firstName, SAMPLE_CONTACT.lastName].filter(Boolean).join(' ') || null,
        email: SAMPLE_CONTACT.email,
      },
      pixel,
    };
    try {
      return { key: JSON.stringify(input), message: composeMessageAsSent(input) };
    } catch {
      // A body or address the send would refuse is reported by the other checks.
      return null;
    }
  };
}

function checkCopy(ctx: PrelaunchContext, findings: Findings): CopyFindings {
  const { steps } = ctx;
  const copies: VariantCopy[] = steps.flatMap((step) =>
    step.variants.map((v) => ({ step, key: v.key, subject: v.subject, html: v.bodyHtml })),
  );
  if (steps.length === 0) {
    findings.blockers.push({
      code: 'no_steps',
      message: 'Add at least one step: the campaign has no email to send',
    });
  }
  const result: CopyFindings = { copies, usedPaths: new Map(), perContactUrls: [] };
  const tally: CopyTally = { tagProblems: 0, linkProblems: 0 };
  for (const copy of copies) {
    const at = where(copy.step, copy.key);
    const ids = { stepId: copy.step.id, variantKey: copy.key };
    const flatHtml = flattenSpintax(copy.html);
    checkSubjectAndBody(copy, flatHtml, at, ids, findings);
    checkMergeTags(ctx, copy, flatHtml, { at, ids }, result, tally, findings);
    checkPlaceholders(copy, { at, ids }, findings);
    checkCopyLinks(flatHtml, { at, ids }, result, tally, findings);
  }
  if (copies.length > 0) {
    if (tally.tagProblems === 0)
      findings.passed.push({ code: 'merge_tags', message: 'Every merge tag is known and well formed' });
    if (tally.linkProblems === 0)
      findings.passed.push({ code: 'links', message: 'Links look complete and none is shortened' });
  }
  findings.passed.push({
    code: 'unsubscribe',
    message: 'Every email gets an unsubscribe link and one-click unsubscribe headers',
  });
  return result;
}

type CopyPlace = { at: string; ids: { stepId: string; variantKey: string } };

function checkSubjectAndBody(
  copy: VariantCopy,
  flatHtml: string,
  at: string,
  ids: CopyPlace['ids'],
  findings: Findings,
): void {
  // The step services keep a subject on the first step; this is the last line for older data.
  if (variantsMissingFirstSubject([copy], copy.step.position === 1).length > 0) {
    findings.blockers.push({
      code: 'empty_subject',
      message: `${at}: the first email needs a subject`,
      ...ids,
    });
  }
  if (visibleText(flatHtml).trim() === '' && !/<img\b/i.test(flatHtml)) {
    findings.blockers.push({ code: 'empty_body', message: `${at}: the email body is empty`, ...ids });
  }
}

function checkMergeTags(
  ctx: PrelaunchContext,
  copy: VariantCopy,
  flatHtml: string,
  { at, ids }: CopyPlace,
  result: CopyFindings,
  tally: CopyTally,
  findings: Findings,
): void {
  const { knownFields } = ctx;
  const tags = analyzeMergeTags({ subject: copy.subject, html: copy.html, knownFields });
  if (tags.syntaxErrors.length > 0) {
    tally.tagProblems++;
    findings.blockers.push({
      code: 'merge_tag_syntax',
      message: `${at}: fix the merge tag ${tags.syntaxErrors.length === 1 ? 'error' : 'errors'}`,
      detail: tags.syntaxErrors.join('\n'),
      ...ids,
    });
  }
  if (tags.unknownTags.length > 0) {
    tally.tagProblems++;
    const named = tags.unknownTags.map((tag) => {
      const suggestion = suggestTag(tag.replace(/^fields\./, ''), knownFields);
      return suggestion ? `{{ ${tag} }} (did you mean {{ ${suggestion} }}?)` : `{{ ${tag} }}`;
    });
    findings.blockers.push({
      code: 'unknown_merge_tags',
      message: `${at}: unknown merge ${named.length === 1 ? 'tag' : 'tags'} ${named.join(', ')}`,
      detail:
        'Known tags are the contact fields, your sender fields and the custom fields of the chosen lists.',
      ...ids,
    });
  }
  if (tags.unsubscribeTags.length > 0) {
    findings.blockers.push({
      code: 'unsubscribe_tag',
      message: `${at}: remove {{ ${tags.unsubscribeTags[0]} }} — Tambari adds an unsubscribe link to every email itself`,
      ...ids,
    });
  }
  // The tags the audience check counts fallbacks for, and whether each use has a default.
  const flatSubject = flattenSpintax(copy.subject);
  const notCounted = new Set([...tags.unknownTags, ...tags.unsubscribeTags]);
  for (const path of tags.variables) {
    const key = pathLabel(path);
    if (notCounted.has(key)) continue;
    const withDefault = new RegExp(
      `\\{\\{-?\\s*${key.replace(/[.[\]]/g, '\\$&')}\\s*\\|\\s*default\\s*:`,
    ).test(`${flatSubject}\n${flatHtml}`);
    const seen = result.usedPaths.get(key);
    result.usedPaths.set(key, { path, withDefault: (seen?.withDefault ?? true) && withDefault });
  }
}

/** At most this many placeholders are named in a blocker's message; its detail lists them all. */
const NAMED_PLACEHOLDERS = 3;

/**
 * Placeholders a template left ("[Date]", "[[edit: 42% open rate]]", example.com links) would reach
 * every recipient as they are: they block. Merge tags are judged by checkMergeTags.
 */
function checkPlaceholders(copy: VariantCopy, { at, ids }: CopyPlace, findings: Findings): void {
  const found = findCopyPlaceholders({
    subject: copy.subject,
    html: copy.html,
    knownFields: [],
    mergeTags: false,
  });
  const all = [...found.subject.map((f) => `Subject: ${f.message}`), ...found.body.map((f) => f.message)];
  if (all.length === 0) return;
  const more = all.length - NAMED_PLACEHOLDERS;
  findings.blockers.push({
    code: 'placeholders',
    message: `${at}: ${all.slice(0, NAMED_PLACEHOLDERS).join('; ')}${more > 0 ? ` (and ${more} more)` : ''}`,
    detail: all.join('\n'),
    ...ids,
  });
}

function checkCopyLinks(
  flatHtml: string,
  { at, ids }: CopyPlace,
  result: CopyFindings,
  tally: CopyTally,
  findings: Findings,
): void {
  const links = checkLinks(flatHtml);
  if (links.shortened.length > 0) {
    tally.linkProblems++;
    findings.blockers.push({
      code: 'link_shortener',
      message: `${at}: replace shortened links with the full address (spam filters block shorteners)`,
      detail: links.shortened.join('\n'),
      ...ids,
    });
  }
  if (links.broken.length > 0) {
    tally.linkProblems++;
    findings.warnings.push({
      code: 'broken_link',
      message: `${at}: ${links.broken.length === 1 ? 'a link looks' : `${links.broken.length} links look`} broken`,
      detail: links.broken.map((b) => `${b.url} — ${b.reason}`).join('\n'),
      ...ids,
    });
  }
  if (links.insecure.length > 0) {
    tally.linkProblems++;
    findings.warnings.push({
      code: 'insecure_link',
      message: `${at}: use https:// links (http:// ones look unsafe to mail clients)`,
      detail: links.insecure.join('\n'),
      ...ids,
    });
  }

  // Links the send removes (shared/mail-links.ts): for everyone now, per contact in the audience walk.
  const urls = scanTemplateUrls(flatHtml);
  if (urls.unsafe.length > 0) {
    tally.linkProblems++;
    const count = urls.unsafe.length;
    findings.warnings.push({
      code: 'unsafe_link',
      message: `${at}: ${count === 1 ? 'a link will be removed' : `${count} links will be removed`} — only https://, mailto: and tel: links (and https:// images) are sent; the text stays`,
      detail: urls.unsafe.map((u) => `${shownUrl(u.value)} — ${u.reason}`).join('\n'),
      ...ids,
    });
  }
  for (const entry of urls.perContact) {
    result.perContactUrls.push({
      at,
      ids,
      template: entry.value,
      role: urlRoleOf(entry.element, entry.attribute) ?? 'link',
      removedFor: 0,
      examples: [],
    });
  }
}

/**
 * Every copy composed as it will be sent and scored: SpamAssassin's verdict where it is installed, else
 * the built-in emulation of its local rules; Tambari's wording hints beside it. The open-tracking warning
 * names the steps that go without the pixel (where it would have cost points).
 */
async function checkSpamAsSent(ctx: PrelaunchContext, copies: VariantCopy[], findings: Findings) {
  const { campaign } = ctx;
  const compose = sentMessageComposer(ctx);
  const spam: PrelaunchSpam = { engine: 'builtin', note: '', required: SPAM_SCORE_THRESHOLD, copies: [] };
  const withoutPixel: string[] = [];
  let warned = 0;
  let worst = 0;
  // Composed in order, scored two at a time (a SpamAssassin run is a second or more of one core).
  const composedCopies = copies.map((copy) => ({ copy, composed: compose(copy) }));
  const verdicts = new Array<EngineVerdict | null>(copies.length).fill(null);
  let next = 0;
  await Promise.all(
    [0, 1].map(async () => {
      for (let i = next++; i < composedCopies.length; i = next++) {
        const { composed } = composedCopies[i]!;
        if (!composed) continue;
        verdicts[i] = await scoreComposedMessage({
          ...composed.message,
          key: composed.key,
          ...(ctx.spamEngine === 'builtin' ? { builtinOnly: true } : {}),
        });
      }
    }),
  );
  for (const [i, { copy, composed }] of composedCopies.entries()) {
    const at = where(copy.step, copy.key);
    const ids = { stepId: copy.step.id, variantKey: copy.key };
    const verdict = verdicts[i];
    if (!composed || !verdict) continue;
    spam.engine = verdict.engine;
    spam.note = verdict.note;
    spam.required = verdict.required;
    const flatHtml = flattenSpintax(copy.html);
    const wording = scoreSpam({ subject: flattenSpintax(copy.subject), html: flatHtml });
    const hints = wording.hits.filter((h) => h.rule !== 'image_only' && h.rule !== 'low_text_ratio');
    spam.copies.push({
      at,
      ...ids,
      score: verdict.score,
      rules: verdict.rules,
      hints: hints.map((h) => ({ rule: h.rule, score: h.score, description: h.description })),
      pixel: composed.message.pixel,
    });
    if (campaign.trackOpens && !composed.message.pixel && composed.message.html) {
      const always = compose(copy, 'always');
      const cost = always ? htmlImageOnly(always.message.html) : null;
      withoutPixel.push(cost ? `${at}: the pixel would cost +${cost.score.toFixed(1)} (${cost.rule})` : at);
    }
    const hintTotal = hints.reduce((sum, h) => sum + h.score, 0);
    worst = Math.max(worst, verdict.score);
    if (verdict.score >= verdict.required || hintTotal > SPAM_SCORE_THRESHOLD) {
      warned++;
      findings.warnings.push({
        code: 'spam_score',
        message:
          verdict.score >= verdict.required
            ? `${at}: spam score ${verdict.score} (${verdict.engine === 'spamassassin' ? 'SpamAssassin' : 'built-in rules'}, ${verdict.required} marks spam) — this copy may land in spam`
            : `${at}: the wording looks like spam (${Math.round(hintTotal * 10) / 10} points of Tambari's wording hints)`,
        detail: [...verdict.rules, ...hints]
          .slice(0, 8)
          .map((hit) => `${hit.description} (+${hit.score.toFixed(1)})`)
          .join('\n'),
        ...ids,
      });
    }
  }
  if (spam.copies.length > 0 && warned === 0) {
    findings.passed.push({
      code: 'spam_score',
      message: `Spam score ${worst} at most as sent (${spam.engine === 'spamassassin' ? 'SpamAssassin' : 'built-in rules'}; ${spam.required} marks spam)`,
    });
  }
  if (campaign.kind === 'campaign' && campaign.trackOpens && copies.length > 0) {
    findings.warnings.push({
      code: 'open_tracking',
      message: OPEN_TRACKING_WARNING,
      detail:
        withoutPixel.length > 0
          ? `Sent without the pixel (opens not counted):\n${withoutPixel.join('\n')}`
          : 'Every step carries the pixel at no spam cost, but Apple Mail and Gmail fetch images for the reader, so opens stay unreliable.',
    });
  }
  return spam;
}

// --- The audience: size, fallbacks, privacy-law countries ----------------------------------------------

/** One walk over the audience: its size, the contacts missing each merge tag, the privacy-law counts. */
async function walkAudience(ctx: PrelaunchContext, copy: CopyFindings, findings: Findings) {
  const { accounts } = ctx;
  let audienceSize = 0;
  const missing = new Map<string, number>();
  const consent = new Map<string, number>();
  const contactPaths = [...copy.usedPaths.values()].filter(
    (p) => p.path[0] !== 'senderName' && p.path[0] !== 'senderEmail' && p.path[0] !== 'senderCompany',
  );
  const firstAccount = accounts.find((a) => a.status === 'active') ?? accounts[0];
  const urlSender = firstAccount
    ? { fromName: firstAccount.fromName, fromEmail: firstAccount.fromEmail, company: firstAccount.company }
    : null;
  try {
    for await (const contact of audienceOf(ctx.db, ctx.campaign, ctx.ownerRole)) {
      audienceSize++;
      if (copy.perContactUrls.length > 0) judgePerContactUrls(copy.perContactUrls, contact, urlSender);
      if (contactPaths.length > 0) {
        const scope = mergeScope(contact, null);
        for (const { path } of contactPaths) {
          if (isMissing(scope, path)) missing.set(pathLabel(path), (missing.get(pathLabel(path)) ?? 0) + 1);
        }
      }
      const law = contact.countryCode ? CONSENT_COUNTRIES[contact.countryCode.toUpperCase()] : undefined;
      if (law) consent.set(law, (consent.get(law) ?? 0) + 1);
    }
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    findings.blockers.push({ code: 'audience_invalid', message: error.message });
  }
  return { audienceSize, missing, consent, contactPaths };
}

/** Counts the contacts whose value would make a per-contact URL one the send removes. */
function judgePerContactUrls(
  urls: PerContactUrl[],
  contact: AudienceContact,
  sender: { fromName: string; fromEmail: string } | null,
): void {
  const scope = mergeScope(contact, sender);
  for (const url of urls) {
    const rendered = renderTemplate(url.template, scope, 'text');
    // A fragment cut by the HTML parser (`href="{{ site | default: "https://…" }}"`) is not what the
    // send renders (it renders the whole body first): nothing to judge here, the send still checks.
    if (rendered.error) continue;
    if (judgeMailUrl(rendered.output, url.role).ok) continue;
    url.removedFor++;
    if (url.examples.length < 3) url.examples.push(`${contact.email}: ${shownUrl(rendered.output)}`);
  }
}

async function checkAudience(ctx: PrelaunchContext, copy: CopyFindings, findings: Findings): Promise<number> {
  const { audienceSize, missing, consent, contactPaths } = await walkAudience(ctx, copy, findings);
  const { blockers, warnings, passed } = findings;
  if (audienceSize === 0 && !blockers.some((b) => b.code === 'audience_invalid')) {
    blockers.push({
      code: 'empty_audience',
      message:
        'Nobody in this audience can be emailed: choose lists or lead filters with contacts who are not suppressed',
    });
  } else if (audienceSize > 0) {
    passed.push({
      code: 'audience',
      message: `${audienceSize.toLocaleString('en')} contacts in the audience`,
    });
  }
  for (const url of copy.perContactUrls) {
    if (url.removedFor === 0) continue;
    warnings.push({
      code: 'unsafe_merge_link',
      message: `${url.at}: for ${url.removedFor.toLocaleString('en')} of ${audienceSize.toLocaleString('en')} contacts, ${shownUrl(url.template)} is not a web, mail or phone link — it will be removed from their email (the text stays)`,
      detail: [
        `Their values, for example:`,
        ...url.examples,
        `Put a fixed https:// before the merge tag, or correct these contacts.`,
      ].join('\n'),
      ...url.ids,
    });
  }
  for (const [key, count] of missing) {
    const used = copy.usedPaths.get(key)!;
    const name = TAG_LABELS[key] ?? key.replace(/^fields\./, '');
    warnings.push({
      code: 'fallbacks',
      message: `${count.toLocaleString('en')} of ${audienceSize.toLocaleString('en')} contacts have no ${name}`,
      detail: used.withDefault
        ? 'They get the fallback you wrote.'
        : `Their copy will have a gap where {{ ${key} }} is. Add a fallback: {{ ${key} | default: "…" }}`,
    });
  }
  if (missing.size === 0 && audienceSize > 0 && contactPaths.length > 0) {
    passed.push({ code: 'fallbacks', message: 'Every contact has a value for every merge tag' });
  }
  for (const [law, count] of consent) {
    warnings.push({
      code: 'consent',
      message: `${count.toLocaleString('en')} contacts are covered by ${law}: make sure you have their consent or a legitimate interest`,
      detail:
        law === 'POPIA'
          ? 'South Africa’s POPIA allows unsolicited direct marketing only to people who consented or are existing customers.'
          : 'Under GDPR, cold email needs a legitimate interest you can show, a clear sender and an easy opt-out.',
    });
  }
  return audienceSize;
}

// --- Time zones: a zone the runtime cannot use (saved before zones were checked) would stop sending ------

function checkTimeZones(ctx: PrelaunchContext, findings: Findings): void {
  const { campaign, accounts } = ctx;
  const badZones = [
    ...(isIanaTimeZone(campaign.timeZone) ? [] : [`the campaign's sending window (${campaign.timeZone})`]),
    ...accounts
      .filter((a) => !isIanaTimeZone(a.timeZone))
      .map((a) => `sender account ${a.fromEmail} (${a.timeZone})`),
  ];
  if (badZones.length > 0) {
    findings.blockers.push({
      code: 'time_zone',
      message: `Choose a valid time zone: ${badZones.join('; ')}`,
      detail: 'Use a name like Africa/Lagos or Europe/London.',
    });
  }
}

// --- Sender accounts and their domains -----------------------------------------------------------------

const accountStatusLine = (a: SenderAccountRow) =>
  `${a.fromEmail}: ${a.status}${a.statusReason ? ` — ${a.statusReason}` : ''}`;

/** Whether the chosen accounts can send; returns the active ones, which carry the campaign. */
function checkSenders(ctx: PrelaunchContext, findings: Findings): SenderAccountRow[] {
  const { accounts } = ctx;
  const active = accounts.filter((a) => a.status === 'active');
  if (accounts.length === 0) {
    findings.blockers.push({ code: 'no_sender', message: 'Choose at least one sender account to send from' });
  } else if (active.length === 0) {
    findings.blockers.push({
      code: 'no_active_sender',
      message: 'None of the chosen sender accounts can send: resume or fix one of them',
      detail: accounts.map(accountStatusLine).join('\n'),
    });
  } else if (active.length < accounts.length) {
    findings.warnings.push({
      code: 'sender_unhealthy',
      message: `${accounts.length - active.length} of ${accounts.length} sender accounts are paused or failing; the others carry the campaign`,
      detail: accounts
        .filter((a) => a.status !== 'active')
        .map(accountStatusLine)
        .join('\n'),
    });
  } else {
    findings.passed.push({
      code: 'senders',
      message: `${active.length} sender ${active.length === 1 ? 'account' : 'accounts'} ready`,
    });
  }
  return active;
}

/**
 * `{{ senderCompany }}` renders empty (or its fallback) for an account that names no company: worth a word
 * before the launch, but not a reason to stop it.
 */
function checkSenderCompany(ctx: PrelaunchContext, copy: CopyFindings, findings: Findings): void {
  const used = copy.usedPaths.get('senderCompany');
  if (!used) return;
  const without = ctx.accounts.filter((a) => !a.company?.trim());
  if (without.length === 0) return;
  const names = without.map((a) => a.fromEmail);
  const shown = used.withDefault ? 'its fallback' : 'nothing';
  findings.warnings.push({
    code: 'sender_company_missing',
    message:
      without.length === 1
        ? `Sender account ${names[0]} has no company: {{ senderCompany }} shows ${shown} in the emails it sends`
        : `${without.length} sender accounts have no company: {{ senderCompany }} shows ${shown} in the emails they send`,
    detail: `Add the company in Settings → Sender accounts:\n${names.join('\n')}`,
  });
}

/** SPF, DKIM and DMARC of each sending domain, from the accounts' last domain check. */
function checkDomains(active: SenderAccountRow[], findings: Findings): void {
  const domains = new Map<string, SenderAccountRow>();
  for (const account of active) {
    const domain = account.fromEmail.slice(account.fromEmail.lastIndexOf('@') + 1).toLowerCase();
    if (!domains.has(domain)) domains.set(domain, account);
  }
  let dnsProblems = 0;
  for (const [domain, account] of domains) {
    if (account.isDevMailbox) continue;
    dnsProblems += checkDomain(domain, account.domainCheck, findings);
  }
  if (domains.size > 0 && dnsProblems === 0) {
    findings.passed.push({ code: 'domains', message: 'SPF, DKIM and DMARC pass for every sending domain' });
  }
}

/** One domain's findings; returns how many problems it has. */
function checkDomain(domain: string, check: SenderAccountRow['domainCheck'], findings: Findings): number {
  if (!check) {
    findings.warnings.push({
      code: 'domain_unchecked',
      message: `${domain}: SPF, DKIM and DMARC have not been checked yet — run the domain check on the sender account`,
    });
    return 1;
  }
  let problems = 0;
  if (check.spf.status === 'fail') {
    problems++;
    findings.blockers.push({
      code: 'spf_fail',
      message: `${domain}: SPF fails — mail from this domain is likely to be rejected`,
      detail: [
        check.spf.detail,
        check.spf.fix ? `Add ${check.spf.fix.type} ${check.spf.fix.host}: ${check.spf.fix.value}` : '',
      ]
        .filter(Boolean)
        .join('\n'),
    });
  } else if (check.spf.status === 'warn') {
    problems++;
    findings.warnings.push({
      code: 'spf_warn',
      message: `${domain}: SPF needs attention`,
      detail: check.spf.detail,
    });
  }
  if (check.dkim.status !== 'pass') {
    problems++;
    findings.warnings.push({
      code: 'dkim',
      message: `${domain}: DKIM ${check.dkim.status === 'fail' ? 'fails' : 'was not confirmed'}`,
      detail: check.dkim.detail,
    });
  }
  if (check.dmarc.status !== 'pass') {
    problems++;
    findings.warnings.push({
      code: 'dmarc',
      message: `${domain}: DMARC ${check.dmarc.status === 'fail' ? 'is missing or fails' : 'needs attention'}`,
      detail: check.dmarc.detail,
    });
  }
  return problems;
}

// --- Schedule and estimated finish -------------------------------------------------------------------------

function checkSchedule(
  ctx: PrelaunchContext,
  active: SenderAccountRow[],
  audienceSize: number,
  findings: Findings,
): { capacity: number; finish: Date | null } {
  const { campaign, steps } = ctx;
  const at = now();
  const scheduledAt = campaign.scheduledAt;
  if (campaign.status === 'draft' && scheduledAt && scheduledAt.getTime() < at.getTime()) {
    findings.warnings.push({
      code: 'schedule_past',
      message: 'The scheduled start has passed: the campaign starts as soon as you launch it',
    });
  }
  const start = scheduledAt && scheduledAt.getTime() > at.getTime() ? scheduledAt : at;
  const capacity = dailyCapacity({
    accounts: active
      .filter((a) => isIanaTimeZone(a.timeZone))
      .map((a) => ({ cap: effectiveDailyCap(a, start) })),
    windowStartMinute: campaign.windowStartMinute,
    windowEndMinute: campaign.windowEndMinute,
    gapMinSeconds: campaign.gapMinSeconds,
    gapMaxSeconds: campaign.gapMaxSeconds,
    dailyCap: campaign.dailyCap,
  });
  const finish = estimateFinish({
    start,
    audienceSize,
    steps,
    dailyCapacity: capacity,
    sendDays: campaign.sendDays,
    windowStartMinute: campaign.windowStartMinute,
    windowEndMinute: campaign.windowEndMinute,
    timeZone: campaign.timeZone,
  });
  if (finish && finish.getTime() - start.getTime() > LONG_FINISH_DAYS * 86_400_000) {
    findings.warnings.push({
      code: 'long_finish',
      message: `At ${capacity.toLocaleString('en')} emails a day this campaign takes more than ${LONG_FINISH_DAYS} days`,
      detail: 'Add sender accounts, widen the sending window or shorten the gaps to finish sooner.',
    });
  }
  return { capacity, finish };
}

function isMissing(scope: Record<string, unknown>, path: string[]): boolean {
  let value: unknown = scope;
  for (const segment of path) {
    if (segment === '?') return false;
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, segment)) return true;
    value = (value as Record<string, unknown>)[segment];
  }
  return value === null || value === undefined || value === '';
}
