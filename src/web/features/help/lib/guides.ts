/*
 * The guides of /docs (one page each at /docs/:slug) and the articles the knowledge base searches. Each
 * statement describes what Tambari does; figures an administrator can change are said to be defaults.
 */

export interface GuideSection {
  id: string;
  heading: string;
  paragraphs: string[];
  /** Numbered when `ordered`, else bullets. */
  points?: string[];
  ordered?: boolean;
  /** Monospaced lines (DNS records, merge tags) shown as written. */
  code?: string[];
}

export interface Guide {
  slug: string;
  title: string;
  summary: string;
  /** Minutes to read, rounded. */
  minutes: number;
  sections: GuideSection[];
  links: { label: string; to: string }[];
}

export const GUIDES: Guide[] = [
  {
    slug: 'quick-setup',
    title: 'Quick setup: from sign-up to your first campaign',
    summary:
      'Connect the mailbox you send from, choose who to write to, and launch a first sequence. About fifteen minutes.',
    minutes: 4,
    links: [
      { label: 'Open Quick setup', to: '/launch' },
      { label: 'Sender accounts', to: '/settings#sender-accounts' },
    ],
    sections: [
      {
        id: 'before-you-start',
        heading: 'Before you start',
        paragraphs: [
          'Tambari sends through your own mailbox, so have its SMTP details at hand: the server name, the port and the password. Google Workspace and Microsoft 365 need an app password when two-step sign-in is on; your provider’s admin page creates one.',
          'Quick setup (the Launch page) keeps track for you: each of its three steps is ticked from what your account really has, and the header counts how many are done.',
        ],
      },
      {
        id: 'connect',
        heading: '1. Connect your mail server',
        paragraphs: [
          'Pick your provider from the presets, or choose Custom SMTP and type the server yourself. Test the connection: Tambari logs in and tells you what failed, in words, if it does not work.',
          'Add the IMAP server too if you can. Tambari then reads replies and bounces, stops a contact’s sequence when they answer, and copies what it sends into your Sent folder.',
          'After saving, the domain check shows whether SPF, DKIM and DMARC are right for your domain. The deliverability guide explains each record.',
        ],
      },
      {
        id: 'contacts',
        heading: '2. Choose contacts',
        paragraphs: [
          'Browse Contacts searches verified businesses by country, city and business category. On the Free plan you first choose the one country and one category your plan includes; paid plans search them all.',
          'Tick the businesses you want and add them to a list, or import your own CSV file into a list (see Importing contacts).',
        ],
      },
      {
        id: 'campaign',
        heading: '3. Create your first campaign',
        paragraphs: [
          'Create a campaign, choose its lists and sender accounts, then write the first step. Add follow-ups with the delay each waits after the one before. The sequences guide covers steps, variants and sending windows.',
          'Run the pre-launch check, send yourself a test, and launch. The campaign page shows progress, opens, clicks and replies as they come in.',
        ],
        points: [
          'Start small: a few dozen contacts on a new mailbox, then more as replies come in.',
          'Keep the warm-up on for a mailbox that has never sent in bulk.',
        ],
      },
    ],
  },
  {
    slug: 'deliverability',
    title: 'Deliverability and DNS: SPF, DKIM and DMARC',
    summary:
      'What the three DNS records do, how to publish them, and the sending habits that keep your mail out of spam.',
    minutes: 6,
    links: [{ label: 'Check your sender accounts', to: '/settings#sender-accounts' }],
    sections: [
      {
        id: 'why',
        heading: 'Why the records matter',
        paragraphs: [
          'Gmail, Yahoo and Microsoft check who may send for your domain before they deliver to the inbox. Without SPF and DKIM much of your mail lands in spam or is refused; bulk senders also need DMARC.',
          'Tambari checks all three for every sender account when you save it and again every day, and says in words what to fix.',
        ],
      },
      {
        id: 'spf',
        heading: 'SPF: which servers may send',
        paragraphs: [
          'SPF is one TXT record on your domain listing the servers allowed to send its mail. Your mail provider tells you what to include. A domain has exactly one SPF record: add your provider to the existing record instead of publishing a second one.',
        ],
        code: ['example.com.  TXT  "v=spf1 include:_spf.google.com ~all"'],
      },
      {
        id: 'dkim',
        heading: 'DKIM: a signature on every message',
        paragraphs: [
          'DKIM signs each message with a key whose public half sits in DNS under a selector, such as google._domainkey. Turn on DKIM signing in your mail provider’s admin page, then publish the TXT record it gives you exactly as shown. Tambari looks for the common selectors of each provider.',
        ],
        code: ['google._domainkey.example.com.  TXT  "v=DKIM1; k=rsa; p=MIIBIjANBg…"'],
      },
      {
        id: 'dmarc',
        heading: 'DMARC: what receivers do when checks fail',
        paragraphs: [
          'DMARC is a TXT record at _dmarc on your domain. Start with p=none and a reporting address to see who sends as you; move to quarantine once everything legitimate passes.',
        ],
        code: ['_dmarc.example.com.  TXT  "v=DMARC1; p=none; rua=mailto:dmarc@example.com"'],
      },
      {
        id: 'habits',
        heading: 'Sending habits that protect your reputation',
        paragraphs: ['DNS records prove who you are; how you send decides whether receivers want your mail.'],
        points: [
          'Warm up a new mailbox: the warm-up starts low and rises a little each day.',
          'Keep daily caps modest. An account sends at most 300 a day; 50 is the default cap.',
          'Connect several accounts and let rotation spread a campaign across them.',
          'Send to lists you trust. Tambari pauses an account whose bounce rate climbs, and suppresses hard bounces, complaints and unsubscribes at once.',
          'Write like a person: the pre-launch check flags spammy wording and broken links.',
        ],
      },
      {
        id: 'dns-changes',
        heading: 'How long DNS changes take',
        paragraphs: [
          'Most DNS providers publish a change within minutes, some take a few hours. Run the domain check again from the sender account once you have saved the record.',
        ],
      },
    ],
  },
  {
    slug: 'importing',
    title: 'Importing contacts from a CSV file',
    summary: 'Which columns Tambari reads, what it skips and why, and how to read the import report.',
    minutes: 4,
    links: [{ label: 'Import a CSV', to: '/lead-discovery/import' }],
    sections: [
      {
        id: 'file',
        heading: 'Prepare the file',
        paragraphs: [
          'A file needs one column of email addresses. Names, company, job title, phone, website, city and country are optional, and up to 20 more columns can become custom fields you use as merge tags.',
          'Files up to 50 MB are accepted, separated by commas, semicolons, tabs or pipes, in UTF-8, UTF-16 or Windows-1252. Save an Excel workbook as CSV first.',
        ],
      },
      {
        id: 'map',
        heading: 'Match the columns',
        paragraphs: [
          'After the upload, check which column holds the email address and the other details, choose which extra columns to keep as custom fields, and start the import. Large files import in the background.',
        ],
      },
      {
        id: 'skipped',
        heading: 'What is skipped, and why',
        paragraphs: [
          'The report lists every row that was not imported, with its reason, and can be downloaded.',
        ],
        points: [
          'Invalid email addresses and disposable (throwaway) domains.',
          'Duplicates within the file, and contacts the list already has.',
          'Addresses on your suppression list are kept out of every send, whichever list they are in.',
          'Role addresses such as info@ or sales@ are imported but flagged: they reach a shared inbox rather than a person.',
        ],
      },
      {
        id: 'limits',
        heading: 'Plan limits',
        paragraphs: [
          'Imported contacts count towards your plan’s recipient limit; the pricing page shows the limit of each plan.',
        ],
      },
    ],
  },
  {
    slug: 'sequences',
    title: 'Campaign sequences: steps, follow-ups and sending windows',
    summary:
      'How a campaign moves each contact through its steps, when mail leaves, and how replies and bounces stop it.',
    minutes: 5,
    links: [{ label: 'Campaigns', to: '/campaigns' }],
    sections: [
      {
        id: 'steps',
        heading: 'Steps and delays',
        paragraphs: [
          'A campaign is a sequence: the first email, then follow-ups, each waiting the days and hours you set after the step before. Every contact moves through the steps on their own clock, so a contact added later starts at step one.',
          'Leave a follow-up’s subject empty and it goes out as a reply in the same thread (“Re: …”); give it a subject of its own to start a new thread.',
        ],
      },
      {
        id: 'personalise',
        heading: 'Personalise every message',
        paragraphs: [
          'Merge tags insert each contact’s details; give a fallback for contacts without the value. Spintax picks one of several wordings per contact, so no two copies are identical. The preview shows the message exactly as a chosen contact will receive it.',
        ],
        code: ['Hi {{ firstName | default: "there" }},', '{Hello|Good morning} from {{ senderName }}'],
      },
      {
        id: 'variants',
        heading: 'A/B variants',
        paragraphs: [
          'A step may have several variants of its subject and body. Contacts are split between them, and the campaign page shows opens, clicks and replies per variant, so you keep what works.',
        ],
      },
      {
        id: 'window',
        heading: 'When mail leaves',
        paragraphs: [
          'Choose the days and hours mail may leave, in the campaign’s time zone. Tambari leaves random gaps between sends and respects each account’s daily cap; mail that cannot go today waits for the next window.',
        ],
      },
      {
        id: 'stops',
        heading: 'What stops a contact’s sequence',
        paragraphs: ['A contact leaves the sequence, and no further step is sent, when:'],
        points: [
          'they reply (Tambari reads replies through your IMAP connection);',
          'their address bounces, they unsubscribe, or they mark you as spam;',
          'you remove them, or stop the campaign.',
        ],
      },
      {
        id: 'out-of-office',
        heading: 'Out-of-office replies',
        paragraphs: [
          'An automatic out-of-office answer pauses the contact until the return date it names, in the morning of the campaign’s time zone; then the sequence carries on where it was.',
        ],
      },
    ],
  },
  {
    slug: 'newsletters',
    title: 'Newsletters and bulk emails',
    summary: 'Build a newsletter from blocks, test it, and send it now or on a schedule to your lists.',
    minutes: 3,
    links: [{ label: 'Newsletters', to: '/newsletters' }],
    sections: [
      {
        id: 'build',
        heading: 'Build from blocks',
        paragraphs: [
          'The newsletter editor builds an email from blocks: headings, text, images, buttons, columns, dividers and social links. Preview it at desktop and phone width; the same HTML works in Gmail, Outlook and Apple Mail.',
          'Start from one of the newsletter templates or from scratch, and save your own layouts as templates.',
        ],
      },
      {
        id: 'bulk',
        heading: 'Bulk emails',
        paragraphs: [
          'A bulk email is one message to whole lists, written like an ordinary email, without follow-ups. Use it for announcements; use a campaign when you want a sequence that stops on a reply.',
        ],
      },
      {
        id: 'send',
        heading: 'Test, then send or schedule',
        paragraphs: [
          'Send a test to yourself first, then send now or pick a date and time. Every newsletter carries an unsubscribe link and a web version.',
          'Each plan allows a number of newsletters a month; the dashboard counts how many you have sent.',
        ],
      },
    ],
  },
  {
    slug: 'billing',
    title: 'Plans, payments and billing',
    summary: 'How plans are charged through Paystack, what renewal, upgrades and cancelling do, and refunds.',
    minutes: 4,
    links: [
      { label: 'Pricing', to: '/pricing' },
      { label: 'Your subscription', to: '/subscription' },
    ],
    sections: [
      {
        id: 'paying',
        heading: 'Paying',
        paragraphs: [
          'Plans are priced and charged in Naira (₦) through Paystack, which accepts Visa, Mastercard and Verve cards. Your plan starts as soon as Paystack confirms the payment. Prices shown in other currencies are a guide only.',
          'A checkout you leave without paying charges nothing; after a day it shows as abandoned in your payment history, and you can pay again at any time.',
        ],
      },
      {
        id: 'renewal',
        heading: 'Renewal',
        paragraphs: [
          'A paid plan renews at the end of each month or year with the card you paid with. If a renewal fails, Tambari tries again and emails you; update your card on the Subscription page to keep your plan.',
        ],
      },
      {
        id: 'changes',
        heading: 'Upgrading, downgrading and cancelling',
        paragraphs: [],
        points: [
          'Upgrade at any time: the unused part of your current period is credited against the new price.',
          'A move to a smaller plan takes effect at the end of the period you have paid for.',
          'Cancel on the Subscription page: you are not charged again and keep your plan until the period ends. Reactivate before then if you change your mind.',
        ],
      },
      {
        id: 'refunds',
        heading: 'Refunds',
        paragraphs: [
          'Your first payment for a paid plan is refunded in full if you ask within 7 days. The Refund Policy lists every case; write to us with the payment reference from your receipt.',
        ],
      },
    ],
  },
];

