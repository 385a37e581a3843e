import { email, type SeedTemplate } from './template-helpers';

type Args = Parameters<typeof email> extends [unknown, ...infer Rest] ? Rest : never;
const e = (...args: Args) => email('event-invitation', ...args);
const r = (...args: Args) => email('re-engagement', ...args);

export const EVENT_INVITATION_TEMPLATES: SeedTemplate[] = [
  e(
    'event-webinar-invite',
    'Webinar invitation',
    'Invites prospects to a free online session. Fill in the topic, date and time before sending.',
    'You’re invited: a free webinar for {{ company | default: "your team" }}',
    [
      '{{ senderCompany | default: "Our team" }} is hosting a free 45-minute webinar on [[edit: the topic]], and I’d love for you to join.',
      '<strong>When:</strong> [[edit: date and time, with the time zone]]<br><strong>Where:</strong> online — the link follows when you register<br><strong>Who should attend:</strong> founders, sales and marketing leads',
      'Reply “count me in” and I’ll save you a seat.',
    ],
    ['webinar', 'online'],
  ),
  e(
    'event-breakfast-briefing',
    'Breakfast briefing',
    'An invitation to a small in-person breakfast for senior decision makers.',
    'An invitation to a breakfast briefing',
    [
      'We are hosting a small breakfast for business leaders in [[edit: the city and venue]] to discuss [[edit: the topic]].',
      'It is limited to 20 guests, with no sales pitches — just good conversation and a short talk from a local founder.',
      'Would you like to join us? Reply and I’ll send the details.',
    ],
    ['breakfast', 'executive', 'in person'],
  ),
  e(
    'event-trade-fair-stand',
    'Visit our stand',
    'Invites contacts to visit your stand at a trade fair or expo.',
    'Visit us at the trade fair',
    [
      '{{ senderCompany | default: "Our team" }} will be exhibiting at the upcoming trade fair, and we would be delighted to welcome you at our stand.',
      'Come and see our latest products, meet the team and enjoy a special show discount. If you let me know when you plan to visit, I’ll make sure someone is there to meet you personally.',
    ],
    ['trade fair', 'expo', 'exhibition'],
  ),
  e(
    'event-product-launch',
    'Product launch',
    'Announces a launch event for a new product or service.',
    'Join us for our launch',
    [
      'After months of work, we are launching something we believe will help businesses like {{ company | default: "yours" }}, and we would be honoured to have you there.',
      'Expect a short presentation, a live demo and time to meet the team over refreshments.',
      'Please reply to confirm your attendance so we can plan seating.',
    ],
    ['launch', 'product'],
  ),
  e(
    'event-workshop',
    'Hands-on workshop',
    'Invites contacts to a practical training workshop.',
    'An invitation to a free, hands-on workshop',
    [
      '{{ senderCompany | default: "Our team" }} is running a free, hands-on workshop where you will [[edit: what participants will do or learn]] with us beside you.',
      '[[edit: date, time and place, or how to join online]].',
      'Places are limited to 15 people. Would you like one?',
    ],
    ['workshop', 'training'],
  ),
  e(
    'event-rsvp-reminder',
    'RSVP reminder',
    'Reminds invitees who have not yet replied.',
    'Reminder: will you join us?',
    [
      'A quick reminder about our event — we haven’t received your reply yet and would love to see you there.',
      'If you can make it, just reply “yes”. If not, no problem at all; we’ll share the highlights afterwards.',
    ],
    ['rsvp', 'reminder'],
  ),
  e(
    'event-day-before',
    'See you tomorrow',
    'A practical reminder the day before an event.',
    'See you tomorrow, {{ firstName | default: "there" }}',
    [
      'We are looking forward to seeing you tomorrow. A few practical details:',
      '<strong>Arrival:</strong> please arrive 15 minutes early for registration.<br><strong>Parking:</strong> available on site.<br><strong>Contact on the day:</strong> reply to this email and we’ll get back to you quickly.',
    ],
    ['reminder', 'logistics'],
  ),
  e(
    'event-thank-you',
    'Thank you for attending',
    'A follow-up after an event with resources and a next step.',
    'Thank you for joining us',
    [
      'Thank you for attending — it was great to have you with us.',
      'As promised, we’ll share the slides and recording shortly. If you would like to discuss how any of the ideas apply to {{ company | default: "your business" }}, just reply and we can set up a call.',
    ],
    ['post-event', 'thank you'],
  ),
  e(
    'event-sorry-we-missed-you',
    'Sorry we missed you',
    'For registrants who did not attend.',
    'Sorry we missed you — here’s the recording',
    [
      'We missed you at the session, but we know how busy things get.',
      'The recording is available on request — just reply to this email and we’ll send it. Most people find the last ten minutes, with the practical checklist, the most useful.',
    ],
    ['no-show', 'recording'],
  ),
  e(
    'event-customer-appreciation',
    'Customer appreciation evening',
    'Invites existing customers to a thank-you gathering.',
    'An evening to say thank you',
    [
      'Our customers are the reason we exist, and we would like to say thank you properly.',
      'Please join us for a relaxed evening of food, music and conversation with other business owners we work with. You are welcome to bring a colleague.',
      'Kindly reply to let us know if you can come.',
    ],
    ['customers', 'appreciation', 'networking'],
  ),
];

