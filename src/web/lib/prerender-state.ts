import { useEffect, useSyncExternalStore } from 'react';

/**
 * True while the browser hydrates a page prerendered at build time (issue #19 §3): its first render must
 * match the HTML it was prerendered to, which was made for a signed-out visitor with nothing stored, so
 * state read from the browser (a saved currency) waits for an effect.
 */
export const hydratingPrerenderedPage =
  typeof document !== 'undefined' &&
  document.getElementById('root')?.hasAttribute('data-prerendered') === true;

let settled = !hydratingPrerenderedPage;
const listeners = new Set<() => void>();

/** True only while the browser's first render hydrates a prerendered page (read during render). */
export function isHydratingPrerenderedPage(): boolean {
  return !settled;
}

/**
 * Called by the public frame once it has hydrated. Until then, work that would re-render the page (the
 * currency lookups of the providers above it) waits: an answer arriving mid-hydration would make React
 * finish hydrating in one long task instead of in small slices.
 */
export function useMarkHydrationSettled(): void {
  useEffect(() => {
    // Marks the document live (browser tests wait for it before clicking on a prerendered page).
    document.documentElement.dataset.hydrated = 'true';
    if (settled) return;
    settled = true;
    for (const listener of listeners) listener();
  }, []);
}

/**
 * False until a prerendered page has hydrated; true at once in every other case. The build's render and
 * the browser's hydrating render both read the server snapshot, false, so they agree (controls that wait
 * for the page to be live are prerendered disabled, and React keeps them so until it has hydrated).
 */
export function useHydrationSettled(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => settled,
    () => false,
  );
}
