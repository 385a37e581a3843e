/**
 * True while the browser hydrates a page prerendered at build time (issue #19 §3): its first render must
 * match the HTML it was prerendered to, which was made for a signed-out visitor with nothing stored, so
 * state read from the browser (a saved currency) waits for an effect.
 */
export const hydratingPrerenderedPage =
  typeof document !== 'undefined' &&
  document.getElementById('root')?.hasAttribute('data-prerendered') === true;
