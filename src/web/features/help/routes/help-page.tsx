import { ChevronDown, LifeBuoy, Mail } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { CONTACT_EMAIL } from '@/components/marketing/public-footer';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useAuth } from '@/hooks/use-auth';
import { usePublicPageMeta } from '@/hooks/use-public-page-meta';
import { cn } from '@/lib/utils';
import { FAQ, GETTING_STARTED } from '../lib/help-content';

/**
 * /help and /knowledge-base (public, and inside the app when signed in): a getting-started
 * guide, the questions subscribers ask most, and how to reach a person.
 */
export default function HelpPage() {
  const { pathname } = useLocation();
  const { user } = useAuth();
  const knowledgeBase = pathname.startsWith('/knowledge-base');
  usePublicPageMeta(knowledgeBase ? '/knowledge-base' : '/help');

  return (
    <div
      className={cn('mx-auto w-full max-w-4xl space-y-8', !user && 'px-4 py-12 sm:px-6 md:py-16')}
      data-testid="help-page"
    >
      <header className="space-y-2">
        <p className="flex items-center gap-2 text-sm font-medium text-primary">
          <LifeBuoy className="size-4" aria-hidden="true" />
          {knowledgeBase ? 'Knowledge Base' : 'Help Center'}
        </p>
        <h1 className="text-3xl font-bold tracking-tight">How can we help?</h1>
        <p className="text-muted-foreground">
          Set up sending, find your first customers and read your results — then the answers to what
          subscribers ask us most.
        </p>
        {!user && (
          <div className="flex flex-wrap gap-3 pt-2">
            <Button asChild>
              <Link to="/auth">Create a free account</Link>
            </Button>
            <Button asChild variant="outline">
              <Link to="/pricing">See pricing</Link>
            </Button>
          </div>
        )}
      </header>

      <section aria-labelledby="getting-started" className="space-y-4">
        <h2 id="getting-started" className="text-xl font-semibold">
          Getting started
        </h2>
        <ol className="space-y-3" data-testid="help-guide">
          {GETTING_STARTED.map((step, index) => (
            <li key={step.id} id={step.id}>
              <Card className="gap-3 py-5">
                <CardHeader>
                  <CardTitle className="flex items-center gap-3">
                    <span
                      className="flex size-7 shrink-0 items-center justify-center rounded-full bg-primary/10 text-sm font-semibold text-primary"
                      aria-hidden="true"
                    >
                      {index + 1}
                    </span>
                    <h3>{step.title}</h3>
                  </CardTitle>
                </CardHeader>
                <CardContent className="space-y-3">
                  <CardDescription className="text-sm leading-relaxed">{step.body}</CardDescription>
                  {step.links.length > 0 && (
                    <div className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
                      {step.links.map((link) => (
                        <Link
                          key={link.to}
                          to={link.to}
                          className="font-medium text-primary underline-offset-4 hover:underline"
                        >
                          {link.label} →
                        </Link>
                      ))}
                    </div>
                  )}
                </CardContent>
              </Card>
            </li>
          ))}
        </ol>
      </section>

      <section aria-labelledby="faq" className="space-y-4">
        <h2 id="faq" className="text-xl font-semibold">
          Frequently asked questions
        </h2>
        <div className="divide-y rounded-lg border bg-card" data-testid="help-faq">
          {FAQ.map((entry) => (
            <details key={entry.id} id={entry.id} className="group px-4 py-3" data-testid="help-faq-item">
              <summary className="flex cursor-pointer list-none items-center justify-between gap-4 font-medium [&::-webkit-details-marker]:hidden">
                {entry.question}
                <ChevronDown
                  className="size-4 shrink-0 text-muted-foreground transition-transform group-open:rotate-180"
                  aria-hidden="true"
                />
              </summary>
              <div className="mt-2 space-y-2 text-sm leading-relaxed text-muted-foreground">
                {entry.answer.map((paragraph) => (
                  <p key={paragraph}>{paragraph}</p>
                ))}
              </div>
            </details>
          ))}
        </div>
      </section>

      <section
        aria-labelledby="contact-support"
        className="flex flex-wrap items-center justify-between gap-4 rounded-lg border bg-card p-5"
        data-testid="help-contact"
      >
        <div className="space-y-1">
          <h2 id="contact-support" className="font-semibold">
            Still stuck?
          </h2>
          <p className="text-sm text-muted-foreground">
            Write to us at{' '}
            <a
              href={`mailto:${CONTACT_EMAIL}`}
              className="font-medium text-primary underline-offset-4 hover:underline"
            >
              {CONTACT_EMAIL}
            </a>{' '}
            with your account email and what you were trying to do. Our team in Lagos answers on working days.
          </p>
        </div>
        <Button asChild variant="outline">
          <a href={`mailto:${CONTACT_EMAIL}`}>
            <Mail aria-hidden="true" />
            Email support
          </a>
        </Button>
      </section>
    </div>
  );
}
