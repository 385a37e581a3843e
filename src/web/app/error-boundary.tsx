import { AlertTriangle, RotateCcw } from 'lucide-react';
import { Component, type ReactNode } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router';

import { NotFoundPage } from '@/app/not-found-page';
import { Button } from '@/components/ui/button';

export const ERROR_TITLE = 'Something went wrong';
export const ERROR_TEXT =
  'We encountered an error while loading this page. This might be due to a network issue or a temporary problem.';

/** Spec §2 "Error boundary": the title, the text and a Try Again button. */
export function ErrorFallback({ onRetry, fullPage = false }: { onRetry: () => void; fullPage?: boolean }) {
  return (
    <div
      role="alert"
      className={
        fullPage
          ? 'flex min-h-dvh items-center justify-center bg-background px-4'
          : 'flex flex-1 items-center justify-center px-4 py-16'
      }
      data-testid="error-boundary"
    >
      <div className="w-full max-w-md rounded-xl border bg-card p-8 text-center shadow-sm">
        <div className="mx-auto mb-4 flex size-12 items-center justify-center rounded-full bg-destructive/10 text-destructive">
          <AlertTriangle className="size-6" aria-hidden="true" />
        </div>
        <h1 className="text-xl font-semibold">{ERROR_TITLE}</h1>
        <p className="mt-2 text-sm text-muted-foreground">{ERROR_TEXT}</p>
        <Button className="mt-6" onClick={onRetry} data-testid="error-try-again">
          <RotateCcw aria-hidden="true" />
          Try Again
        </Button>
      </div>
    </div>
  );
}

/**
 * The router's errorElement. A 404 thrown by a loader shows the not-found screen; anything else, including
 * a lazily loaded page whose chunk failed to download, shows the error screen whose Try Again reloads.
 */
export function RouteErrorBoundary({ fullPage = false }: { fullPage?: boolean }) {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  return <ErrorFallback fullPage={fullPage} onRetry={() => window.location.reload()} />;
}

export function RootRouteErrorBoundary() {
  return <RouteErrorBoundary fullPage />;
}

interface ErrorBoundaryState {
  error: Error | null;
}

/** A lazily loaded page whose file could not be downloaded (a new deploy, a dropped connection). */
function isChunkLoadError(error: Error): boolean {
  return /dynamically imported module|Importing a module script failed|error loading dynamically/i.test(
    error.message,
  );
}

/**
 * A React error boundary for render errors outside the router's reach. Try Again re-renders its children,
 * or reloads the page when the failure was a page file that did not download.
 */
export class ErrorBoundary extends Component<
  { children: ReactNode; fullPage?: boolean },
  ErrorBoundaryState
> {
  override state: ErrorBoundaryState = { error: null };

  static getDerivedStateFromError(error: Error): ErrorBoundaryState {
    return { error };
  }

  override render() {
    if (this.state.error) {
      const { error } = this.state;
      const retry = () =>
        isChunkLoadError(error) ? window.location.reload() : this.setState({ error: null });
      return <ErrorFallback fullPage={this.props.fullPage} onRetry={retry} />;
    }
    return this.props.children;
  }
}
