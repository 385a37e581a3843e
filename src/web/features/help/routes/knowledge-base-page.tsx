import { BookOpen, Search, SearchX } from 'lucide-react';
import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Input } from '@/components/ui/input';
import { usePublicPageMeta } from '@/hooks/use-public-page-meta';
import { useHydrationSettled } from '@/lib/prerender-state';
import { HelpShell } from '../components/help-shell';
import { guideArticles, type KnowledgeArticle, searchArticles } from '../lib/guides';
import { FAQ, GETTING_STARTED } from '../lib/help-content';

/** Every guide section and every help-centre answer, as one searchable list. */
function allArticles(): KnowledgeArticle[] {
  return [
    ...FAQ.map((entry) => ({
      id: `faq-${entry.id}`,
      title: entry.question,
      body: entry.answer.join(' '),
      to: `/help#${entry.id}`,
      source: 'Questions',
    })),
    ...GETTING_STARTED.map((step) => ({
      id: `start-${step.id}`,
      title: step.title,
      body: step.body,
      to: `/help#${step.id}`,
      source: 'Getting started',
    })),
    ...guideArticles(),
  ];
}

function excerpt(body: string): string {
  return body.length > 220 ? `${body.slice(0, 217).trimEnd()}…` : body;
}

/** /knowledge-base: a search box over the guides and the common questions. */
export default function KnowledgeBasePage() {
  usePublicPageMeta('/knowledge-base');
  const [params, setParams] = useSearchParams();
  const query = params.get('q') ?? '';
  const live = useHydrationSettled();
  const articles = useMemo(allArticles, []);
  const results = useMemo(() => searchArticles(articles, query), [articles, query]);

  return (
    <HelpShell testId="knowledge-base-page">
      <header className="space-y-2">
        <p className="flex items-center gap-2 text-sm font-medium text-primary">
          <BookOpen className="size-4" aria-hidden="true" />
          Knowledge Base
        </p>
        <h1 className="text-3xl font-bold tracking-tight">Search the knowledge base</h1>
        <p className="text-muted-foreground">
          Answers from every{' '}
          <Link to="/docs" className="font-medium text-primary hover:underline">
            guide
          </Link>{' '}
          and the questions subscribers ask us most.
        </p>
      </header>
      {/* Searching needs the app: a prerendered page holding it loads the app at once. */}
      <search className="relative block" data-needs-app="">
        <Search
          className="absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
          aria-hidden="true"
        />
        <Input
          type="search"
          value={query}
          onChange={(event) => {
            const next = new URLSearchParams(params);
            if (event.target.value) next.set('q', event.target.value);
            else next.delete('q');
            setParams(next, { replace: true });
          }}
          placeholder="Search, e.g. DKIM, CSV, refund, reply"
          aria-label="Search the knowledge base"
          className="h-11 pl-9"
          data-testid="kb-search"
          // Prerendered: typing opens when the page is live (earlier keystrokes would be dropped).
          disabled={!live}
        />
      </search>
      <p className="text-sm text-muted-foreground" aria-live="polite" data-testid="kb-count">
        {query
          ? `${results.length} ${results.length === 1 ? 'article matches' : 'articles match'} “${query}”`
          : `${articles.length} articles`}
      </p>
      {results.length === 0 ? (
        <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed px-6 py-12 text-center">
          <SearchX className="size-8 text-muted-foreground" aria-hidden="true" />
          <p className="font-medium">Nothing matches “{query}”</p>
          <p className="text-sm text-muted-foreground">
            Try another word, browse the{' '}
            <Link to="/docs" className="text-primary hover:underline">
              guides
            </Link>
            , or{' '}
            <Link to="/contact" className="text-primary hover:underline">
              ask us
            </Link>
            .
          </p>
        </div>
      ) : (
        <ul className="divide-y rounded-lg border bg-card" data-testid="kb-results">
          {results.map((article) => (
            <li key={article.id} data-testid="kb-article">
              <Link to={article.to} className="block px-4 py-3 hover:bg-muted/50">
                <span className="block text-xs text-muted-foreground">{article.source}</span>
                <span className="block font-medium">{article.title}</span>
                <span className="mt-1 block text-sm text-muted-foreground">{excerpt(article.body)}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </HelpShell>
  );
}
