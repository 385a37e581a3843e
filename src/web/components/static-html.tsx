import { type ComponentPropsWithoutRef, type ElementType, type ReactNode, useId, useState } from 'react';

import { isHydratingPrerenderedPage } from '@/lib/prerender-state';

type StaticHtmlProps<T extends ElementType> = {
  /** The element that wraps the part (a div unless told). */
  as?: T;
  children: ReactNode;
} & Omit<ComponentPropsWithoutRef<T>, 'as' | 'children' | 'dangerouslySetInnerHTML'>;

/**
 * A part of a public page that does not change once rendered (copy, pictures, plain links): when the
 * browser hydrates a prerendered page, it keeps the HTML it was sent for this part instead of hydrating
 * it, which is most of the page's hydration work (issue #19 §3: total blocking time). React leaves an
 * element's inner HTML alone while hydrating when its render gives `dangerouslySetInnerHTML`; the part
 * gives the HTML it already holds, so the element is the same even if React ever renders it afresh.
 * Its links stay ordinary links (they load the next prerendered page). Rendered any other way (at build
 * time, after a client-side navigation, in the signed-in app) it renders its children as usual.
 */
export function StaticHtml<T extends ElementType = 'div'>({ as, children, ...props }: StaticHtmlProps<T>) {
  const Tag: ElementType = as ?? 'div';
  // The same id at build time and in the hydrating render: it finds this part's element in the page.
  const id = useId();
  const [html] = useState(() => (isHydratingPrerenderedPage() ? prerenderedHtml(id) : undefined));
  if (html === undefined) {
    return (
      <Tag {...props} data-static={id}>
        {children}
      </Tag>
    );
  }
  return (
    <Tag
      {...props}
      data-static={id}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: the markup this element already holds, rendered by the build from our own components
      dangerouslySetInnerHTML={{ __html: html }}
      suppressHydrationWarning
    />
  );
}

/** The inner HTML the page was sent for a part, or undefined (then the part hydrates as usual). */
function prerenderedHtml(id: string): string | undefined {
  for (const element of document.querySelectorAll<HTMLElement>('[data-static]')) {
    if (element.dataset.static === id) return element.innerHTML;
  }
  return undefined;
}
