import { lazy, Suspense } from 'react';

import { FullPageLoader } from '@/components/page-loader';

const NotFoundPage = lazy(() => import('@/app/not-found-page').then((m) => ({ default: m.NotFoundPage })));

/** The public 404, fetched when an address is unknown rather than with every public page. */
export function LazyNotFoundPage() {
  return (
    <Suspense fallback={<FullPageLoader />}>
      <NotFoundPage />
    </Suspense>
  );
}
