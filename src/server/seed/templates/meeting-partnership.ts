import { email, type SeedTemplate } from './template-helpers';

type Args = Parameters<typeof email> extends [unknown, ...infer Rest] ? Rest : never;
const m = (...args: Args) => email('meeting-request', ...args);
const p = (...args: Args) => email('partnership', ...args);

export const MEETING_REQUEST_TEMPLATES: SeedTemplate[] = [
  m(
    'meeting-15-minutes',
    '15-minute call',
    'A clear, time-boxed meeting request with two options.',
    '15 minutes next week?',
    [
      'Would you have 15 minutes next week for a quick call? I’d like to understand how {{ company | default: "your team" }} finds new customers today and share two ideas that have worked for similar businesses.',
      'Does Tuesday at 10am or Thursday at 3pm (your time) work? If not, suggest any time that suits you.',
    ],
    ['call', 'time options'],
  ),
  m(
    'meeting-in-person',
    'Meet in person',
    'Proposes a face-to-face meeting when you are in the prospect’s city.',
    'In {{ city | default: "your city" }} next week — coffee?',
    [
      'I’ll be in {{ city | default: "your city" }} next week and would love to meet in person if you have half an hour.',
      'I can come to your office or meet somewhere convenient near you. Would Wednesday or Thursday morning work?',
    ],
    ['in person', 'travel'],
  ),
  m(
    'meeting-demo',
    'Product demo',
    'Offers a short, tailored demo.',
    'A 20-minute demo for {{ company | default: "your team" }}?',
    [
      'I’d like to show you a short demo tailored to {{ company | default: "your business" }} — only the parts that matter to you, in 20 minutes.',
      'You will see [[edit: what the demo shows, in one line]].',
      'When would be a good time this week?',
    ],
    ['demo', 'product'],
  ),
  m(
    'meeting-decision-maker',
    'Meeting with the decision maker',
    'Asks a contact to bring the decision maker into a call.',
    'Bringing the right people together',
    [
      'Thank you for your interest so far. To make the next conversation worthwhile, it may help to include whoever signs off on new tools or suppliers at {{ company | default: "your company" }}.',
      'Would a 30-minute call with both of you next week be possible? I’ll send a short agenda in advance.',
    ],
    ['stakeholders', 'enterprise'],
  ),
  m(
    'meeting-reschedule',
    'Reschedule request',
    'Politely moves a meeting you can no longer attend.',
    'Could we move our meeting?',
    [
      'I’m sorry, but something urgent has come up and I can no longer make our meeting as planned.',
      'Could we move it to later this week? I’m free on Thursday morning or Friday afternoon. Apologies for the inconvenience.',
    ],
    ['reschedule', 'apology'],
  ),
  m(
    'meeting-confirmation',
    'Meeting confirmation',
    'Confirms the time, place and agenda of an agreed meeting.',
    'Confirmed: our meeting',
    [
      'Thank you for making time. I’m confirming our meeting as agreed.',
      '<strong>Agenda:</strong><br>1. Your goals for the next quarter<br>2. How we have helped similar companies<br>3. Next steps, if it makes sense',
      'If anything changes, just reply to this email.',
    ],
    ['confirmation', 'agenda'],
  ),
  m(
    'meeting-quarterly-review',
    'Quarterly review',
    'Invites an existing client to a results review.',
    'Time for our quarterly review?',
    [
      'It has been three months since we started working together, and I’d like to review the results with you: what worked, what didn’t, and what we should change next quarter.',
      'Could we find 45 minutes in the next two weeks?',
    ],
    ['customer success', 'review'],
  ),
  m(
    'meeting-advice',
    'Ask for advice',
    'Requests a short call to learn from an expert — no pitch.',
    'Would value your advice',
    [
      'I’ve followed {{ company | default: "your company" }}’s work for a while, and you clearly know your market well.',
      'We are considering expanding into your sector and I’d value 20 minutes of your advice — no sales pitch, I promise. Happy to return the favour in any way I can.',
    ],
    ['advice', 'networking'],
  ),
  m(
    'meeting-virtual-coffee',
    'Virtual coffee',
    'A relaxed invitation to a short video call.',
    'Virtual coffee, {{ firstName | default: "there" }}?',
    [
      'We work in neighbouring spaces and I think there could be a good reason for us to know each other.',
      'Would you be up for a relaxed 20-minute video call sometime in the next two weeks?',
    ],
    ['informal', 'video call'],
  ),
  m(
    'meeting-site-visit',
    'Site visit',
    'Invites a prospect to visit your office, farm, warehouse or factory.',
    'Come and see how we work',
    [
      'The best way to judge a supplier is to see how they work. I’d like to invite you to visit our site and meet the team.',
      'We can arrange a short tour and lunch at a time that suits you. Would any day next week work for {{ company | default: "your team" }}?',
    ],
    ['site visit', 'supplier', 'manufacturing'],
  ),
];

