import type { PageMeta } from '@/hooks/use-page-meta';

const SITE = 'Tambari';
const INDEX = 'index, follow' as const;
const NOINDEX = 'noindex, nofollow' as const;

/**
 * The pages that carry their own title, description, keywords and robots. The signed-in pages listed
 * (dashboard, contacts) are noindex; the public and legal pages are indexed.
 */
export const PAGE_META: Record<string, PageMeta> = {
  '/': {
    title: `${SITE} — Verified African business leads, cold email and newsletters`,
    description:
      'Find verified business contacts across Africa and reach them with multi-step cold email campaigns, newsletters and smart sender rotation. Plans billed in Naira.',
    keywords:
      'African business leads, Nigeria B2B contacts, cold email software, email campaigns, newsletters, lead generation, Naira',
    robots: INDEX,
  },
  '/features': {
    title: `Features | ${SITE}`,
    description:
      'Lead discovery across 70+ countries, multi-step cold email campaigns, newsletters, templates, sender rotation and ROI analytics in one place.',
    keywords: 'cold email features, lead discovery, email campaigns, sender rotation, email analytics',
    robots: INDEX,
  },
  '/pricing': {
    title: `Pricing | ${SITE}`,
    description:
      'Simple plans billed in Naira: start free, then Starter, Growth or Pro as your outreach grows. Cancel anytime.',
    keywords: 'cold email pricing, Naira pricing, email marketing plans',
    robots: INDEX,
  },
  '/templates': {
    title: `Email Templates | ${SITE}`,
    description: 'Proven cold email and newsletter templates with merge tags, ready to personalise and send.',
    keywords: 'cold email templates, newsletter templates, follow-up templates',
    robots: INDEX,
  },
  '/help': {
    title: `Help Center | ${SITE}`,
    description:
      'Guides and answers for setting up your sender accounts, finding leads and running campaigns.',
    robots: INDEX,
  },
  '/knowledge-base': {
    title: `Knowledge Base | ${SITE}`,
    description: 'In-depth articles on deliverability, list building and cold email best practice.',
    robots: INDEX,
  },
  '/status': {
    title: `System Status | ${SITE}`,
    description: 'Live status of the Tambari app, sending and tracking services.',
    robots: INDEX,
  },
  '/global-database': {
    title: `Global Business Database | ${SITE}`,
    description:
      'Business contacts in 90+ categories across Africa and beyond, each labelled with its source and the date it was verified.',
    keywords: 'African business database, B2B contacts Africa, Nigeria business directory',
    robots: INDEX,
  },
  '/business-leads': {
    title: `Business Leads | ${SITE}`,
    description: 'Find verified business leads by country, city, category and keyword, and email them.',
    keywords: 'business leads Nigeria, B2B lead generation Africa, lead discovery',
    robots: INDEX,
  },
  '/custom-contact-lists': {
    title: `Custom Contact Lists | ${SITE}`,
    description:
      'Upload your own CSV lists, checked and de-duplicated, with custom fields for personal emails.',
    keywords: 'CSV contact import, email list upload, contact list management',
    robots: INDEX,
  },
  '/email-campaigns': {
    title: `Cold Email Campaigns | ${SITE}`,
    description:
      'Multi-step cold email with follow-ups in the same thread, A/B tests, sender rotation and reply detection.',
    keywords: 'cold email campaigns, email sequences, follow-up automation, sender rotation',
    robots: INDEX,
  },
  '/email-newsletters': {
    title: `Email Newsletters | ${SITE}`,
    description: 'Design newsletters with blocks, preview on any screen and send or schedule to your lists.',
    keywords: 'email newsletter software, newsletter editor, email marketing Nigeria',
    robots: INDEX,
  },
  '/bulk-emails': {
    title: `Bulk Email | ${SITE}`,
    description:
      'Send one personalised message to your lists through your own mailboxes, tracked and compliant.',
    keywords: 'bulk email, mass email Nigeria, email announcements',
    robots: INDEX,
  },
  '/analytics-reporting': {
    title: `Analytics & Reporting | ${SITE}`,
    description: 'Opens, clicks, replies, conversions, revenue and ROI for every campaign and step.',
    keywords: 'email analytics, campaign ROI, cold email reporting',
    robots: INDEX,
  },
  '/docs': {
    title: `Documentation | ${SITE}`,
    description: 'Guides to set up Tambari, run campaigns and measure results, and the API reference.',
    robots: INDEX,
  },
  '/about': {
    title: `About | ${SITE}`,
    description:
      'Tambari helps African businesses find customers and reach them with email. Based in Lagos, Nigeria.',
    robots: INDEX,
  },
  '/contact': {
    title: `Contact | ${SITE}`,
    description: 'Talk to the Tambari team in Lagos: sales, support and partnerships.',
    robots: INDEX,
  },
  '/privacy': {
    title: `Privacy Policy | ${SITE}`,
    description: 'How Tambari collects, uses and protects data.',
    robots: INDEX,
  },
  '/terms': {
    title: `Terms of Service | ${SITE}`,
    description: 'The terms that govern your use of Tambari.',
    robots: INDEX,
  },
  '/refund-policy': {
    title: `Refund Policy | ${SITE}`,
    description: 'When and how Tambari subscription payments are refunded.',
    robots: INDEX,
  },
  '/disclaimer': {
    title: `Disclaimer | ${SITE}`,
    description: 'Important notices about the Tambari service.',
    robots: INDEX,
  },
  '/cookie-policy': {
    title: `Cookie Policy | ${SITE}`,
    description: 'The cookies Tambari uses and how to control them.',
    robots: INDEX,
  },
  '/dashboard': {
    title: `Dashboard | ${SITE}`,
    description: 'Your contacts, campaigns, newsletters and plan at a glance.',
    robots: NOINDEX,
  },
  '/lead-discovery': {
    title: `Browse Contacts | ${SITE}`,
    description: 'Search verified business contacts by country, city and category.',
    robots: NOINDEX,
  },
  '/auth': {
    title: `Sign in or create your account | ${SITE}`,
    description: 'Sign in to Tambari or create a free account to find leads and send cold email.',
    robots: INDEX,
  },
};

/** The metadata of a route: its own entry, or a title from `fallbackTitle` and noindex for app pages. */
export function getPageMeta(pathname: string, fallbackTitle: string): PageMeta {
  return (
    PAGE_META[pathname] ?? {
      title: fallbackTitle === SITE ? SITE : `${fallbackTitle} | ${SITE}`,
      description: PAGE_META['/']!.description,
      robots: NOINDEX,
    }
  );
}
