import { ArrowLeft, Clock } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { usePageMeta } from '@/hooks/use-page-meta';
import { HelpShell } from '../components/help-shell';
import { findGuide, GUIDES } from '../lib/guides';

/** /docs/:slug — one guide, with its sections listed first so a reader can jump. */
export default function GuidePage() {
  const { slug } = useParams();
  const guide = findGuide(slug);
  usePageMeta({
    title: `${guide?.title ?? 'Guide not found'} | Tambari`,
    description: guide?.summary ?? 'Tambari documentation.',
    robots: guide ? 'index, follow' : 'noindex, nofollow',
  });

  if (!guide) {
    return (
      <HelpShell testId="guide-not-found">
        <h1 className="text-2xl font-bold tracking-tight">This guide does not exist</h1>
        <p className="text-muted-foreground">It may have moved. These are the guides we have:</p>
        <ul className="list-disc space-y-1 pl-5">
          {GUIDES.map((g) => (
            <li key={g.slug}>
              <Link to={`/docs/${g.slug}`} className="text-primary hover:underline">
                {g.title}
              </Link>
            </li>
          ))}
        </ul>
      </HelpShell>
    );
  }

  return (
    <HelpShell testId="guide-page">
      <Button asChild variant="ghost" size="sm" className="-ml-2">
        <Link to="/docs">
          <ArrowLeft aria-hidden="true" />
          All guides
        </Link>
      </Button>
      <header className="space-y-2">
        <h1 className="text-3xl font-bold tracking-tight" data-testid="guide-title">
          {guide.title}
        </h1>
        <p className="text-lg text-muted-foreground">{guide.summary}</p>
        <p className="flex items-center gap-1 text-sm text-muted-foreground">
          <Clock className="size-4" aria-hidden="true" />
          {guide.minutes} min read
        </p>
      </header>
      <nav aria-label="In this guide" className="rounded-lg border bg-card p-4 text-sm">
        <p className="mb-2 font-medium">In this guide</p>
        <ul className="space-y-1">
          {guide.sections.map((section) => (
            <li key={section.id}>
              <a href={`#${section.id}`} className="text-primary hover:underline">
                {section.heading}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <article className="space-y-8">
        {guide.sections.map((section) => (
          <section
            key={section.id}
            id={section.id}
            aria-labelledby={`${section.id}-heading`}
            className="space-y-3"
          >
            <h2 id={`${section.id}-heading`} className="text-xl font-semibold">
              {section.heading}
            </h2>
            {section.paragraphs.map((paragraph) => (
              <p key={paragraph} className="leading-relaxed">
                {paragraph}
              </p>
            ))}
            {section.points &&
              (section.ordered ? (
                <ol className="list-decimal space-y-1 pl-5 leading-relaxed">
                  {section.points.map((point) => (
                    <li key={point}>{point}</li>
                  ))}
                </ol>
              ) : (
                <ul className="list-disc space-y-1 pl-5 leading-relaxed">
                  {section.points.map((point) => (
                    <li key={point}>{point}</li>
                  ))}
                </ul>
              ))}
            {section.code && (
              <pre className="overflow-x-auto rounded-lg bg-muted p-3 text-xs">
                <code>{section.code.join('\n')}</code>
              </pre>
            )}
          </section>
        ))}
      </article>
      {guide.links.length > 0 && (
        <div className="flex flex-wrap gap-3 border-t pt-6">
          {guide.links.map((link) => (
            <Button key={link.to} asChild variant="outline">
              <Link to={link.to}>{link.label}</Link>
            </Button>
          ))}
        </div>
      )}
    </HelpShell>
  );
}
