import { isValidElement } from 'react';
import type { RouteObject } from 'react-router';

/** What React.lazy keeps on the component it returns (React 18 and 19). */
interface LazyInternals {
  _payload: unknown;
  _init: (payload: unknown) => unknown;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}

/**
 * Loads the React.lazy pages of the routes a URL matched (the router's own matches, so the route tree is
 * not flattened and ranked a second time) before a prerendered page is hydrated. Hydrating a page whose
 * code is still on its way would suspend, and a click or a keystroke on the prerendered page meanwhile
 * (the pricing interval, the contact form) would be lost. React.lazy's `_init` starts the import and
 * throws the pending promise until the module is there; once it is, rendering uses it at once.
 */
export async function preloadLazyRoutes(matches: ReadonlyArray<{ route: RouteObject }>): Promise<void> {
  for (const match of matches) {
    const element = match.route.element;
    if (!isValidElement(element)) continue;
    const lazy = element.type as Partial<LazyInternals>;
    if (typeof lazy._init !== 'function') continue;
    for (;;) {
      try {
        lazy._init(lazy._payload);
        break;
      } catch (pending) {
        if (!isThenable(pending)) throw pending;
        await pending;
      }
    }
  }
}
