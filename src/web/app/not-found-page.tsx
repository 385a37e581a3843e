import { ArrowLeft, FileQuestion, Home, LifeBuoy, Mail } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';

import { BrandLogo } from '@/components/brand-logo';
import { Button } from '@/components/ui/button';
import { usePageMeta } from '@/hooks/use-page-meta';

/** The not-found screen counts down 30 seconds, then goes to /. */
export const NOT_FOUND_REDIRECT_SECONDS = 30;

const QUICK_LINKS = [
  { label: 'Homepage', to: '/' },
  { label: 'Features', to: '/features' },
  { label: 'Pricing', to: '/pricing' },
  { label: 'Contact Us', to: '/contact' },
];

export function NotFoundPage() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [secondsLeft, setSecondsLeft] = useState(NOT_FOUND_REDIRECT_SECONDS);
  const [autoRedirect, setAutoRedirect] = useState(true);

  usePageMeta({
    title: 'Page Not Found | Tambari',
    description: "The page you're looking for doesn't exist or has been moved.",
    robots: 'noindex, nofollow',
  });

  useEffect(() => {
    if (!autoRedirect) return;
    const timer = window.setInterval(() => {
      setSecondsLeft((value) => Math.max(0, value - 1));
    }, 1000);
    return () => window.clearInterval(timer);
  }, [autoRedirect]);

  useEffect(() => {
    if (autoRedirect && secondsLeft === 0) navigate('/', { replace: true });
  }, [autoRedirect, secondsLeft, navigate]);

  return (
    <div className="flex min-h-dvh flex-col bg-background">
      <header className="border-b">
        <div className="mx-auto flex h-16 max-w-5xl items-center px-4 sm:px-6">
          <BrandLogo />
        </div>
      </header>
      <main className="flex flex-1 items-center justify-center px-4 py-12" data-testid="not-found">
        <div className="w-full max-w-xl text-center">
          <div className="mx-auto mb-6 flex size-16 items-center justify-center rounded-full bg-accent text-accent-foreground">
            <FileQuestion className="size-8" aria-hidden="true" />
          </div>
          <p className="text-6xl font-bold tracking-tight text-primary">404</p>
          <h1 className="mt-3 text-3xl font-bold tracking-tight">Page Not Found</h1>
          <p className="mt-3 text-muted-foreground">
            The page you're looking for doesn't exist or has been moved.
          </p>
          <p className="mt-4 text-sm">
            <span className="text-muted-foreground">Requested path: </span>
            <code
              className="rounded bg-muted px-2 py-1 font-mono text-sm break-all"
              data-testid="not-found-path"
            >
              {pathname}
            </code>
          </p>

          <div className="mt-6 rounded-lg border bg-card px-4 py-3 text-sm" aria-live="polite">
            {autoRedirect ? (
              <div className="flex flex-col items-center justify-center gap-3 sm:flex-row">
                <p>
                  Redirecting to the homepage in{' '}
                  <span className="font-semibold text-primary tabular-nums" data-testid="not-found-countdown">
                    {secondsLeft}
                  </span>{' '}
                  {secondsLeft === 1 ? 'second' : 'seconds'}
                </p>
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() => setAutoRedirect(false)}
                  data-testid="not-found-cancel-redirect"
                >
                  Cancel Auto-redirect
                </Button>
              </div>
            ) : (
              <p className="text-muted-foreground">Auto-redirect cancelled. Take your time.</p>
            )}
          </div>

          <nav aria-label="Quick links" className="mt-8">
            <h2 className="mb-3 text-sm font-semibold text-muted-foreground">Quick links</h2>
            <ul className="flex flex-wrap justify-center gap-x-6 gap-y-2 text-sm">
              {QUICK_LINKS.map((link) => (
                <li key={link.to}>
                  <Link to={link.to} className="font-medium text-primary underline-offset-4 hover:underline">
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>

          <div className="mt-8 grid gap-3 sm:grid-cols-2">
            <Button asChild>
              <Link to="/">
                <Home aria-hidden="true" />
                Back to Homepage
              </Link>
            </Button>
            <Button variant="outline" onClick={() => navigate(-1)}>
              <ArrowLeft aria-hidden="true" />
              Go Back
            </Button>
            <Button asChild variant="outline">
              <Link to="/contact">
                <Mail aria-hidden="true" />
                Contact Support
              </Link>
            </Button>
            <Button asChild variant="outline">
              <Link to="/help">
                <LifeBuoy aria-hidden="true" />
                Help Center
              </Link>
            </Button>
          </div>
        </div>
      </main>
      <footer className="border-t py-5 text-center text-xs text-muted-foreground">
        Error Code: 404 • Page Not Found
      </footer>
    </div>
  );
}
