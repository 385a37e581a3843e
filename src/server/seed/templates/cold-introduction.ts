import { email, type SeedTemplate } from './template-helpers';

const c = (...args: Parameters<typeof email> extends [unknown, ...infer Rest] ? Rest : never) =>
  email('cold-introduction', ...args);

export const COLD_INTRODUCTION_TEMPLATES: SeedTemplate[] = [
  c(
    'intro-short-and-direct',
    'Short and direct',
    'A four-line first touch that states the value and asks one easy question.',
    'Quick question, {{ firstName | default: "there" }}',
    [
      'I work with companies like {{ company | default: "yours" }} that want [[edit: the result you deliver, e.g. faster deliveries to their own customers]].',
      '[[edit: one result a real client got, e.g. a client in your sector cut delivery times by half]].',
      'Is that a priority for you this quarter, or should I check back later?',
    ],
    ['short', 'b2b', 'first touch'],
  ),
  c(
    'intro-problem-first',
    'Problem first',
    'Opens with a pain point the prospect recognises, then offers a fix.',
    '{{ company | default: "Your team" }} and late supplier payments',
    [
      'Most finance teams we speak to in {{ city | default: "your city" }} lose hours every week chasing invoices and reconciling transfers by hand.',
      'At {{ senderCompany | default: "our company" }}, we built a tool that matches incoming payments to invoices automatically and sends polite reminders for you. Teams using it close their books days earlier.',
      'Would it be useful if I sent you a two-minute video showing how it works?',
    ],
    ['problem', 'finance', 'video'],
  ),
  c(
    'intro-mutual-market',
    'Same market, new idea',
    'For prospects in a market you already serve: lead with local relevance.',
    'Helping {{ city | default: "local" }} businesses grow',
    [
      'We work with businesses in {{ city | default: "your area" }}, and one theme keeps coming up: [[edit: the problem your local customers mention most]].',
      'At {{ senderCompany | default: "our company" }}, we help teams like {{ company | default: "yours" }} with [[edit: what you offer, in one line]].',
      'Open to a 15-minute call next week to see whether it fits?',
    ],
    ['local', 'africa', 'meeting'],
  ),
  c(
    'intro-compliment-specific',
    'Genuine compliment',
    'Starts with a specific, honest observation about the prospect’s business.',
    'Loved what {{ company | default: "your team" }} is building',
    [
      'I came across {{ company | default: "your company" }} recently and was impressed by how clearly you explain what you do. That is rarer than it should be.',
      'I help growing companies turn that clarity into a steady flow of new customers through targeted outreach.',
      'If it would help, I can share three ideas specific to your market. No obligation — just reply “yes”.',
    ],
    ['compliment', 'personal', 'soft ask'],
  ),
  c(
    'intro-case-study',
    'Case study teaser',
    'Leads with a short result from a similar customer.',
    'How a {{ countryAdjective | default: "local" }} business like yours [[edit: the result, e.g. doubled its reorders]]',
    [
      '[[edit: a real customer’s situation, e.g. a distributor we work with was losing repeat customers because nobody followed up after the first order]].',
      '[[edit: what you did and the result they measured — only figures you can show]].',
      'I think {{ company | default: "your business" }} could see something similar. Worth a short conversation?',
    ],
    ['case study', 'distribution', 'results'],
  ),
  c(
    'intro-one-sentence',
    'One sentence',
    'The shortest possible cold email, for busy decision makers.',
    '{{ firstName | default: "Hello" }}, worth a chat?',
    [
      'We help {{ countryAdjective | default: "growing" }} businesses like {{ company | default: "yours" }} [[edit: what you do for them, in a few words]] — would a 10-minute call this week be worth your time?',
    ],
    ['short', 'executive'],
  ),
  c(
    'intro-question-led',
    'Question led',
    'Asks a thought-provoking question before introducing yourself.',
    'How does {{ company | default: "your team" }} find new customers today?',
    [
      'Curious: when {{ company | default: "your team" }} wants new customers, where do the leads come from — referrals, events, ads, or cold outreach?',
      'I ask because we help teams like yours with [[edit: what you offer, in one line]].',
      'If you share how you do it today, I’ll tell you honestly whether we could help.',
    ],
    ['question', 'discovery'],
  ),
  c(
    'intro-founder-to-founder',
    'Founder to founder',
    'A candid note from one founder to another.',
    'Founder to founder',
    [
      'I’m the founder of a small company, so I know how little time you have — I’ll keep this brief.',
      'We solved a problem I suspect {{ company | default: "your company" }} has too: [[edit: the problem you solved, in one line]].',
      'If you are open to it, I’d love to swap notes for 15 minutes. Even if we don’t work together, I’m happy to share what worked for us.',
    ],
    ['founder', 'startup', 'candid'],
  ),
  c(
    'intro-referral-ask',
    'Right person?',
    'Asks to be pointed to the right decision maker.',
    'Are you the right person, {{ firstName | default: "there" }}?',
    [
      'I’m trying to reach whoever looks after new business at {{ company | default: "your company" }}.',
      'We help teams like yours with [[edit: what you offer, in one line]].',
      'If that is you, could we talk for ten minutes this week? If not, I’d be grateful if you could point me to the right colleague.',
    ],
    ['referral', 'routing'],
  ),
  c(
    'intro-free-resource',
    'Free resource',
    'Offers something useful before asking for anything.',
    'A free guide for {{ company | default: "your team" }}',
    [
      'We put together a short guide on [[edit: the guide’s topic, e.g. cutting delivery costs in the rainy season]] — what works, what has stopped working, and what it costs.',
      'I thought it might be useful for {{ company | default: "your team" }}. Shall I send it over?',
    ],
    ['resource', 'content', 'value first'],
  ),
  c(
    'intro-expansion',
    'New market expansion',
    'For prospects expanding to a new country or city.',
    'Expanding beyond {{ city | default: "your home market" }}?',
    [
      'Growing into a new city or country usually means starting from zero: no contacts, no relationships, no local knowledge.',
      'We help teams like {{ company | default: "yours" }} with [[edit: how you help a business entering a new market]], so the first months are spent selling instead of searching.',
      'Are you planning any expansion this year? I’d be glad to share what we see in the markets you are considering.',
    ],
    ['expansion', 'pan-african'],
  ),
  c(
    'intro-pidgin-friendly',
    'Warm and informal',
    'A relaxed, friendly tone for owner-managed businesses.',
    'Small idea for {{ company | default: "your business" }}',
    [
      'I hope business is going well this season.',
      'I have a small idea that could bring {{ company | default: "your business" }} a few more customers every month without extra spending on adverts.',
      'Can I call you for five minutes this week to explain? Just reply with a good time.',
    ],
    ['informal', 'sme', 'phone'],
    { greeting: 'Hello {{ firstName | default: "there" }},', signOff: 'Thank you,<br>{{ senderName }}' },
  ),
  c(
    'intro-french-west-africa',
    'Présentation (français)',
    'A short first touch in French for francophone West and Central Africa.',
    'Une question rapide, {{ firstName | default: "Madame, Monsieur" }}',
    [
      'J’accompagne des entreprises comme {{ company | default: "la vôtre" }} qui souhaitent trouver de nouveaux clients sans agrandir leur équipe commerciale.',
      '[[edit: un résultat réel d’un de vos clients, avec des chiffres que vous pouvez montrer]].',
      'Est-ce un sujet prioritaire pour vous ce trimestre ? Un appel de 15 minutes vous conviendrait-il ?',
    ],
    ['french', 'francophone', 'senegal', 'cote d’ivoire'],
    {
      greeting: 'Bonjour {{ firstName | default: "Madame, Monsieur" }},',
      signOff: 'Bien cordialement,<br>{{ senderName }}',
    },
  ),
  c(
    'intro-roi-numbers',
    'Numbers first',
    'For analytical buyers: concrete figures, no fluff.',
    '3 numbers for {{ company | default: "your team" }}',
    [
      'Three numbers from our customers last quarter: [[edit: your real figures, e.g. 42% average open rate]], [[edit: second figure]] and [[edit: third figure]].',
      '[[edit: how you achieved them, in one sentence]].',
      'Would you like to see how those numbers would look for {{ company | default: "your business" }}?',
    ],
    ['numbers', 'roi', 'analytical'],
  ),
  c(
    'intro-hiring-signal',
    'Growth signal',
    'Reacts to a visible sign of growth (new office, hiring, funding).',
    'Congratulations on the growth at {{ company | default: "your company" }}',
    [
      'It looks like {{ company | default: "your company" }} is growing — congratulations. Growth usually brings a new challenge: keeping the sales pipeline full while the team catches up.',
      'We help fast-growing teams with [[edit: what you offer growing companies]], without adding headcount.',
      'Would a short call next week be useful?',
    ],
    ['trigger', 'growth', 'funding'],
  ),
  c(
    'intro-plain-offer',
    'Plain offer with a trial',
    'States the offer and a risk-free way to try it.',
    'Try it free for {{ company | default: "your team" }}',
    [
      'We [[edit: what you offer, in one line]].',
      '[[edit: your trial offer, e.g. you can try it free for 14 days, no card needed]], so you can judge it before you decide anything.',
      'Would you like me to set up an account for you and walk you through it?',
    ],
    ['trial', 'offer'],
  ),
];