export function findGuide(slug: string | undefined): Guide | undefined {
  return GUIDES.find((guide) => guide.slug === slug);
}

/** A searchable entry of the knowledge base: a guide section or a question from the help centre. */
export interface KnowledgeArticle {
  id: string;
  title: string;
  /** The text searched and shown as the excerpt. */
  body: string;
  /** Where the whole answer is. */
  to: string;
  /** Guide title or "Questions". */
  source: string;
}

/** Lower case, accents removed, so "resume" finds "résumé". */
function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

/**
 * The articles matching every word of the query (in the title or the text), titles first; all of them
 * for an empty query.
 */
export function searchArticles(articles: KnowledgeArticle[], query: string): KnowledgeArticle[] {
  const words = fold(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return articles;
  const scored: { article: KnowledgeArticle; score: number }[] = [];
  for (const article of articles) {
    const title = fold(article.title);
    // The guide's title counts too: "csv duplicates" finds the section of the CSV guide on duplicates.
    const body = fold(`${article.body} ${article.source}`);
    let score = 0;
    let all = true;
    for (const word of words) {
      if (title.includes(word)) score += 3;
      else if (body.includes(word)) score += 1;
      else {
        all = false;
        break;
      }
    }
    if (all) scored.push({ article, score });
  }
  return scored.sort((a, b) => b.score - a.score).map((entry) => entry.article);
}

export function guideArticles(guides: Guide[] = GUIDES): KnowledgeArticle[] {
  return guides.flatMap((guide) =>
    guide.sections.map((section) => ({
      id: `${guide.slug}-${section.id}`,
      title: section.heading.replace(/^\d+\.\s*/, ''),
      body: [...section.paragraphs, ...(section.points ?? [])].join(' '),
      to: `/docs/${guide.slug}#${section.id}`,
      source: guide.title,
    })),
  );
}
