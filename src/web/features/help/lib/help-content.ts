/*
 * The help centre's text (/help and /knowledge-base). Every answer describes what the product
 * really does; where a figure is a default an administrator can change, the answer says so.
 */

export interface HelpLink {
  label: string;
  to: string;
}

export interface GuideStep {
  id: string;
  title: string;
  body: string;
  links: HelpLink[];
}

export interface FaqEntry {
  id: string;
  question: string;
  answer: string[];
}

export const GETTING_STARTED: GuideStep[] = [
  {
    id: 'connect-mail-server',
    title: 'Connect a mail server',
    body: 'Tambari sends from your own mailbox, so replies reach you and your domain builds its reputation. Add it under Settings → Sender accounts: the SMTP server you send through and, to pick up replies and bounces, its IMAP server. Presets fill in the common providers, and Tambari checks your domain’s SPF, DKIM and DMARC records and tells you what to fix. The quick setup walks you through the first account, contacts and campaign in one go.',
    links: [
      { label: 'Sender accounts', to: '/settings#sender-accounts' },
      { label: 'Quick setup', to: '/launch' },
    ],
  },
  {
    id: 'choose-contacts',
    title: 'Choose who to email',
    body: 'In Browse Contacts, search verified businesses by country, city and business category and add them to a list, or upload your own contacts from a CSV file. On the Free plan you pick one country and one business category.',
    links: [
      { label: 'Browse Contacts', to: '/lead-discovery' },
      { label: 'Import a CSV', to: '/lead-discovery/import' },
    ],
  },
  {
    id: 'create-campaign',
    title: 'Create a campaign',
    body: 'A campaign is a sequence of emails to your lists. Write the first step and its follow-ups, each waiting the delay you choose; a contact who replies, bounces or unsubscribes leaves the sequence. Personalise with merge tags such as {{ firstName }}, try A/B variants of a step, set the days and hours mail may leave, check the pre-launch report, then launch.',
    links: [{ label: 'Campaigns', to: '/campaigns' }],
  },
  {
    id: 'newsletters',
    title: 'Send newsletters and bulk emails',
    body: 'Build a newsletter from blocks (headings, text, images, buttons) in the editor, or write a bulk email: one message to whole lists. Send a test to yourself, then send now or schedule it.',
    links: [{ label: 'Newsletters', to: '/newsletters' }],
  },
  {
    id: 'templates',
    title: 'Start from a template',
    body: 'The template library has more than a hundred introductions, follow-ups, meeting requests, newsletter layouts and more. Preview one, use it in a campaign, newsletter or bulk email, or save your own.',
    links: [{ label: 'Templates', to: '/templates' }],
  },
  {
    id: 'ai-writing',
    title: 'Write with AI',
    body: 'Where this installation offers it, Write with AI drafts a campaign step or newsletter from a short brief (goal, audience, tone, length and language), and Improve, Shorten, Rewrite or Translate reworks the text you select. Each plan has a daily number of generations. AI writing is not offered on every installation: when it is not, the pricing page does not list it and the AI button says it is not available. Always read a draft before you send it.',
    links: [],
  },
  {
    id: 'measure',
    title: 'Measure what it earns',
    body: 'Each campaign shows its sends, opens, clicks and replies. When a reply turns into business, mark it as won with the deal value: Analytics adds the deals up as revenue and works out your return on the plan.',
    links: [{ label: 'Analytics', to: '/analytics' }],
  },
];

export const FAQ: FaqEntry[] = [
  {
    id: 'daily-limit',
    question: 'How many emails can I send a day?',
    answer: [
      'Each sender account sends at most 300 emails a day. You set its own cap (50 by default, up to 300) and can turn on a warm-up that starts low and rises a little each day, which new mailboxes need.',
      'To send more, connect more sender accounts: with rotation, a campaign spreads its mail across all of them.',
    ],
  },
  {
    id: 'rotation',
    question: 'What is sender rotation, and which plans have it?',
    answer: [
      'Rotation sends each message from the eligible account with the fewest sends today (“Least Used”), skipping accounts that are paused, failing or at their cap. Across many accounts it reaches 10,000+ emails a day.',
      'It needs two or more sender accounts, so it comes with the paid plans (Starter, Growth and Pro); the Free plan has one sender account. The pricing page lists how many accounts each plan allows.',
    ],
  },
  {
    id: 'deliverability',
    question: 'How do I keep my emails out of spam?',
    answer: [
      'Set up SPF, DKIM and DMARC for your sending domain (Tambari checks them and shows the fix), warm up new accounts, keep daily caps modest and send to lists you trust.',
      'Before launch, the pre-launch report flags spammy wording and broken links. Tambari leaves random gaps between sends, sends in the recipient’s working hours, and pauses an account whose bounce rate climbs.',
    ],
  },
  {
    id: 'own-mailbox',
    question: 'Do I need my own mail server?',
    answer: [
      'You need a mailbox that can send over SMTP: Google Workspace, Microsoft 365, Zoho, your web host’s mail or any SMTP service. Tambari sends through it, so recipients see your address and their replies land in your inbox.',
    ],
  },
  {
    id: 'unsubscribes',
    question: 'How do unsubscribes and the suppression list work?',
    answer: [
      'Every email carries a visible unsubscribe link and the one-click unsubscribe headers Gmail and Yahoo show. An unsubscribe, a spam complaint, a hard bounce or a reply such as “remove me” puts the address on your suppression list at once.',
      'Tambari checks that list the moment each message is about to leave, so a suppressed address never gets another email from any campaign or newsletter. You can see it, and import addresses to it, under Browse Contacts → Suppression.',
    ],
  },
  {
    id: 'csv-import',
    question: 'What are the rules for CSV imports?',
    answer: [
      'A file needs one column of email addresses; names, company, job title, phone, website, city, country and up to 20 custom fields are optional. Files up to 50 MB, separated by commas, semicolons, tabs or pipes, in UTF-8, UTF-16 or Windows-1252, are accepted; Excel files must be saved as CSV first.',
      'Invalid addresses, disposable domains, duplicates within the file and contacts already in the list are skipped and listed in a report you can download. Role addresses such as info@ are imported but flagged. Imported contacts count towards your plan’s recipient limit.',
    ],
  },
  {
    id: 'open-rate',
    question: 'Why are some opens not counted?',
    answer: [
      'Apple Mail’s privacy protection and corporate security scanners open images and follow links automatically. Tambari recognises these and counts only opens and clicks by people, so your rates are not inflated.',
    ],
  },
  {
    id: 'revenue',
    question: 'How are revenue and ROI worked out?',
    answer: [
      'On a campaign’s Replies tab, mark a reply as won and enter the deal value. Analytics adds those deals up as revenue (deals in other currencies are converted to naira) and shows ROI: revenue minus your plan’s price for the period, divided by that price. On the Free plan there is no price to divide by, so ROI shows a dash.',
    ],
  },
  {
    id: 'payments',
    question: 'How do I pay?',
    answer: [
      'Plans are priced and charged in Naira (₦) through Paystack, which accepts Visa, Mastercard and Verve cards. Your plan starts as soon as Paystack confirms the payment. The Free plan needs no card; prices shown in other currencies are a guide only.',
    ],
  },
  {
    id: 'cancel',
    question: 'Can I cancel at any time?',
    answer: [
      'Yes. Under Subscription, choose Cancel subscription: you are not charged again and keep your plan until the end of the period you have paid for. Changed your mind before then? Reactivate it on the same page.',
    ],
  },
];
