import { useEffect, useRef, useState } from 'react';

import { writePageMeta } from '@/hooks/use-page-meta';
import { isHydratingPrerenderedPage } from '@/lib/prerender-state';

/**
 * A public page's metadata (title, description, robots, social cards) in the document head. A
 * prerendered page carries its own tags in its HTML, so while it is the page shown nothing is written and
 * the table of every page's metadata (app/page-meta.ts, ~1.8 KB gzip) is not loaded: it comes with the
 * first client-side move to another path (issue #19 §3: the public pages' first-load JavaScript).
 */
export function usePublicPageMeta(path: string, fallbackPath?: string): void {
  const [prerenderedPath] = useState(() => (isHydratingPrerenderedPage() ? path : null));
  const unchanged = useRef(prerenderedPath);
  useEffect(() => {
    if (path === unchanged.current) return;
    unchanged.current = null;
    let current = true;
    void import('@/app/page-meta').then(({ PAGE_META }) => {
      const meta = PAGE_META[path] ?? (fallbackPath ? PAGE_META[fallbackPath] : undefined);
      if (current && meta) writePageMeta(meta);
    });
    return () => {
      current = false;
    };
  }, [path, fallbackPath]);
}
