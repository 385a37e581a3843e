/**
 * The only script a prerendered public page loads at first (issue #19 section 3). The page is complete
 * without the app: its links are real links to other prerendered pages, its menu and questions are
 * <details>, and its copy is in the HTML. The app (main.tsx: React, the router, hydration) is loaded when
 * the visitor first shows intent to interact (points, touches, presses a key, moves focus, scrolls), when
 * a part that shows live data (marked data-hydrate="visible", e.g. the plans) comes into view, or at once
 * when the page is not a plain public page (the app must read its query string).
 *
 * This is a product choice, not a trick for a benchmark: a visitor who only reads the page never pays for
 * the app's JavaScript, which on a slow phone means seconds of CPU and data (the approach of Astro's
 * client:visible islands and of Qwik). There is deliberately no timer: the app loads because of what the
 * visitor does or sees, never after some delay.
 *
 * No imports (not even the app's, which the page names): this file must stay a few hundred bytes.
 */

const INTENT_EVENTS = ['pointerover', 'pointerdown', 'touchstart', 'keydown', 'focusin', 'wheel', 'scroll'];
/** Pointer-up too: browsers send no click to a disabled control. */
const CLICK_EVENTS = ['click', 'pointerup'];
const listenerOptions: AddEventListenerOptions = { capture: true, passive: true };

let started = false;
/** The control a visitor clicked before the app could handle it: clicked again once the page is live. */
let pendingClick: HTMLElement | null = null;

/**
 * The control a click was meant for, if the page's HTML did nothing with it: not a link or a <details>
 * summary (they work without the app). Once React is hydrating (main.tsx marks html[data-hydrating]) it
 * handles clicks on live controls itself; a control kept disabled until the page is live (the plans'
 * period switch, the contact form) still misses its click then.
 */
function controlToReplay(target: Element): HTMLElement | null {
  if (target.closest('a[href], summary')) return null;
  const control = target.closest<HTMLElement>('button, label, input, select, textarea, [role="button"]');
  if (!control) return null;
  const disabled =
    control.matches(':disabled') ||
    (control instanceof HTMLLabelElement && control.control?.matches(':disabled') === true);
  if (!disabled && document.documentElement.hasAttribute('data-hydrating')) return null;
  return control;
}

function rememberClick(event: Event): void {
  if (event.target instanceof Element) pendingClick = controlToReplay(event.target);
}

function replayPendingClick(): void {
  for (const type of CLICK_EVENTS) document.removeEventListener(type, rememberClick, true);
  const element = pendingClick;
  pendingClick = null;
  if (!element?.isConnected) return;
  // A field gets the focus its tap was for; any other control the click its handler missed.
  if (element.matches('input:not([type="radio"], [type="checkbox"]), select, textarea')) element.focus();
  else element.click();
}

/** Once the app has hydrated (the public layout marks html[data-hydrated]), the missed click is replayed. */
function whenHydrated(then: () => void): void {
  const root = document.documentElement;
  const observer = new MutationObserver(() => {
    if (!root.hasAttribute('data-hydrated')) return;
    observer.disconnect();
    // In the next task: the re-render that enables the page's controls runs right after the mark.
    setTimeout(then);
  });
  observer.observe(root, { attributes: true, attributeFilter: ['data-hydrated'] });
}

function startApp(): void {
  if (started) return;
  started = true;
  for (const type of INTENT_EVENTS) removeEventListener(type, startApp, listenerOptions);
  // The build lists the app's entry and modules in an inert template (scripts/prerender-plugin.ts): the
  // modules start downloading side by side, and the entry hydrates the page as it did when it loaded first.
  const app = document.getElementById('app-modules');
  if (!(app instanceof HTMLTemplateElement) || !app.dataset.entry) return;
  document.head.append(app.content);
  whenHydrated(replayPendingClick);
  void import(/* @vite-ignore */ app.dataset.entry);
}

const root = document.getElementById('root');
if (!root?.hasAttribute('data-prerendered') || location.search) {
  startApp();
} else {
  for (const type of CLICK_EVENTS) document.addEventListener(type, rememberClick, true);
  for (const type of INTENT_EVENTS) addEventListener(type, startApp, listenerOptions);
  const live = document.querySelectorAll('[data-hydrate="visible"]');
  if (live.length > 0) {
    const observer = new IntersectionObserver((entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      startApp();
    });
    for (const element of live) observer.observe(element);
  }
}
