import { PAGE_VIEW_BEACON_PATH } from '@shared/public-site';
import { useEffect } from 'react';
import { useLocation } from 'react-router';

/*
 * The public site's own page-view count (the admin's Website Traffic): one small POST to our server per
 * page, no cookie, no third-party script. Visitors who ask not to be tracked (Do Not Track, Global
 * Privacy Control) send nothing at all.
 */

/** The outside page that brought the visitor: sent with the first page of the visit only. */
let referrerSent = false;
/** A re-render or a remount of the same page is not a second view. */
let lastPath: string | null = null;

function optedOut(): boolean {
  const nav = navigator as Navigator & { globalPrivacyControl?: boolean };
  return nav.doNotTrack === '1' || nav.globalPrivacyControl === true;
}

/** A plain prerendered page was counted by the boot module as it loaded (src/web/boot.ts). */
function takeBootModuleView(): void {
  const counted = document.documentElement.dataset.pageViewSent;
  if (counted === undefined) return;
  delete document.documentElement.dataset.pageViewSent;
  lastPath = counted;
  referrerSent = true;
}

export function sendPageView(path: string): void {
  if (typeof navigator === 'undefined' || optedOut()) return;
  takeBootModuleView();
  if (path === lastPath) return;
  lastPath = path;
  const referrer = referrerSent ? '' : document.referrer;
  referrerSent = true;
  const body = JSON.stringify(referrer ? { path, referrer: referrer.slice(0, 2048) } : { path });
  const blob = new Blob([body], { type: 'application/json' });
  if (navigator.sendBeacon?.(PAGE_VIEW_BEACON_PATH, blob)) return;
  void fetch(PAGE_VIEW_BEACON_PATH, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json' },
    credentials: 'omit',
    keepalive: true,
  }).catch(() => {});
}

/** Counts each page of the public site a signed-out visitor opens. */
export function usePageViewBeacon(enabled = true): void {
  const { pathname } = useLocation();
  useEffect(() => {
    if (enabled) sendPageView(pathname);
  }, [pathname, enabled]);
}
