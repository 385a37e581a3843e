import type { DirectoryStats } from '@shared/leads';
import {
  ArrowRight,
  BarChart3,
  CheckCircle2,
  FileText,
  Globe2,
  type LucideIcon,
  Repeat,
  Rocket,
  Target,
  Upload,
  Users,
} from 'lucide-react';
import { type ReactNode, useDeferredValue } from 'react';
import { Link } from 'react-router';

import { StaticHtml } from '@/components/static-html';
import { Button } from '@/components/ui/button';
import { useDirectoryStats } from '@/hooks/use-directory-stats';
import { usePublicPageMeta } from '@/hooks/use-public-page-meta';
import { directoryFigure, NO_DIRECTORY_FIGURE } from '@/lib/directory-figures';
import { formatNumber } from '@/lib/format';
import { cn } from '@/lib/utils';

import {
  AnalyticsMockup,
  CampaignMockup,
  LeadSearchMockup,
  RotationMockup,
  TargetingMockup,
} from '../components/mockups';
import { PricingTeaser } from '../components/pricing-teaser';

/** Figures that are not counts of the directory. */
const PRODUCT_STATS = [
  { value: '90+', label: 'business categories to filter by' },
  { value: '95%', label: 'deliverability, 98%+ with rotation' },
];

/**
 * The directory's figures come from live counts of real verified records (rounded down), never from
 * copy; with none yet, the band quotes no directory number at all.
 */
function landingStats(stats: DirectoryStats | undefined) {
  if (!stats || stats.verifiedContacts === 0) return PRODUCT_STATS;
  return [
    {
      value: `${formatNumber(stats.verifiedContacts)}${stats.verifiedContactsRounded ? '+' : ''}`,
      label:
        stats.verifiedContacts === 1 && !stats.verifiedContactsRounded
          ? 'verified business contact'
          : 'verified business contacts',
    },
    { value: formatNumber(stats.countries), label: stats.countries === 1 ? 'country' : 'countries' },
    ...PRODUCT_STATS,
  ];
}

function FeatureRow({
  eyebrow,
  icon: Icon,
  title,
  body,
  points,
  visual,
  reverse = false,
}: {
  eyebrow: string;
  icon: LucideIcon;
  title: string;
  body: string;
  points: string[];
  visual: ReactNode;
  reverse?: boolean;
}) {
  return (
    <div className="grid grid-cols-1 items-center gap-10 md:grid-cols-2 md:gap-16">
      <div className={cn('min-w-0', reverse && 'md:order-2')}>
        <p className="mb-3 inline-flex items-center gap-2 text-sm font-semibold text-primary">
          <Icon className="size-4" aria-hidden="true" />
          {eyebrow}
        </p>
        <h3 className="text-2xl font-semibold tracking-tight sm:text-3xl">{title}</h3>
        <p className="mt-3 text-muted-foreground">{body}</p>
        <ul className="mt-5 space-y-2">
          {points.map((point) => (
            <li key={point} className="flex gap-2 text-sm">
              <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-success" aria-hidden="true" />
              {point}
            </li>
          ))}
        </ul>
      </div>
      <StaticHtml className={cn('min-w-0', reverse && 'md:order-1')}>{visual}</StaticHtml>
    </div>
  );
}

