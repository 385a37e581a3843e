import {
  ArrowRight,
  BarChart3,
  Clock,
  Globe2,
  type LucideIcon,
  Mail,
  Newspaper,
  Repeat,
  Send,
  ShieldCheck,
  Sparkles,
  Target,
  Upload,
  Users,
} from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { StaticHtml } from '@/components/static-html';
import { Button } from '@/components/ui/button';
import { useAuth } from '@/hooks/use-auth';

import type { ProductIcon } from '../content/product-pages';

/** The public pages' shared pieces: page header, icon set and the closing call to action. */

export const PRODUCT_ICONS: Record<ProductIcon, LucideIcon> = {
  globe: Globe2,
  target: Target,
  upload: Upload,
  send: Send,
  newspaper: Newspaper,
  mail: Mail,
  chart: BarChart3,
  shield: ShieldCheck,
  clock: Clock,
  repeat: Repeat,
  sparkles: Sparkles,
  users: Users,
};

export function PageHero({
  eyebrow,
  title,
  lede,
  children,
  testId,
}: {
  eyebrow: string;
  title: string;
  lede: string;
  children?: ReactNode;
  testId?: string;
}) {
  return (
    <header className="mx-auto max-w-3xl text-center">
      <p className="mb-3 text-sm font-semibold text-primary">{eyebrow}</p>
      <h1 className="text-4xl font-bold tracking-tight text-balance sm:text-5xl" data-testid={testId}>
        {title}
      </h1>
      <p className="mt-5 text-lg text-muted-foreground">{lede}</p>
      {children}
    </header>
  );
}

/**
 * The closing call to action: to pricing when signed out (where the landing page's buttons lead), to the
 * place in the app when signed in.
 */
export function ClosingCallToAction({ appPath, appLabel }: { appPath: string; appLabel: string }) {
  const { user } = useAuth();
  return (
    // A prerendered page (a signed-out visitor's) keeps its HTML instead of hydrating it.
    <StaticHtml as="section" className="px-4 pt-16 pb-20 sm:px-6">
      <div className="mx-auto max-w-4xl rounded-2xl bg-primary px-6 py-12 text-center text-primary-foreground shadow-lg sm:px-12">
        <h2 className="text-3xl font-bold tracking-tight">Start on the free plan today</h2>
        <p className="mx-auto mt-3 max-w-2xl text-primary-foreground/85">
          Find your first leads and send your first campaign. Upgrade in Naira when you are ready to scale.
        </p>
        <Button asChild size="lg" variant="secondary" className="mt-8" data-testid="page-cta">
          <Link to={user ? appPath : '/pricing'}>
            {user ? appLabel : 'Get Started Today'}
            <ArrowRight aria-hidden="true" />
          </Link>
        </Button>
      </div>
    </StaticHtml>
  );
}

/** A full-width tinted band with a centred heading: the middle section of the public pages. */
export function TintedBand({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="content-auto border-y bg-muted/40" aria-labelledby={id}>
      <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
        <h2 id={id} className="text-center text-3xl font-bold tracking-tight">
          {title}
        </h2>
        {children}
      </div>
    </section>
  );
}

/** A card with its icon beside the title and text, as a list item. */
export function IconRowCard({
  icon: Icon,
  title,
  body,
}: {
  icon: LucideIcon;
  title: ReactNode;
  body: string;
}) {
  return (
    <li className="flex gap-4 rounded-xl border bg-card p-6">
      <Icon className="size-6 shrink-0 text-primary" aria-hidden="true" />
      <div>
        <h3 className="font-semibold">{title}</h3>
        <p className="mt-1 text-sm text-muted-foreground">{body}</p>
      </div>
    </li>
  );
}
