import { ArrowRight, FileText, Repeat, ShieldCheck, Sparkles } from 'lucide-react';
import { Link } from 'react-router';

import { StaticHtml } from '@/components/static-html';
import { usePublicPageMeta } from '@/hooks/use-public-page-meta';

import {
  ClosingCallToAction,
  IconRowCard,
  PageHero,
  PRODUCT_ICONS,
  TintedBand,
} from '../components/marketing-blocks';
import { PRODUCT_PAGES, type ProductPath } from '../content/product-pages';

/** Everything else a subscriber gets, without a page of its own. */
const ALSO_INCLUDED = [
  {
    icon: Repeat,
    title: 'Sender rotation',
    body: 'Least Used rotation across your mailboxes, a daily cap per account (300 at most) and a warm-up ramp.',
  },
  {
    icon: ShieldCheck,
    title: 'Deliverability and compliance',
    body: 'SPF, DKIM and DMARC checks, one-click unsubscribe, suppression lists and bounce handling.',
  },
  {
    icon: Sparkles,
    title: 'AI-assisted writing',
    body: 'Draft a first email or improve a sentence, then review and edit before anything is sent.',
  },
  {
    icon: FileText,
    title: 'Template library',
    body: 'Proven cold email, follow-up and newsletter templates with merge tags, ready to adapt.',
    to: '/templates',
  },
];

/** /features: every capability, each linking to its own page. */
export default function FeaturesPage() {
  usePublicPageMeta('/features');
  return (
    // Copy and links only: a prerendered page keeps its HTML instead of hydrating it.
    <StaticHtml data-testid="features-page">
      <section className="px-4 py-16 sm:px-6 md:py-20">
        <PageHero
          eyebrow="Features"
          title="Everything you need to find customers and reach them"
          lede="A verified business directory, your own lists, cold email campaigns, newsletters and analytics down to revenue — in one app you pay for in Naira."
          testId="features-title"
        />
        <ul className="mx-auto mt-14 grid max-w-6xl gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {(Object.entries(PRODUCT_PAGES) as [ProductPath, (typeof PRODUCT_PAGES)[ProductPath]][]).map(
            ([path, page]) => {
              const Icon = PRODUCT_ICONS[page.highlights[0]!.icon];
              return (
                <li key={path}>
                  <Link
                    to={path}
                    className="group flex h-full flex-col rounded-xl border bg-card p-6 outline-none transition-shadow hover:shadow-md focus-visible:ring-2 focus-visible:ring-ring"
                    data-testid={`feature-link-${path.slice(1)}`}
                  >
                    <Icon className="size-6 text-primary" aria-hidden="true" />
                    <h2 className="mt-4 text-lg font-semibold">{page.name}</h2>
                    <p className="mt-2 flex-1 text-sm text-muted-foreground">{page.title}</p>
                    <span className="mt-4 inline-flex items-center gap-1 text-sm font-medium text-primary">
                      Learn more
                      <ArrowRight
                        className="size-4 transition-transform group-hover:translate-x-0.5"
                        aria-hidden="true"
                      />
                    </span>
                  </Link>
                </li>
              );
            },
          )}
        </ul>
      </section>

      <TintedBand id="also-heading" title="Also in every account">
        <ul className="mt-10 grid gap-6 sm:grid-cols-2">
          {ALSO_INCLUDED.map((item) => (
            <IconRowCard
              key={item.title}
              icon={item.icon}
              title={
                item.to ? (
                  <Link to={item.to} className="hover:underline">
                    {item.title}
                  </Link>
                ) : (
                  item.title
                )
              }
              body={item.body}
            />
          ))}
        </ul>
      </TintedBand>

      <ClosingCallToAction appPath="/dashboard" appLabel="Go to your dashboard" />
    </StaticHtml>
  );
}
