import { type ComponentType, lazy } from 'react';
import type { AppPageName } from '@/app/app-pages';

/** The chunk that knows where the signed-in pages are; one import, shared by all of them. */
export const loadAppPages = () => import('@/app/app-pages');

/**
 * A signed-in page as a React.lazy component: its code loads through ./app-pages.ts, so the public site's
 * entry holds one dynamic import for all of them instead of one (with its preload list) per page.
 */
export function appPage(name: AppPageName) {
  return lazy<ComponentType>(() => loadAppPages().then((m) => m.appPages[name]()));
}