export const RE_ENGAGEMENT_TEMPLATES: SeedTemplate[] = [
  r(
    're-engagement-we-miss-you',
    'We miss you',
    'A warm note to a customer who has gone quiet.',
    'It’s been a while, {{ firstName | default: "friend" }}',
    [
      'We noticed it has been a while since we last heard from {{ company | default: "you" }}, and we wanted to check in.',
      'Has anything changed on your side? If there is something we could do better, I’d genuinely like to know.',
    ],
    ['win-back', 'customers'],
  ),
  r(
    're-engagement-whats-new',
    'What’s new since we last spoke',
    'Reconnects by sharing meaningful improvements.',
    'A lot has changed since we last spoke',
    [
      'When we last spoke, the timing wasn’t right for {{ company | default: "your team" }}. Since then we have added a few things you asked about:',
      '• [[edit: the first improvement]]<br>• [[edit: the second improvement]]<br>• [[edit: the third improvement]]',
      'Would it be worth another look?',
    ],
    ['product update', 'lost deal'],
  ),
  r(
    're-engagement-special-offer',
    'Come-back offer',
    'Offers a time-limited incentive to return.',
    'A special offer to welcome you back',
    [
      'We would love to have {{ company | default: "you" }} back, so here is something to make it easier: [[edit: your offer and its end date, e.g. 30% off your first three months if you restart before the end of the month]].',
      'Just reply to this email and I’ll apply it to your account.',
    ],
    ['offer', 'discount', 'win-back'],
  ),
  r(
    're-engagement-permission',
    'Keep in touch?',
    'A permission check that cleans your list and revives interest.',
    'Should we keep in touch?',
    [
      'We want to send you only what you find useful, so a quick question: would you like to keep hearing from us?',
      'If yes, simply reply “yes”. If not, no hard feelings — you can unsubscribe with the link below and we won’t email you again.',
    ],
    ['list hygiene', 'permission'],
  ),
  r(
    're-engagement-feedback',
    'Honest feedback',
    'Asks a former customer why they left.',
    'Can I ask for two minutes of feedback?',
    [
      'You used our service for a while and then stopped. I’m not writing to sell you anything — I’d just like to understand why.',
      'Was it price, results, timing, or something we did wrong? Even a one-line reply would help us improve.',
    ],
    ['feedback', 'churn'],
  ),
  r(
    're-engagement-old-lead',
    'Old lead revival',
    'Revives a prospect who showed interest months ago.',
    'Picking up where we left off',
    [
      'A few months ago you showed interest in how we could help {{ company | default: "your team" }} grow, but we never quite got started.',
      'Is this a better time? If so, I can prepare a short plan specific to your market before we speak.',
    ],
    ['old lead', 'revival'],
  ),
  r(
    're-engagement-new-year-plan',
    'New quarter, fresh start',
    'Uses the start of a quarter as a natural reason to reconnect.',
    'Planning for the new quarter?',
    [
      'The start of a new quarter is a good moment to look at what is working in sales and what isn’t.',
      'If growing {{ company | default: "your business" }}’s pipeline is on the plan, I’d be glad to share what similar companies are doing this quarter.',
    ],
    ['quarter', 'planning'],
  ),
  r(
    're-engagement-inactive-subscriber',
    'Inactive newsletter reader',
    'For newsletter subscribers who stopped opening.',
    'Are we still useful to you?',
    [
      'We noticed you haven’t opened our recent newsletters. That’s fine — inboxes are busy.',
      'We’d rather send less than send what isn’t useful. Reply and tell us what topics you care about, and we’ll adjust what we send you.',
    ],
    ['newsletter', 'inactive'],
  ),
  r(
    're-engagement-account-dormant',
    'Dormant account',
    'Reminds a user of an account they have not used.',
    'Your account is waiting for you',
    [
      'Your account is still active, but it looks like you haven’t used it in a while.',
      'If you got stuck somewhere, I’d be happy to help you get set up in a 15-minute call.',
    ],
    ['saas', 'activation'],
  ),
  r(
    're-engagement-congrats-milestone',
    'Congratulations and catch-up',
    'Reconnects by congratulating a contact on news or a milestone.',
    'Congratulations, {{ firstName | default: "there" }}!',
    [
      'I saw the good news about {{ company | default: "your company" }} — congratulations to you and the team.',
      'It reminded me that we haven’t spoken in a while. If you are up for a catch-up, I’d love to hear how things are going.',
    ],
    ['milestone', 'relationship'],
  ),
];
