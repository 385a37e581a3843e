import type { InboundKind } from '@shared/inbound';
import type { InboxCategory } from '@shared/inbox';

/*
 * The inbox category of a message, by rules: what classifyInbound read from the headers and the report
 * parts (bounces, out-of-office, automatic replies, unsubscribe requests) decides first; a person's
 * reply is then read for what it says, in the languages our users' contacts write in (English, French,
 * Nigerian Pidgin, Swahili, Portuguese, Arabic). A reply no rule recognises stays uncategorised (null):
 * a wrong "Interested" is worse than none. Pure; the user can change the answer.
 */

const NOT_INTERESTED = [
  /\bnot (?:really |at all )?interested\b/i,
  /\bno,? thanks?\b|\bno,? thank you\b/i,
  /\b(?:please )?(?:do not|don'?t) (?:contact|email|e-mail|write to) (?:me|us)\b/i,
  /\bwe(?:'re| are) (?:all set|good|not looking)\b/i,
  /\bnot (?:a fit|relevant) for us\b|\bwe (?:already )?have a (?:supplier|provider|vendor)\b/i,
  /\bpas int[ée]ress[ée]|\bnon,? merci\b|\bne nous int[ée]resse pas\b|\bça ne m'int[ée]resse pas\b/i,
  /\b(?:i|we) no (?:dey )?(?:interested|need am|wan am)\b|\bwe no need\b/i,
  /\bsina (?:nia|haja)\b|\bhatuhitaji\b|\bhapana,? asante\b|\bhatuna nia\b/i,
  /\bn[ãa]o (?:tenho|temos) interesse\b|\bn[ãa]o estou interessad[oa]\b|\bn[ãa]o,? obrigad[oa]\b/i,
  /غير مهتم|لسنا مهتمين|لا شكرا|لا، شكرا|لا نحتاج/,
];

const NOT_NOW = [
  /\bnot (?:right )?now\b|\bnot at the moment\b|\bnot at this time\b|\bmaybe later\b/i,
  /\b(?:next|in the new) (?:quarter|year|month)\b|\bin (?:a few|two|three|six) (?:weeks|months)\b/i,
  /\b(?:circle|check|reach|come) back (?:to me |to us )?(?:in|after|next|later)\b/i,
  /\b(?:no|not in (?:the|our)) budget\b|\btiming (?:is not|isn'?t) right\b/i,
  /\bpas (?:pour le moment|maintenant|pour l'instant)\b|\bplus tard\b|\bl'ann[ée]e prochaine\b/i,
  /\bno be now\b|\bmake you (?:check|come) back\b|\blater (?:time|dey)\b/i,
  /\bsi sasa\b|\bbaadaye\b|\bmwaka ujao\b/i,
  /\bagora n[ãa]o\b|\bmais tarde\b|\bno momento,? n[ãa]o\b|\bpr[óo]ximo (?:ano|m[êe]s|trimestre)\b/i,
  /ليس الآن|لاحقا|لاحقًا|في وقت لاحق|العام القادم/,
];

const MEETING = [
  /\b(?:schedule|book|set up|arrange|have) (?:a |an )?(?:call|meeting|chat|demo)\b/i,
  /\b(?:call|meeting|demo|chat) (?:on|next|this|tomorrow|at)\b/i,
  /\bcan we (?:meet|talk|speak)\b|\blet'?s (?:meet|talk|speak)\b|\bcalendly\.com\b|\bmy calendar\b/i,
  /\b(?:zoom|google meet|teams call)\b/i,
  /\brendez-vous\b|\br[ée]union\b|\bun appel\b|\bon peut se parler\b|\bdisponible (?:le|mardi|lundi|mercredi|jeudi|vendredi)\b/i,
  /\bmake we (?:meet|talk|yarn)\b|\bcall me (?:on|for)\b/i,
  /\bmkutano\b|\btukutane\b|\bnipigie simu\b|\btuzungumze\b/i,
  /\breuni[ãa]o\b|\bagendar\b|\bpodemos conversar\b|\buma (?:liga[çc][ãa]o|chamada)\b/i,
  /اجتماع|موعد|مكالمة|نلتقي/,
];

const INTERESTED = [
  /\b(?:i'?m|i am|we'?re|we are|very|definitely) interested\b|\binterested in\b/i,
  /\bsounds (?:good|great|interesting)\b|\btell me more\b|\bsend (?:me |us )?(?:more|the|your) (?:details|information|info|prices?|brochure|catalogue|proposal)\b/i,
  /\bplease send\b|\blet'?s do it\b|\bwe(?:'d| would) like to\b|\bkeen\b/i,
  /\bint[ée]ress[ée]|\bça m'int[ée]resse\b|\benvoyez(?:-moi)? (?:les|plus)\b/i,
  /\bi dey interested\b|\be make sense\b|\bsend am\b|\bwe go like\b/i,
  /\bnina nia\b|\bnimevutiwa\b|\btuma maelezo\b|\btunavutiwa\b/i,
  /\btenho interesse\b|\btemos interesse\b|\binteressad[oa]s?\b|\bmande mais\b/i,
  /مهتم|مهتمون|أرسل لي|ارسل لي/,
];

const QUESTION = /[?؟]/;

export function categorizeInbound(input: {
  kind: InboundKind;
  subject: string;
  /** The text the sender wrote this time (freshText). */
  text: string;
}): InboxCategory | null {
  switch (input.kind) {
    case 'out_of_office':
      return 'out_of_office';
    case 'bounce_hard':
    case 'bounce_soft':
      return 'bounce';
    case 'unsubscribe_request':
    case 'complaint':
      return 'unsubscribe_request';
    case 'other':
      return 'auto_reply';
    case 'reply':
      return categorizeReply(input.text);
  }
}

function categorizeReply(text: string): InboxCategory | null {
  const said = text.slice(0, 4000);
  const matches = (rules: RegExp[]) => rules.some((rule) => rule.test(said));
  const notNow = matches(NOT_NOW);
  // "Not interested right now" is a door left open.
  if (matches(NOT_INTERESTED)) return notNow ? 'not_now' : 'not_interested';
  if (notNow) return 'not_now';
  if (matches(MEETING)) return 'meeting_request';
  if (matches(INTERESTED)) return 'interested';
  if (QUESTION.test(said)) return 'question';
  return null;
}
