import { BookOpen, ChevronRight } from 'lucide-react';
import { Link, Navigate, useParams } from 'react-router';
import { QueryError } from '@/components/query-error';
import { Card, CardContent } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/utils';
import { useRunbook, useRunbooks } from '../api/documentation';

/**
 * /admin/documentation: the operator's runbooks from docs/runbooks, rendered by the server (sanitised
 * HTML). The list on the left, the open runbook with its table of contents on the right; at 390 px they
 * stack.
 */
export default function AdminDocumentationPage() {
  const { slug } = useParams();
  const list = useRunbooks();
  const runbooks = list.data;
  if (!slug && runbooks?.[0]) return <Navigate to={`/admin/documentation/${runbooks[0].slug}`} replace />;

  return (
    <div className="mx-auto w-full max-w-6xl space-y-6" data-testid="admin-documentation-page">
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">Documentation</h1>
        <p className="text-muted-foreground">
          Runbooks for running Tambari: what to do, step by step, and what the system does on its own.
        </p>
      </header>
      {list.isError && !runbooks ? (
        <QueryError
          title="The runbooks could not be loaded"
          error={list.error}
          onRetry={() => list.refetch()}
        />
      ) : (
        <div className="grid gap-6 lg:grid-cols-[16rem_minmax(0,1fr)]">
          <nav aria-label="Runbooks" className="lg:sticky lg:top-6 lg:self-start">
            <ul className="grid gap-1 sm:grid-cols-2 lg:grid-cols-1" data-testid="runbook-list">
              {runbooks
                ? runbooks.map((runbook) => (
                    <li key={runbook.slug}>
                      <Link
                        to={`/admin/documentation/${runbook.slug}`}
                        aria-current={runbook.slug === slug ? 'page' : undefined}
                        className={cn(
                          'flex items-center justify-between gap-2 rounded-md px-3 py-2 text-sm hover:bg-muted',
                          runbook.slug === slug && 'bg-muted font-medium',
                        )}
                        data-testid={`runbook-link-${runbook.slug}`}
                      >
                        <span className="flex items-center gap-2">
                          <BookOpen className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
                          {runbook.title}
                        </span>
                        <ChevronRight className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
                      </Link>
                    </li>
                  ))
                : Array.from({ length: 6 }, (_, index) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
                    <li key={index}>
                      <Skeleton className="h-9 w-full" />
                    </li>
                  ))}
            </ul>
          </nav>
          {slug && <RunbookView slug={slug} />}
        </div>
      )}
    </div>
  );
}

function RunbookView({ slug }: { slug: string }) {
  const query = useRunbook(slug);
  const runbook = query.data;
  if (query.isError && !runbook)
    return (
      <QueryError
        title="This runbook could not be loaded"
        error={query.error}
        onRetry={() => query.refetch()}
      />
    );
  if (!runbook) return <Skeleton className="h-96 w-full" />;
  return (
    <Card className="min-w-0">
      <CardContent className="space-y-6 pt-6">
        {runbook.toc.length > 1 && (
          <nav
            aria-label="On this page"
            className="rounded-lg border bg-muted/40 p-4"
            data-testid="runbook-toc"
          >
            <h2 className="mb-2 text-sm font-semibold text-muted-foreground">On this page</h2>
            <ol className="space-y-1 text-sm">
              {runbook.toc.map((entry) => (
                <li key={entry.id} className={cn(entry.depth === 3 && 'pl-4')}>
                  <a href={`#${entry.id}`} className="text-primary underline-offset-4 hover:underline">
                    {entry.text}
                  </a>
                </li>
              ))}
            </ol>
          </nav>
        )}
        <article
          className="runbook-prose"
          data-testid="runbook-content"
          // Rendered from our own Markdown and passed through sanitize-html on the server.
          // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised server-side (documentation.service.ts).
          dangerouslySetInnerHTML={{ __html: runbook.html }}
        />
      </CardContent>
    </Card>
  );
}
