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
      'I work with companies like {{ company | default: "yours" }} that want more qualified sales conversations without hiring a bigger team.',
      'We usually help clients book 10–15 extra meetings a month within the first quarter.',
      'Is growing the pipeline a priority for you this quarter, or should I check back later?',
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
      'We built a tool that matches incoming payments to invoices automatically and sends polite reminders for you. Teams using it close their books days earlier.',
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
      'We already work with several businesses in {{ city | default: "your area" }}, and one theme keeps coming up: customers are harder to reach than they were two years ago.',
      'We help teams like {{ company | default: "yours" }} find and reach the right buyers directly, with verified contacts and simple email outreach.',
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
    'How a {{ country | default: "local" }} distributor doubled its reorders',
    [
      'A distributor we work with was losing repeat customers because nobody followed up after the first order.',
      'We set up a simple reorder reminder sequence for them. Six months later, repeat orders had doubled.',
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
      'We help {{ country | default: "African" }} businesses like {{ company | default: "yours" }} find verified buyers and reach them by email — would a 10-minute call this week be worth your time?',
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
      'I ask because we help sales teams add a fourth reliable channel: verified business contacts across Africa, reached with personalised email sequences.',
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
      'We solved a problem I suspect {{ company | default: "your company" }} has too: spending too much time finding the right people to sell to.',
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
      'We help teams find verified leads and run simple email campaigns that bring in meetings.',
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
      'We put together a short guide on how B2B companies in Nigeria, Ghana and Kenya are finding customers this year — what works, what has stopped working, and what it costs.',
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
      'We give teams like {{ company | default: "yours" }} verified business contacts in 70+ countries, so the first months in a new market are spent selling instead of searching.',
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
      'Nos clients obtiennent en moyenne 10 à 15 rendez-vous qualifiés de plus par mois.',
      'Est-ce un sujet prioritaire pour vous ce trimestre ? Un appel de 15 minutes vous conviendrait-il ?',
    ],
    ['french', 'francophone', 'senegal', 'cote d’ivoire'],
    {
      greeting: 'Bonjour {{ firstName | default: "" }},',
      signOff: 'Bien cordialement,<br>{{ senderName }}',
    },
  ),
  c(
    'intro-roi-numbers',
    'Numbers first',
    'For analytical buyers: concrete figures, no fluff.',
    '3 numbers for {{ company | default: "your team" }}',
    [
      'Three numbers from our customers last quarter: 42% average open rate, 6% reply rate, and a cost per meeting under ₦8,000.',
      'Those come from sending fewer, better-targeted emails to verified contacts — not from blasting lists.',
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
      'We help fast-growing teams keep a steady flow of qualified leads without adding headcount.',
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
      'We help businesses find verified B2B contacts and reach them with personalised email campaigns.',
      'You can try it free — no card needed — and see the contacts available in {{ country | default: "your country" }} before you decide anything.',
      'Would you like me to set up an account for you and walk you through it?',
    ],
    ['trial', 'offer'],
  ),
];
