/*
 * The public product pages linked from the header and the footer's Platform group: one page
 * per capability, all drawn by routes/product-page.tsx from this content. Every claim here is something
 * the app does; keep it so when the product changes.
 */

export type ProductPath =
  | '/global-database'
  | '/business-leads'
  | '/custom-contact-lists'
  | '/email-campaigns'
  | '/email-newsletters'
  | '/bulk-emails'
  | '/analytics-reporting';

/** Which of the landing page's product mock-ups illustrates the page. */
export type ProductVisual = 'lead-search' | 'targeting' | 'campaign' | 'rotation' | 'analytics';

export type ProductIcon =
  | 'globe'
  | 'target'
  | 'upload'
  | 'send'
  | 'newspaper'
  | 'mail'
  | 'chart'
  | 'shield'
  | 'clock'
  | 'repeat'
  | 'sparkles'
  | 'users';

export interface ProductHighlight {
  icon: ProductIcon;
  title: string;
  body: string;
}

export interface ProductPage {
  /** The short name used in the features overview and the breadcrumb. */
  name: string;
  eyebrow: string;
  title: string;
  lede: string;
  visual: ProductVisual;
  highlights: ProductHighlight[];
  /** "How it works", in order. */
  steps: { title: string; body: string }[];
  /** Where the signed-in user does this in the app. */
  appPath: string;
  appLabel: string;
  /** Show the directory's live figure (real verified records) under the lede. */
  directoryFigure?: boolean;
}

