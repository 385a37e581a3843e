import { lazy } from 'react';

import { loadAppPages } from '@/app/app-page';

/**
 * The signed-in app's shell (sidebar, header, account menu, route guards), loaded on demand through the
 * signed-in pages' own chunk: the public site's pages never download it nor the list of its chunks, which
 * keeps their first load small (issue #19 §3).
 */
export const AppLayout = lazy(() => loadAppPages().then((m) => m.loadAppLayout()));
