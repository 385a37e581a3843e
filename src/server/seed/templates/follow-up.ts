import { email, type SeedTemplate } from './template-helpers';

const f = (...args: Parameters<typeof email> extends [unknown, ...infer Rest] ? Rest : never) =>
  email('follow-up', ...args);

export const FOLLOW_UP_TEMPLATES: SeedTemplate[] = [
  f(
    'follow-up-gentle-bump',
    'Gentle bump',
    'A two-line nudge to send a few days after the first email.',
    'Re: quick question',
    [
      'Just bringing my last note back to the top of your inbox in case it got buried.',
      'Is finding new customers something {{ company | default: "your team" }} is working on right now?',
    ],
    ['bump', 'short', 'step 2'],
  ),
  f(
    'follow-up-added-value',
    'Follow-up with a useful idea',
    'Adds something new instead of just “checking in”.',
    'One more idea for {{ company | default: "you" }}',
    [
      'Since my last email I had another thought: many companies in {{ city | default: "your city" }} get their best results by contacting past customers before chasing new ones.',
      'If you like, I can show you how [[edit: how you would help them do it]].',
      'Worth a quick call?',
    ],
    ['value', 'step 2'],
  ),
  f(
    'follow-up-case-study',
    'Follow-up with a result',
    'Shares a short customer story as the second touch.',
    'What happened at a company like {{ company | default: "yours" }}',
    [
      '[[edit: a real customer who was in a similar position to {{ company | default: "yours" }}]].',
      '[[edit: what changed for them, with figures you can show]].',
      'Happy to share exactly how they did it if it is useful.',
    ],
    ['case study', 'step 2'],
  ),
  f(
    'follow-up-breakup',
    'Polite last email',
    'The final step: closes the loop politely and often gets the most replies.',
    'Should I close your file?',
    [
      'I haven’t heard back, so I’ll assume the timing isn’t right — completely understandable.',
      'I’ll stop emailing after this one. If things change, just reply to this email and I’ll pick it up.',
      'Wishing you and the team at {{ company | default: "your company" }} a great quarter.',
    ],
    ['breakup', 'last step'],
  ),
  f(
    'follow-up-after-call',
    'After a call',
    'Recap and next steps after a first conversation.',
    'Thank you for your time today',
    [
      'Thank you for the conversation today. As promised, here is a short summary:',
      '<strong>What you told us:</strong> you want more qualified leads without growing the sales team.<br><strong>What we suggested:</strong> a three-step campaign to a targeted list, reviewed together after two weeks.<br><strong>Next step:</strong> I’ll send a draft plan by Friday.',
      'If I missed anything, just reply and let me know.',
    ],
    ['after call', 'recap', 'next steps'],
  ),
  f(
    'follow-up-after-meeting-proposal',
    'Proposal follow-up',
    'Checks in on a proposal that was sent but not answered.',
    'Any questions about the proposal?',
    [
      'I wanted to check whether you had a chance to look at the proposal I sent last week.',
      'If anything is unclear or the scope needs adjusting for {{ company | default: "your team" }}, I’m glad to change it. Sometimes a 10-minute call is quicker than email.',
      'What would be a good next step from your side?',
    ],
    ['proposal', 'sales'],
  ),
  f(
    'follow-up-after-event',
    'After an event',
    'Follows up with someone you met at a conference or trade fair.',
    'Great meeting you, {{ firstName | default: "there" }}',
    [
      'It was good to meet you at the event last week. I enjoyed hearing about what {{ company | default: "your team" }} is working on.',
      'As I mentioned, we help companies with [[edit: what you offer, in one line]]. I’d be happy to show you how it could work for you.',
      'Would Tuesday or Thursday afternoon suit you for a short call?',
    ],
    ['event', 'trade fair', 'networking'],
  ),
  f(
    'follow-up-no-show',
    'Missed meeting',
    'A friendly note after a prospect missed a scheduled call.',
    'Sorry we missed each other',
    [
      'We had a call scheduled today but I think something came up — no problem at all, it happens.',
      'Would you like to pick another time this week or next? Just reply with what works for you.',
    ],
    ['no-show', 'reschedule'],
  ),
  f(
    'follow-up-different-angle',
    'Different angle',
    'Tries a new benefit in case the first one did not land.',
    'A different way to look at it',
    [
      'My first email was about finding new customers. Perhaps that isn’t your biggest challenge right now.',
      'Some of our clients use us for something else entirely: [[edit: a second way customers use you]].',
      'Would either of those be useful for {{ company | default: "your business" }}?',
    ],
    ['angle', 'newsletter', 'step 3'],
  ),
  f(
    'follow-up-quick-yes-no',
    'Yes or no',
    'Makes replying as easy as possible.',
    'Yes or no, {{ firstName | default: "there" }}?',
    [
      'To save you time, a one-word reply is perfect:',
      '<strong>Yes</strong> — let’s talk this week.<br><strong>Later</strong> — check back next quarter.<br><strong>No</strong> — not interested, thanks.',
    ],
    ['easy reply', 'short'],
  ),
  f(
    'follow-up-after-quote',
    'Quotation follow-up',
    'For suppliers following up on a price quotation.',
    'Following up on our quotation',
    [
      'I’m following up on the quotation we sent to {{ company | default: "your team" }}.',
      'Prices are valid for 14 days, and we can deliver within a week of confirmation. If the quantities or delivery terms need changing, I can send a revised quote today.',
      'Please let me know if you have any questions.',
    ],
    ['quotation', 'supplier', 'procurement'],
  ),
  f(
    'follow-up-after-download',
    'After a download or sign-up',
    'Follows up with someone who downloaded a guide or signed up.',
    'Did the guide help?',
    [
      'Thanks for downloading our guide. I hope it was useful.',
      'Many readers ask how to apply the ideas to their own business. If you’d like, I can spend 15 minutes looking at {{ company | default: "your situation" }} and suggest a first step.',
    ],
    ['content', 'inbound', 'nurture'],
  ),
  f(
    'follow-up-still-relevant',
    'Is this still relevant?',
    'A light check-in for an older conversation that went quiet.',
    'Is this still on your list?',
    [
      'We spoke a while ago about helping {{ company | default: "your team" }} reach more customers. I didn’t want to assume it had dropped off your list.',
      'Is it still relevant, or has the situation changed?',
    ],
    ['check-in', 'stale deal'],
  ),
];
