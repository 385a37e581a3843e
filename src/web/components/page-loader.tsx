import { Loader2 } from 'lucide-react';

import { BrandMark } from '@/components/brand-logo';

/** Shown while a lazily loaded page downloads. */
export function PageLoader() {
  return (
    <div className="flex flex-1 items-center justify-center py-24" role="status" aria-live="polite">
      <Loader2 className="size-6 animate-spin text-primary" aria-hidden="true" />
      <span className="sr-only">Loading…</span>
    </div>
  );
}

/** Shown while the signed-in user is being looked up. */
export function FullPageLoader() {
  return (
    <div
      className="flex min-h-dvh flex-col items-center justify-center gap-4 bg-background"
      role="status"
      aria-live="polite"
    >
      <BrandMark className="size-12 animate-pulse" />
      <span className="sr-only">Loading Tambari…</span>
    </div>
  );
}
