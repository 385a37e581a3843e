import { Activity, BookOpen, Clock, Code2, FileText } from 'lucide-react';
import { Link } from 'react-router';
import { usePublicPageMeta } from '@/hooks/use-public-page-meta';
import { HelpShell } from '../components/help-shell';
import { GUIDES } from '../lib/guides';

const CARD =
  'flex h-full gap-4 rounded-xl border bg-card p-5 outline-none transition-shadow hover:shadow-md focus-visible:ring-2 focus-visible:ring-ring';

/** /docs: the guides, each a page of its own, and where else answers are. */
export default function DocsPage() {
  usePublicPageMeta('/docs');
  return (
    <HelpShell testId="docs-page" wide>
      <header className="space-y-2">
        <p className="flex items-center gap-2 text-sm font-medium text-primary">
          <FileText className="size-4" aria-hidden="true" />
          Documentation
        </p>
        <h1 className="text-3xl font-bold tracking-tight" data-testid="docs-title">
          Tambari guides
        </h1>
        <p className="text-muted-foreground">
          Step-by-step guides, from connecting your first mailbox to paying for a plan. Looking for one
          answer? Search the{' '}
          <Link to="/knowledge-base" className="font-medium text-primary hover:underline">
            knowledge base
          </Link>
          .
        </p>
      </header>

      <section aria-labelledby="guides-heading" className="space-y-4">
        <h2 id="guides-heading" className="text-xl font-semibold">
          Guides
        </h2>
        <ul className="grid gap-4 md:grid-cols-2" data-testid="docs-guides">
          {GUIDES.map((guide) => (
            <li key={guide.slug}>
              <Link to={`/docs/${guide.slug}`} className={CARD} data-testid={`guide-link-${guide.slug}`}>
                <BookOpen className="size-6 shrink-0 text-primary" aria-hidden="true" />
                <span className="min-w-0">
                  <span className="block font-semibold">{guide.title}</span>
                  <span className="mt-1 block text-sm text-muted-foreground">{guide.summary}</span>
                  <span className="mt-2 flex items-center gap-1 text-xs text-muted-foreground">
                    <Clock className="size-3" aria-hidden="true" />
                    {guide.minutes} min read
                  </span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="more-heading" className="space-y-4">
        <h2 id="more-heading" className="text-xl font-semibold">
          More help
        </h2>
        <ul className="grid gap-4 md:grid-cols-3">
          <li>
            <Link to="/knowledge-base" className={CARD}>
              <BookOpen className="size-6 shrink-0 text-primary" aria-hidden="true" />
              <span>
                <span className="block font-semibold">Knowledge base</span>
                <span className="mt-1 block text-sm text-muted-foreground">
                  Search every guide and common question.
                </span>
              </span>
            </Link>
          </li>
          <li>
            <a href="/api/docs" className={CARD}>
              <Code2 className="size-6 shrink-0 text-primary" aria-hidden="true" />
              <span>
                <span className="block font-semibold">API reference</span>
                <span className="mt-1 block text-sm text-muted-foreground">
                  Every endpoint with its parameters and answers (OpenAPI).
                </span>
              </span>
            </a>
          </li>
          <li>
            <Link to="/status" className={CARD}>
              <Activity className="size-6 shrink-0 text-primary" aria-hidden="true" />
              <span>
                <span className="block font-semibold">System status</span>
                <span className="mt-1 block text-sm text-muted-foreground">
                  Live checks of the app, sending and tracking.
                </span>
              </span>
            </Link>
          </li>
        </ul>
      </section>
    </HelpShell>
  );
}