export const PARTNERSHIP_TEMPLATES: SeedTemplate[] = [
  p(
    'partnership-referral',
    'Referral partnership',
    'Proposes sending each other customers who are a good fit.',
    'Referral partnership with {{ company | default: "your company" }}?',
    [
      'We serve many of the same customers as {{ company | default: "your company" }}, but we don’t compete — our services sit side by side.',
      'I’d like to explore a simple referral arrangement: when one of our customers needs what you do, we introduce them to you, and the other way round. We can agree a referral fee if that helps.',
      'Would you be open to a short call to discuss?',
    ],
    ['referral', 'channel'],
  ),
  p(
    'partnership-reseller',
    'Reseller / distributor',
    'Invites a company to resell or distribute your product in their market.',
    'Distributing our products in {{ country | default: "your market" }}',
    [
      'We are looking for a trusted distribution partner in {{ country | default: "your market" }}, and {{ company | default: "your company" }} came up repeatedly as a respected name.',
      'Our partners get competitive margins, marketing support and exclusive territory where it makes sense.',
      'Could I send you our partner pack and arrange a call?',
    ],
    ['distribution', 'reseller'],
  ),
  p(
    'partnership-integration',
    'Product integration',
    'For software companies proposing an integration.',
    'Integrating our products',
    [
      'Several of our customers also use {{ company | default: "your product" }} and have asked whether the two could work together.',
      'We’d like to build an integration that moves data between them automatically. It would make both products more useful to our shared customers.',
      'Who would be the right person to speak with about this?',
    ],
    ['software', 'integration', 'api'],
  ),
  p(
    'partnership-co-marketing',
    'Co-marketing',
    'Proposes a joint webinar, report or campaign.',
    'A joint webinar for our audiences?',
    [
      'Our audiences overlap a lot, so I’d like to propose a joint webinar on growing sales across African markets. We each bring a speaker and invite our customers.',
      'It costs little, doubles the reach of both brands and gives our customers something genuinely useful.',
      'Interested? I can send a one-page outline.',
    ],
    ['co-marketing', 'webinar'],
  ),
  p(
    'partnership-agency',
    'Agency partnership',
    'Invites an agency to use your platform for their clients.',
    'A partner programme for agencies like {{ company | default: "yours" }}',
    [
      'Agencies that work for many clients tell us the hard part is [[edit: the problem agencies have that you solve]].',
      'Our partner programme gives agencies [[edit: what partners get, e.g. discounted plans]].',
      'Would {{ company | default: "your agency" }} like to try it with one client first?',
    ],
    ['agency', 'white label'],
  ),
  p(
    'partnership-sponsorship',
    'Sponsorship request',
    'Asks a company to sponsor an event or community programme.',
    'Sponsorship opportunity',
    [
      'We are organising a community programme that brings together small business owners in {{ city | default: "your city" }} for practical training and networking.',
      'Given {{ company | default: "your company" }}’s commitment to local businesses, we thought you might like to be a sponsor. Sponsors get [[edit: what sponsors get, e.g. a speaking slot and the number of guests you expect]].',
      'May I send you the sponsorship deck?',
    ],
    ['sponsorship', 'community'],
  ),
  p(
    'partnership-supplier',
    'Become a supplier',
    'Introduces your company as a supplier to a larger buyer.',
    'Supplier introduction: reliable local sourcing',
    [
      'We are a supplier of [[edit: what you supply]] based in [[edit: your city and country]], and we would like to be considered for {{ company | default: "your company" }}’s approved supplier list.',
      'We deliver on time, invoice clearly and can provide references from current corporate clients.',
      'Could you tell me how your vendor registration works, or who handles procurement?',
    ],
    ['procurement', 'supplier', 'vendor'],
  ),
  p(
    'partnership-ngo',
    'NGO or development partner',
    'Reaches out to a development organisation about a joint programme.',
    'Working together on small-business growth',
    [
      'We admire the work {{ company | default: "your organisation" }} does to support small businesses.',
      'We [[edit: what you offer small businesses]], and we would like to offer it to the businesses in your programmes at a reduced cost.',
      'Could we explore this together in a short call?',
    ],
    ['ngo', 'development', 'impact'],
  ),
  p(
    'partnership-affiliate',
    'Affiliate invitation',
    'Invites a creator or consultant to earn commission by recommending you.',
    'Earn by recommending a tool you already like',
    [
      'You often advise businesses on sales and marketing, so I thought you might be interested in our affiliate programme.',
      'You earn [[edit: your commission, e.g. a 20% recurring commission]] for every customer you refer. [[edit: what affiliates get and how they are paid]].',
      'Shall I send you your link?',
    ],
    ['affiliate', 'consultant'],
  ),
  p(
    'partnership-follow-up',
    'Partnership follow-up',
    'A follow-up after an initial partnership conversation.',
    'Next steps on our partnership',
    [
      'Thank you for the productive conversation about working together.',
      'As a next step, I suggest we agree a small pilot: one joint campaign over the next 30 days, with clear goals we review together at the end.',
      'I’ll send a short draft this week. Does that sound reasonable?',
    ],
    ['pilot', 'next steps'],
  ),
];
