/**
 * The Paystack inline popup, loaded from the script URL the server hands out with each initialized
 * transaction: https://js.paystack.co/v2/inline.js in real mode, the fake's stand-in in test mode. Both
 * expose `window.PaystackPop`; the server has already created the transaction, so the popup only resumes
 * it by its access code.
 */

export interface PaystackTransaction {
  reference: string;
  status?: string;
  message?: string;
  trans?: string;
  transaction?: string;
}

export interface PaystackCallbacks {
  onSuccess: (transaction: PaystackTransaction) => void;
  onCancel: () => void;
  onError?: (error: { message?: string } | undefined) => void;
  onLoad?: () => void;
}

export interface PaystackPopInstance {
  resumeTransaction: (accessCode: string, callbacks: PaystackCallbacks) => unknown;
}

export type PaystackPopConstructor = new () => PaystackPopInstance;

declare global {
  interface Window {
    PaystackPop?: PaystackPopConstructor;
  }
}

const SCRIPT_ATTRIBUTE = 'data-paystack-inline';
const loads = new Map<string, Promise<PaystackPopConstructor | null>>();

/** Only http(s) script URLs are loaded; anything else from the server is refused, not injected. */
export function isLoadableScriptUrl(url: string, base = globalThis.location?.href): boolean {
  try {
    const parsed = new URL(url, base);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:';
  } catch {
    return false;
  }
}

/** The popup constructor when a script has put it on `window`, else null. */
export function getPaystackPop(): PaystackPopConstructor | null {
  return typeof window !== 'undefined' && typeof window.PaystackPop === 'function'
    ? window.PaystackPop
    : null;
}

/**
 * Adds the inline script once per URL and resolves with `window.PaystackPop`, or with null when the script
 * fails to load or does not define it (the payment screen then says the payment system is not ready).
 */
export function loadPaystackScript(url: string, timeoutMs = 20_000): Promise<PaystackPopConstructor | null> {
  const ready = getPaystackPop();
  if (ready && document.querySelector(`script[${SCRIPT_ATTRIBUTE}]`)) return Promise.resolve(ready);
  if (!isLoadableScriptUrl(url)) return Promise.resolve(null);

  const cached = loads.get(url);
  if (cached) return cached;

  const promise = new Promise<PaystackPopConstructor | null>((resolve) => {
    const script = document.createElement('script');
    script.src = url;
    script.async = true;
    script.setAttribute(SCRIPT_ATTRIBUTE, '');
    const timer = window.setTimeout(() => finish(null), timeoutMs);
    function finish(result: PaystackPopConstructor | null) {
      window.clearTimeout(timer);
      if (!result) {
        // A failed load may be retried (a flaky network), so it must not stay cached.
        loads.delete(url);
        script.remove();
      }
      resolve(result);
    }
    script.addEventListener('load', () => finish(getPaystackPop()));
    script.addEventListener('error', () => finish(null));
    document.head.appendChild(script);
  });
  loads.set(url, promise);
  return promise;
}