export default function LandingPage() {
  usePublicPageMeta('/');
  // The figures arrive after the page has hydrated: rendered as a transition, in short tasks.
  const directoryStats = useDeferredValue(useDirectoryStats().data);
  const stats = landingStats(directoryStats);
  const figure = directoryFigure(directoryStats);
  return (
    <>
      {/* Copy, links and pictures: a prerendered page keeps their HTML instead of hydrating them. */}
      <StaticHtml
        as="section"
        className="relative overflow-hidden border-b bg-[radial-gradient(ellipse_at_top,var(--color-accent),transparent_60%)]"
      >
        <div className="mx-auto grid max-w-6xl grid-cols-1 items-center gap-12 px-4 py-16 sm:px-6 md:grid-cols-[1.1fr_1fr] md:py-24">
          <div className="min-w-0">
            <p className="mb-4 inline-flex items-center gap-2 rounded-full border bg-background px-3 py-1 text-xs font-medium text-muted-foreground">
              <span className="size-1.5 rounded-full bg-gold" aria-hidden="true" />
              Built in Lagos for African businesses · billed in Naira
            </p>
            <h1 className="text-4xl font-bold tracking-tight text-balance sm:text-5xl">
              Find verified African business contacts. Reach them with cold email that lands.
            </h1>
            <p className="mt-5 max-w-xl text-lg text-muted-foreground">
              Tambari puts a verified B2B directory across Nigeria, Ghana, Kenya, South Africa and beyond next
              to multi-step campaigns, newsletters and analytics down to revenue — in one app you pay for in
              Naira.
            </p>
            <div className="mt-8 flex flex-col gap-3 sm:flex-row">
              <Button asChild size="lg" data-testid="cta-get-started">
                <Link to="/pricing">
                  Get Started Today
                  <ArrowRight aria-hidden="true" />
                </Link>
              </Button>
              <Button asChild size="lg" variant="outline" data-testid="cta-how-it-works">
                <Link to="/pricing">See How It Works</Link>
              </Button>
            </div>
            <p className="mt-4 text-sm text-muted-foreground">
              Free plan available · no credit card needed · cancel anytime
            </p>
          </div>
          <div className="min-w-0">
            <LeadSearchMockup />
          </div>
        </div>
      </StaticHtml>

      <section aria-label="Tambari in numbers" className="border-b bg-background">
        <dl
          className={cn(
            'mx-auto grid max-w-6xl grid-cols-2 gap-6 px-4 py-10 sm:px-6',
            stats.length === 4 && 'md:grid-cols-4',
          )}
          data-testid="landing-stats"
        >
          {stats.map((stat) => (
            <div key={stat.label} className="text-center">
              <dt className="sr-only">{stat.label}</dt>
              <dd className="text-3xl font-bold text-primary">{stat.value}</dd>
              <dd className="mt-1 text-sm text-muted-foreground">{stat.label}</dd>
            </div>
          ))}
        </dl>
      </section>

      <section
        className="content-auto mx-auto max-w-6xl space-y-24 px-4 py-20 sm:px-6"
        aria-labelledby="features-heading"
      >
        <StaticHtml className="mx-auto max-w-2xl text-center">
          <h2 id="features-heading" className="text-3xl font-bold tracking-tight sm:text-4xl">
            From the right list to the booked meeting
          </h2>
          <p className="mt-3 text-muted-foreground">
            Everything a sales team needs to prospect across the continent, without stitching five tools
            together.
          </p>
        </StaticHtml>
        <FeatureRow
          eyebrow="Lead discovery"
          icon={Target}
          title="Target by country, city and category"
          body="Pick the markets and industries you sell to and see the estimated audience before you spend a kobo. Every contact records where it came from, and “Verified” always comes with the date of the check."
          points={[
            figure ?? NO_DIRECTORY_FIGURE,
            '90+ business categories, from logistics to healthcare',
            'Bring your own lists too: CSV upload with duplicate and email-format checks',
          ]}
          visual={<TargetingMockup />}
        />
        <FeatureRow
          reverse
          eyebrow="Campaigns & newsletters"
          icon={Rocket}
          title="Multi-step campaigns that follow up for you"
          body="Write a sequence once, with delays and personal merge tags, and Tambari sends each step at the right time in your recipient's time zone — stopping when they reply."
          points={[
            'Newsletters and bulk email from the same app',
            '100+ proven templates, plus AI-assisted writing',
            'One-click unsubscribe and suppression lists built in',
          ]}
          visual={<CampaignMockup />}
        />
        <FeatureRow
          eyebrow="Analytics"
          icon={BarChart3}
          title="See what your email earned"
          body="Follow every campaign from sent to opened, clicked and replied — and on to conversions, revenue and ROI, so you know which message actually pays."
          points={[
            'Opens, clicks and replies per step',
            'Conversions and revenue per campaign',
            'ROI against your plan cost',
          ]}
          visual={<AnalyticsMockup />}
        />
      </section>

      <StaticHtml
        as="section"
        className="border-y bg-sidebar text-sidebar-foreground"
        aria-labelledby="rotation-heading"
      >
        <div className="mx-auto grid max-w-6xl grid-cols-1 items-center gap-12 px-4 py-20 sm:px-6 md:grid-cols-2">
          <div className="min-w-0">
            <p className="mb-3 inline-flex items-center gap-2 text-sm font-semibold text-sidebar-primary">
              <Repeat className="size-4" aria-hidden="true" />
              Premium sender rotation
            </p>
            <h2
              id="rotation-heading"
              className="text-3xl font-bold tracking-tight text-sidebar-accent-foreground"
            >
              Send 10,000+ emails a day without burning an inbox
            </h2>
            <p className="mt-4 text-sidebar-muted">
              One mailbox should send no more than 300 emails a day. Connect several and Tambari spreads each
              campaign across them, always picking the least used account and pausing any that start to
              bounce. Available on Starter, Growth and Pro.
            </p>
            <Button
              asChild
              size="lg"
              className="mt-8 bg-sidebar-primary text-sidebar-primary-foreground hover:bg-sidebar-primary/90"
              data-testid="cta-rotation"
            >
              <Link to="/pricing">Start Smart Rotation</Link>
            </Button>
          </div>
          <div className="min-w-0">
            <RotationMockup />
          </div>
        </div>
      </StaticHtml>

      <StaticHtml
        as="section"
        className="content-auto mx-auto max-w-6xl px-4 py-20 sm:px-6"
        aria-labelledby="ways-heading"
      >
        <h2 id="ways-heading" className="text-center text-3xl font-bold tracking-tight">
          Two ways to reach your prospects
        </h2>
        <div className="mt-10 grid gap-6 md:grid-cols-2">
          {[
            {
              icon: Upload,
              title: 'Your own contacts',
              body: 'Upload your CSV lists. Tambari checks formats, removes duplicates and keeps each list separate, so you can email customers and warm leads right away.',
            },
            {
              icon: Globe2,
              title: 'Lead discovery',
              body: 'Browse the verified directory by country, city and category, save the audience you need and send to it straight from a campaign.',
            },
          ].map((way) => (
            <div key={way.title} className="rounded-xl border bg-card p-6">
              <way.icon className="size-6 text-primary" aria-hidden="true" />
              <h3 className="mt-4 text-lg font-semibold">{way.title}</h3>
              <p className="mt-2 text-sm text-muted-foreground">{way.body}</p>
            </div>
          ))}
        </div>
        <ul className="mt-10 grid gap-4 text-sm sm:grid-cols-3">
          <li className="flex items-center gap-2">
            <Users className="size-4 text-primary" aria-hidden="true" /> Connect your mail server in minutes
          </li>
          <li className="flex items-center gap-2">
            <FileText className="size-4 text-primary" aria-hidden="true" /> Start from a template
          </li>
          <li className="flex items-center gap-2">
            <Rocket className="size-4 text-primary" aria-hidden="true" /> Launch your first campaign today
          </li>
        </ul>
      </StaticHtml>

      <PricingTeaser />

      <StaticHtml as="section" className="px-4 pb-20 sm:px-6">
        <div className="mx-auto max-w-4xl rounded-2xl bg-primary px-6 py-14 text-center text-primary-foreground shadow-lg sm:px-12">
          <h2 className="text-3xl font-bold tracking-tight">Your next customers are already in Tambari</h2>
          <p className="mx-auto mt-3 max-w-2xl text-primary-foreground/85">
            Start on the free plan, find your first leads and send your first campaign. Upgrade in Naira when
            you are ready to scale.
          </p>
          <Button asChild size="lg" variant="secondary" className="mt-8" data-testid="cta-closing">
            <Link to="/pricing">
              Get Started Today
              <ArrowRight aria-hidden="true" />
            </Link>
          </Button>
        </div>
      </StaticHtml>
    </>
  );
}
