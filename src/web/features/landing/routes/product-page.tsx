import { CheckCircle2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { NotFoundPage } from '@/app/not-found-page';
import { Button } from '@/components/ui/button';
import { useDirectoryStats } from '@/hooks/use-directory-stats';
import { directoryFigure, NO_DIRECTORY_FIGURE } from '@/lib/directory-figures';

import { ClosingCallToAction, PRODUCT_ICONS, TintedBand } from '../components/marketing-blocks';
import {
  AnalyticsMockup,
  CampaignMockup,
  LeadSearchMockup,
  RotationMockup,
  TargetingMockup,
} from '../components/mockups';
import { PRODUCT_PAGES, type ProductVisual } from '../content/product-pages';
import { usePathContent } from '../lib/use-path-content';

const VISUALS: Record<ProductVisual, () => ReactNode> = {
  'lead-search': () => <LeadSearchMockup />,
  targeting: () => <TargetingMockup />,
  campaign: () => <CampaignMockup />,
  rotation: () => <RotationMockup />,
  analytics: () => <AnalyticsMockup />,
};

/** The footer's Platform pages: one public page per capability (content/product-pages.ts). */
export default function ProductPage() {
  const found = usePathContent(PRODUCT_PAGES, '/features');
  const stats = useDirectoryStats();
  if (!found) return <NotFoundPage />;
  const page = found.content;

  return (
    <article data-testid="product-page">
      <section className="overflow-hidden border-b bg-[radial-gradient(ellipse_at_top,var(--color-accent),transparent_60%)]">
        <div className="mx-auto grid max-w-6xl grid-cols-1 items-center gap-12 px-4 py-16 sm:px-6 md:grid-cols-[1.1fr_1fr] md:py-20">
          <div className="min-w-0">
            <nav aria-label="Breadcrumb" className="mb-4 text-sm text-muted-foreground">
              <Link to="/features" className="hover:text-foreground hover:underline">
                Features
              </Link>
              <span aria-hidden="true"> / </span>
              <span aria-current="page">{page.name}</span>
            </nav>
            <p className="mb-3 text-sm font-semibold text-primary">{page.eyebrow}</p>
            <h1
              className="text-4xl font-bold tracking-tight text-balance sm:text-5xl"
              data-testid="product-title"
            >
              {page.title}
            </h1>
            <p className="mt-5 max-w-xl text-lg text-muted-foreground">{page.lede}</p>
            {page.directoryFigure && (
              // Live counts of real verified records (rounded down), never copy.
              <p className="mt-4 flex items-center gap-2 font-semibold" data-testid="directory-figure">
                <CheckCircle2 className="size-5 shrink-0 text-success" aria-hidden="true" />
                {directoryFigure(stats.data) ?? NO_DIRECTORY_FIGURE}
              </p>
            )}
            <div className="mt-8 flex flex-col gap-3 sm:flex-row">
              <Button asChild size="lg">
                <Link to="/pricing">See plans</Link>
              </Button>
              <Button asChild size="lg" variant="outline">
                <Link to="/help">Read the guides</Link>
              </Button>
            </div>
          </div>
          <div className="min-w-0">{VISUALS[page.visual]()}</div>
        </div>
      </section>

      <section className="mx-auto max-w-6xl px-4 py-16 sm:px-6" aria-labelledby="highlights-heading">
        <h2 id="highlights-heading" className="sr-only">
          What you get
        </h2>
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {page.highlights.map((highlight) => {
            const Icon = PRODUCT_ICONS[highlight.icon];
            return (
              <li key={highlight.title} className="rounded-xl border bg-card p-6">
                <Icon className="size-6 text-primary" aria-hidden="true" />
                <h3 className="mt-4 text-lg font-semibold">{highlight.title}</h3>
                <p className="mt-2 text-sm text-muted-foreground">{highlight.body}</p>
              </li>
            );
          })}
        </ul>
      </section>

      <TintedBand id="how-heading" title="How it works">
        <ol className="mt-10 grid gap-6 md:grid-cols-3">
          {page.steps.map((step, index) => (
            <li key={step.title} className="flex gap-4">
              <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground">
                {index + 1}
              </span>
              <div>
                <h3 className="font-semibold">{step.title}</h3>
                <p className="mt-1 text-sm text-muted-foreground">{step.body}</p>
              </div>
            </li>
          ))}
        </ol>
        <p className="mt-10 flex items-center justify-center gap-2 text-sm text-muted-foreground">
          <CheckCircle2 className="size-4 text-success" aria-hidden="true" />
          Included on every plan, within its limits.{' '}
          <Link to="/pricing" className="font-medium text-primary hover:underline">
            Compare plans
          </Link>
        </p>
      </TintedBand>

      <ClosingCallToAction appPath={page.appPath} appLabel={page.appLabel} />
    </article>
  );
}
