import { useLocation } from 'react-router';

import { usePublicPageMeta } from '@/hooks/use-public-page-meta';

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
  usePublicPageMeta(path, fallbackMetaPath);
  return Object.hasOwn(pages, path) ? { path: path as K, content: pages[path as K] } : null;
}
