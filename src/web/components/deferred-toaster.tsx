import { lazy, Suspense, useEffect, useState } from 'react';

import { useToast } from '@/hooks/use-toast';

const Toaster = lazy(() => import('@/components/ui/toaster').then((m) => ({ default: m.Toaster })));

/**
 * The toaster (Radix toast), fetched with the first notification rather than with every page: the public
 * pages rarely show one, and their first load stays small (issue #19 §3). Once shown it stays mounted, so
 * later notifications and closing animations behave as before.
 */
export function DeferredToaster() {
  const { toasts } = useToast();
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    if (toasts.length > 0) setWanted(true);
  }, [toasts.length]);
  if (!wanted && toasts.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