export const PRODUCT_PAGES: Record<ProductPath, ProductPage> = {
  '/global-database': {
    name: 'Global Database',
    eyebrow: 'Global database',
    title: 'A business directory across Africa and beyond, verified with evidence',
    lede:
      'Business contacts in 90+ categories, each labelled with where it came from and, once checked, the date ' +
      'it was verified, so you start from companies that exist and addresses that receive mail.',
    visual: 'lead-search',
    highlights: [
      {
        icon: 'globe',
        title: 'Countries and cities',
        body: 'Nigeria, Ghana, Kenya, South Africa, Egypt and more: filter by country and city to match the markets you serve.',
      },
      {
        icon: 'target',
        title: '90+ categories',
        body: 'From logistics and manufacturing to healthcare and hospitality: pick the industries that buy from you.',
      },
      {
        icon: 'shield',
        title: 'Verified, with its source',
        body: 'Each contact carries its verification state and its source, and addresses that bounce or unsubscribe are never mailed again.',
      },
    ],
    steps: [
      { title: 'Choose markets', body: 'Filter by country, city, category and keyword.' },
      { title: 'See the audience', body: 'The count updates as you filter, before you spend a kobo.' },
      { title: 'Reach them', body: 'Save the audience to a list or send it straight to a campaign.' },
    ],
    appPath: '/lead-discovery',
    appLabel: 'Browse contacts',
    directoryFigure: true,
  },
  '/business-leads': {
    name: 'Business Leads',
    eyebrow: 'Lead discovery',
    title: 'Find the businesses that need what you sell',
    lede:
      'Search the directory by country, city, category and keyword, narrow to verified contacts with a phone ' +
      'or a website, and turn the result into a list or a campaign audience in one click.',
    visual: 'targeting',
    highlights: [
      {
        icon: 'target',
        title: 'Precise filters',
        body: 'Country, city, category and keyword, plus verified-only, has-phone and has-website.',
      },
      {
        icon: 'users',
        title: 'Saved audiences',
        body: 'Keep a search as a campaign audience: contacts who match when the campaign launches are the ones it reaches.',
      },
      {
        icon: 'shield',
        title: 'Consent where the law asks',
        body: 'Countries whose law requires prior consent for cold email are marked, and the pre-launch check warns you.',
      },
    ],
    steps: [
      { title: 'Search', body: 'Combine filters; results come back in milliseconds.' },
      {
        title: 'Add to a list',
        body: 'Pick contacts or the whole result and add them to one of your lists.',
      },
      { title: 'Start a campaign', body: 'Use the list or the saved search as the campaign audience.' },
    ],
    appPath: '/lead-discovery',
    appLabel: 'Find leads',
  },
  '/custom-contact-lists': {
    name: 'Custom Contact Lists',
    eyebrow: 'Your own contacts',
    title: 'Upload your lists and keep them clean',
    lede:
      'Bring your customers and warm leads as CSV files. Tambari maps the columns, checks every address, removes ' +
      'duplicates and keeps your custom fields for personalised emails.',
    visual: 'lead-search',
    highlights: [
      {
        icon: 'upload',
        title: 'Large imports',
        body: 'Upload CSV files with hundreds of thousands of rows; the import runs in the background and shows its progress.',
      },
      {
        icon: 'shield',
        title: 'Checked on the way in',
        body: 'Malformed addresses and duplicates are reported row by row, never silently dropped.',
      },
      {
        icon: 'sparkles',
        title: 'Custom fields',
        body: 'Every extra column becomes a merge tag, such as {{ fields.order_total }}, with a fallback when a value is missing.',
      },
    ],
    steps: [
      { title: 'Upload a CSV', body: 'Map its columns to contact fields or keep them as custom fields.' },
      { title: 'Review', body: 'See what was added, updated, skipped and why.' },
      { title: 'Send', body: 'Use the list in campaigns, newsletters and bulk emails.' },
    ],
    appPath: '/lead-discovery',
    appLabel: 'Upload a list',
  },
  '/email-campaigns': {
    name: 'Email Campaigns',
    eyebrow: 'Cold email campaigns',
    title: 'Multi-step campaigns that follow up for you',
    lede:
      'Write a sequence once: a first email and follow-ups with delays, conditions and A/B variants. Tambari sends ' +
      'each step inside your sending window in the recipient’s time zone, and stops when they reply.',
    visual: 'campaign',
    highlights: [
      {
        icon: 'mail',
        title: 'Follow-ups in the same thread',
        body: 'Leave a follow-up’s subject empty and it goes as a reply to your earlier email, from the same mailbox.',
      },
      {
        icon: 'repeat',
        title: 'Sender rotation',
        body: 'Connect several mailboxes: each message goes from the least used one, never past its daily cap.',
      },
      {
        icon: 'sparkles',
        title: 'Personal at scale',
        body: 'Merge tags with fallbacks, spintax and AI-assisted writing, with a preview for any contact.',
      },
      {
        icon: 'clock',
        title: 'A human pace',
        body: 'Sending days and hours, a random gap between emails and a per-domain pace.',
      },
      {
        icon: 'shield',
        title: 'Checked before launch',
        body: 'Unknown merge tags, broken or shortened links, spam words and your domain’s SPF, DKIM and DMARC.',
      },
      {
        icon: 'chart',
        title: 'A/B tests',
        body: 'Up to four variants per step, with the winner picked automatically by opens, clicks or replies.',
      },
    ],
    steps: [
      {
        title: 'Connect a mailbox',
        body: 'Your own SMTP and IMAP, tested live, with presets for common hosts.',
      },
      {
        title: 'Write the sequence',
        body: 'Steps, delays, conditions and variants, or start from a template.',
      },
      { title: 'Launch', body: 'Replies, bounces and unsubscribes are handled for you.' },
    ],
    appPath: '/campaigns',
    appLabel: 'Create a campaign',
  },
  '/email-newsletters': {
    name: 'Email Newsletters',
    eyebrow: 'Newsletters',
    title: 'Newsletters your customers look forward to',
    lede:
      'Design with blocks — headings, text, images, buttons, columns — preview on desktop and mobile, and send ' +
      'now or at a scheduled time to any of your lists.',
    visual: 'campaign',
    highlights: [
      {
        icon: 'newspaper',
        title: 'Block editor',
        body: 'Rearrange blocks, style them, and get email-safe HTML that renders in Gmail and Outlook.',
      },
      {
        icon: 'clock',
        title: 'Scheduled sends',
        body: 'Pick the date and time; the newsletter goes out through your connected mailboxes.',
      },
      {
        icon: 'shield',
        title: 'Compliant by default',
        body: 'Every issue carries your postal address and a one-click unsubscribe, honoured at once.',
      },
    ],
    steps: [
      { title: 'Design', body: 'Start from a template or a blank page.' },
      { title: 'Choose the lists', body: 'Unsubscribed and bounced addresses are left out automatically.' },
      { title: 'Send or schedule', body: 'Follow opens and clicks as they come in.' },
    ],
    appPath: '/newsletters',
    appLabel: 'Create a newsletter',
  },
  '/bulk-emails': {
    name: 'Bulk Emails',
    eyebrow: 'Bulk email',
    title: 'One message to many, delivered properly',
    lede:
      'Announcements, offers and updates written in a rich-text editor with merge tags, sent to your lists ' +
      'through your own mailboxes with rotation, caps and tracking.',
    visual: 'rotation',
    highlights: [
      {
        icon: 'send',
        title: 'Through your mailboxes',
        body: 'Mail leaves from accounts you connected, spread over them so no inbox sends more than it should.',
      },
      {
        icon: 'sparkles',
        title: 'Personalised',
        body: 'Names, companies and custom fields fill in per recipient, with fallbacks.',
      },
      {
        icon: 'chart',
        title: 'Tracked',
        body: 'Opens and clicks per message, with privacy-proxy opens counted apart from people.',
      },
    ],
    steps: [
      { title: 'Write', body: 'A subject and a rich-text body, or a template.' },
      { title: 'Pick recipients', body: 'One or more of your lists.' },
      { title: 'Send', body: 'Now or scheduled, with the results in analytics.' },
    ],
    appPath: '/newsletters',
    appLabel: 'Write a bulk email',
  },
  '/analytics-reporting': {
    name: 'Analytics & Reporting',
    eyebrow: 'Analytics',
    title: 'See what your email earned',
    lede:
      'Follow each campaign from sent to opened, clicked and replied, and on to conversions, revenue and ROI, ' +
      'so you know which message actually pays.',
    visual: 'analytics',
    highlights: [
      {
        icon: 'chart',
        title: 'Per step and variant',
        body: 'Opens, clicks, replies and bounces for every step and every A/B variant.',
      },
      {
        icon: 'shield',
        title: 'People, not machines',
        body: 'Apple Mail privacy opens and link scanners are flagged and counted apart.',
      },
      {
        icon: 'target',
        title: 'Revenue and ROI',
        body: 'Record deals won from a campaign and see revenue and return against what you spent.',
      },
    ],
    steps: [
      { title: 'Send', body: 'Every send, open, click, reply and bounce is recorded as it happens.' },
      { title: 'Compare', body: 'Your campaigns side by side over the last 7, 30 or 90 days.' },
      { title: 'Improve', body: 'Keep the steps and subject lines that earn replies; drop the rest.' },
    ],
    appPath: '/analytics',
    appLabel: 'Open analytics',
  },
};
