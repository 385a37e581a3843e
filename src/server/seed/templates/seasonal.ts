import { email, type SeedTemplate } from './template-helpers';

const s = (...args: Parameters<typeof email> extends [unknown, ...infer Rest] ? Rest : never) =>
  email('seasonal', ...args);

const WARM = 'Warm regards,<br>{{ senderName }}';

export const SEASONAL_TEMPLATES: SeedTemplate[] = [
  s(
    'seasonal-new-year',
    'Happy New Year',
    'A New Year greeting that looks ahead without a hard sell.',
    'Happy New Year from all of us',
    [
      'Happy New Year! Thank you for being part of our story last year.',
      'We hope the year ahead brings growth, good health and new opportunities to you and everyone at {{ company | default: "your company" }}.',
      'We are planning a few things we think you will like — more on that soon.',
    ],
    ['new year', 'january', 'greeting'],
    { signOff: WARM },
  ),
  s(
    'seasonal-back-to-business',
    'Back to business in January',
    'A January prospecting email tied to annual planning.',
    'Is {{ company | default: "your team" }}’s sales plan ready for the year?',
    [
      'January is when most teams set their targets for the year — and when the pipeline looks emptiest.',
      'We help companies [[edit: what you offer at the start of the year]], so February starts with meetings in the diary.',
      'Would a short call this month be useful?',
    ],
    ['january', 'planning', 'prospecting'],
  ),
  s(
    'seasonal-ramadan-kareem',
    'Ramadan Kareem',
    'A respectful Ramadan greeting for clients and partners.',
    'Ramadan Kareem',
    [
      'As the holy month of Ramadan begins, we send our warmest wishes to you, your family and the team at {{ company | default: "your company" }}.',
      'May this month bring peace, reflection and blessings. We will keep our communication light during this period — do reach out whenever you need us.',
    ],
    ['ramadan', 'islamic', 'greeting'],
    { signOff: WARM },
  ),
  s(
    'seasonal-eid-al-fitr',
    'Eid al-Fitr greetings',
    'Eid Mubarak wishes at the end of Ramadan.',
    'Eid Mubarak, {{ firstName | default: "friend" }}',
    [
      'Eid Mubarak! As Ramadan comes to a close, we wish you and your loved ones joy, peace and prosperity.',
      'Thank you for your trust and partnership. We look forward to continuing our work together after the celebrations.',
    ],
    ['eid', 'sallah', 'islamic', 'greeting'],
    { signOff: WARM },
  ),
  s(
    'seasonal-eid-al-adha',
    'Eid al-Adha (Sallah) greetings',
    'Greetings for Eid al-Adha, widely celebrated across West and East Africa.',
    'Happy Eid al-Adha',
    [
      'On the occasion of Eid al-Adha, we send our best wishes to you and your family.',
      'May the celebrations bring happiness and blessings, and may the months ahead be good to {{ company | default: "your business" }}.',
    ],
    ['eid', 'sallah', 'greeting'],
    { signOff: WARM },
  ),
  s(
    'seasonal-easter',
    'Happy Easter',
    'A short Easter greeting for clients.',
    'Happy Easter from our team',
    [
      'Wishing you and your loved ones a peaceful and joyful Easter.',
      'We hope you get some well-deserved rest over the long weekend. Our team will be back on Tuesday, ready to help.',
    ],
    ['easter', 'greeting', 'holiday'],
    { signOff: WARM },
  ),
  s(
    'seasonal-christmas',
    'Season’s greetings',
    'An inclusive end-of-year holiday greeting.',
    'Season’s greetings from our team',
    [
      'As the year comes to an end, we want to thank you for your support and partnership.',
      'Wishing you a merry Christmas, happy holidays and a restful break with your family. We look forward to achieving even more together in the new year.',
    ],
    ['christmas', 'december', 'greeting'],
    { signOff: WARM },
  ),
  s(
    'seasonal-year-end-thank-you',
    'Year-end thank you to customers',
    'Thanks customers and shares a short year in review.',
    'Thank you for an incredible year',
    [
      'Before the year closes, we wanted to say a simple thank you. Working with {{ company | default: "you" }} has been a highlight.',
      '[[edit: what your company achieved this year, in one or two true sentences]].',
      'Our offices close for the holidays from [[edit: closing date]] and reopen on [[edit: reopening date]].',
    ],
    ['year end', 'customers', 'thank you'],
    { signOff: WARM },
  ),
  s(
    'seasonal-nigeria-independence',
    'Nigeria Independence Day (1 October)',
    'Celebrates Nigeria’s Independence Day with clients and partners.',
    'Happy Independence Day, Nigeria!',
    [
      'Happy Independence Day! Today we celebrate Nigeria — its people, its energy and the businesses like {{ company | default: "yours" }} that keep it moving.',
      'We are proud to build alongside you, and we look forward to the years of growth ahead.',
    ],
    ['nigeria', 'independence', 'october'],
    { signOff: WARM },
  ),
  s(
    'seasonal-nigeria-democracy-day',
    'Nigeria Democracy Day (12 June)',
    'A short, non-political note for Democracy Day.',
    'Happy Democracy Day',
    [
      'Happy Democracy Day! We hope you enjoy the public holiday with family and friends.',
      'Our support team is on a reduced schedule today and will be back fully tomorrow. Thank you for being part of our community.',
    ],
    ['nigeria', 'june 12', 'holiday notice'],
    { signOff: WARM },
  ),
  s(
    'seasonal-ghana-independence',
    'Ghana Independence Day (6 March)',
    'Celebrates Ghana’s Independence Day.',
    'Happy Independence Day, Ghana!',
    [
      'Ayekoo! Happy Independence Day to you and everyone at {{ company | default: "your company" }}.',
      'Ghana was the first sub-Saharan African country to gain independence, and its businesses continue to lead the way. It is a privilege to work with you.',
    ],
    ['ghana', 'independence', 'march'],
    { signOff: WARM },
  ),
  s(
    'seasonal-kenya-jamhuri-day',
    'Kenya Jamhuri Day (12 December)',
    'Celebrates Kenya’s Jamhuri (Republic) Day.',
    'Happy Jamhuri Day!',
    [
      'Happy Jamhuri Day! On this day of national pride, we celebrate Kenya and the businesses that drive it forward.',
      'Thank you for working with us this year. We wish you a joyful holiday and a strong finish to the year.',
    ],
    ['kenya', 'jamhuri', 'december'],
    { signOff: WARM },
  ),
  s(
    'seasonal-south-africa-freedom-day',
    'South Africa Freedom Day (27 April)',
    'Marks Freedom Day with South African clients.',
    'Happy Freedom Day',
    [
      'Happy Freedom Day! Today we celebrate South Africa’s first democratic elections and the freedoms that followed.',
      'We are grateful for our partners in South Africa, including {{ company | default: "you" }}, and wish you a restful public holiday.',
    ],
    ['south africa', 'freedom day', 'april'],
    { signOff: WARM },
  ),
  s(
    'seasonal-south-africa-heritage-day',
    'South Africa Heritage Day (24 September)',
    'A light-hearted Heritage Day note — braai optional.',
    'Happy Heritage Day!',
    [
      'Happy Heritage Day! Whether you are celebrating with a braai, family or a quiet day off, we hope it is a good one.',
      'South Africa’s diversity is its strength — and it is the same in business. Thank you for being part of ours.',
    ],
    ['south africa', 'heritage day', 'september'],
    { signOff: WARM },
  ),
  s(
    'seasonal-africa-day',
    'Africa Day (25 May)',
    'Celebrates Africa Day and pan-African business.',
    'Happy Africa Day',
    [
      'Happy Africa Day! Today we celebrate a continent of 54 countries, thousands of languages and millions of entrepreneurs.',
      'With the African Continental Free Trade Area opening new markets, there has never been a better time to sell across borders. If {{ company | default: "your company" }} is looking beyond {{ country | default: "home" }}, we would love to help.',
    ],
    ['africa day', 'afcfta', 'pan-african'],
    { signOff: WARM },
  ),
  s(
    'seasonal-black-friday',
    'Black Friday offer',
    'A clear, honest Black Friday offer for B2B customers.',
    'Our biggest offer of the year (ends Monday)',
    [
      'For Black Friday we are offering [[edit: your offer, e.g. 40% off annual plans]].',
      'If you have been thinking about it for {{ company | default: "your business" }}, this is the cheapest way to start. The offer ends on [[edit: the end date and time]].',
      'Reply to this email if you have any questions.',
    ],
    ['black friday', 'november', 'offer'],
  ),
  s(
    'seasonal-mid-year-check-in',
    'Mid-year check-in',
    'A natural reason to reconnect at the half-year mark.',
    'Halfway through the year already',
    [
      'We are halfway through the year — a good moment to check progress against the goals you set in January.',
      'If sales targets at {{ company | default: "your company" }} need a push in the second half, I have a few ideas that work well in the quieter months. Shall I share them?',
    ],
    ['mid-year', 'june', 'july'],
  ),
];
