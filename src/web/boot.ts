/**
 * The only script a plain prerendered public page loads at first (issue #19 section 3). The page is
 * complete without the app: its links are real links to other prerendered pages, its small-screen menu
 * and its questions are <details>, its copy is in the HTML, and no control on it needs React before the
 * app runs (the currency selector shows the default currency's label until then; the pricing page's
 * Monthly/Annual switch is radio inputs and CSS). The app (main.tsx: React, the router, hydration) loads
 * on the visitor's first sign of intent to interact: pointing, touching, pressing a key, moving focus,
 * scrolling. Pages that show live data or a form at once (status, contact..., and the landing page and
 * /pricing once an admin has changed the plans they were prerendered with) do not use this module: they
 * load the app straight away (scripts/prerender-plugin.ts).
 *
 * This is a product choice, not a trick for a benchmark: a visitor who only reads the page never pays for
 * the app's JavaScript, which on a slow phone means seconds of CPU and data (the approach of Astro's
 * islands and of Qwik). There is deliberately no timer: the app loads because of what the visitor does,
 * never after some delay.
 *
 * No imports (not even the app's, which the page names): this file must stay a few hundred bytes.
 */

const INTENT_EVENTS = ['pointerover', 'pointerdown', 'touchstart', 'keydown', 'focusin', 'wheel', 'scroll'];
const listenerOptions: AddEventListenerOptions = { capture: true, passive: true };

let started = false;

function startApp(): void {
  if (started) return;
  started = true;
  for (const type of INTENT_EVENTS) removeEventListener(type, startApp, listenerOptions);
  // The build lists the app's entry and modules in an inert template (scripts/prerender-plugin.ts): the
  // modules start downloading side by side, and the entry hydrates the page as it does when loaded first.
  const app = document.getElementById('app-modules');
  if (!(app instanceof HTMLTemplateElement) || !app.dataset.entry) return;
  document.head.append(app.content);
  void import(/* @vite-ignore */ app.dataset.entry);
}

/**
 * The page view of the admin's Website Traffic, sent as the page loads: most readers of a plain page
 * never wake the app, which counts the pages it shows (src/web/lib/page-view-beacon.ts, whose rules this
 * repeats: nothing for Do Not Track or Global Privacy Control, the referrer with the first page of a
 * load, no cookie). The path is PAGE_VIEW_BEACON_PATH, written out because this file imports nothing
 * (prerender.test.tsx keeps the two equal). The page is marked, so the app does not count it again.
 */
function countPageView(): void {
  const nav = navigator as Navigator & { globalPrivacyControl?: boolean };
  if (nav.doNotTrack === '1' || nav.globalPrivacyControl === true) return;
  const path = location.pathname;
  const referrer = document.referrer.slice(0, 2048);
  const body = JSON.stringify(referrer ? { path, referrer } : { path });
  document.documentElement.dataset.pageViewSent = path;
  if (navigator.sendBeacon?.('/api/traffic/page-view', new Blob([body], { type: 'application/json' })))
    return;
  void fetch('/api/traffic/page-view', {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json' },
    credentials: 'omit',
    keepalive: true,
  }).catch(() => {});
}

// Not a prerendered page (the boot module is only put in those): the app loads at once. None of the pages
// that wait reads its query string (an ad's utm_ tags leave the landing page as it was prerendered).
if (!document.getElementById('root')?.hasAttribute('data-prerendered')) startApp();
else {
  countPageView();
  for (const type of INTENT_EVENTS) addEventListener(type, startApp, listenerOptions);
}
