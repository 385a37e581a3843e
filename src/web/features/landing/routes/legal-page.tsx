import { Link } from 'react-router';
import { NotFoundPage } from '@/app/not-found-page';
import { formatDate } from '@/lib/format';

import { LEGAL_DOCUMENTS, type LegalPath } from '../content/legal-documents';
import { usePathContent } from '../lib/use-path-content';

/** The documents in the footer's order, for "Also read". */
const ALL_DOCUMENTS = Object.keys(LEGAL_DOCUMENTS) as LegalPath[];

/** The footer's Legal pages: the five policies (content/legal-documents.ts), indexable by search engines. */
export default function LegalPage() {
  const found = usePathContent(LEGAL_DOCUMENTS, '/terms');
  if (!found) return <NotFoundPage />;
  const { path, content: document } = found;

  return (
    <article className="mx-auto max-w-3xl px-4 py-16 sm:px-6" data-testid="legal-page">
      <header className="border-b pb-6">
        <h1 className="text-4xl font-bold tracking-tight" data-testid="legal-title">
          {document.title}
        </h1>
        <p className="mt-2 text-sm text-muted-foreground">
          Last updated <time dateTime={document.updated}>{formatDate(document.updated)}</time>
        </p>
        <p className="mt-4 text-muted-foreground">{document.summary}</p>
      </header>
      <nav aria-label="On this page" className="mt-6 rounded-lg border bg-muted/40 p-4 text-sm">
        <p className="font-medium">On this page</p>
        <ol className="mt-2 list-decimal space-y-1 pl-5">
          {document.sections.map((section, index) => (
            <li key={section.heading}>
              <a href={`#section-${index + 1}`} className="text-primary hover:underline">
                {section.heading}
              </a>
            </li>
          ))}
        </ol>
      </nav>
      <div className="mt-8 space-y-8">
        {document.sections.map((section, index) => (
          <section key={section.heading} id={`section-${index + 1}`} className="scroll-mt-24">
            <h2 className="text-xl font-semibold">
              {index + 1}. {section.heading}
            </h2>
            {section.paragraphs.map((paragraph) => (
              <p key={paragraph} className="mt-3 leading-relaxed text-muted-foreground">
                {paragraph}
              </p>
            ))}
            {section.points && (
              <ul className="mt-3 list-disc space-y-1 pl-5 text-muted-foreground">
                {section.points.map((point) => (
                  <li key={point}>{point}</li>
                ))}
              </ul>
            )}
          </section>
        ))}
      </div>
      <footer className="mt-12 border-t pt-6 text-sm text-muted-foreground">
        <p>Also read:</p>
        <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-2">
          {ALL_DOCUMENTS.filter((other) => other !== path).map((other) => (
            <li key={other}>
              <Link to={other} className="text-primary hover:underline">
                {LEGAL_DOCUMENTS[other].title}
              </Link>
            </li>
          ))}
        </ul>
      </footer>
    </article>
  );
}
