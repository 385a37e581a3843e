import { useLocation } from 'react-router';

import { PAGE_META } from '@/app/page-meta';
import { usePageMeta } from '@/hooks/use-page-meta';

/**
 * The content a page component draws for the current path (one component serves several paths: the
 * product pages, the legal documents), with that path's metadata applied; null when the path has none.
 */
export function usePathContent<K extends string, T>(
  pages: Record<K, T>,
  fallbackMetaPath: string,
): { path: K; content: T } | null {
  const { pathname } = useLocation();
  const path = pathname.replace(/\/+$/, '');
  usePageMeta(PAGE_META[path] ?? PAGE_META[fallbackMetaPath]!);
  return Object.hasOwn(pages, path) ? { path: path as K, content: pages[path as K] } : null;
}
