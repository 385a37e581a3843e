import { escapeHtml } from '@server/lib/html';
import type { UnsubscribeView } from './unsubscribe.service';

/*
 * The few pages recipients see: server-rendered, no script, one small stylesheet served from this host
 * (the app's CSP allows 'self'; no inline style or script is needed). They work on a custom tracking
 * domain too, since every URL here is relative.
 */

/** A transparent 1×1 GIF (43 bytes), allocated once. */
export const PIXEL_GIF = Buffer.from(
  'R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==',
  'base64',
);

export const PAGE_STYLESHEET_PATH = '/t/page.css';

export const PAGE_CSS = `*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;padding:1rem;
font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1c1917;background:#f5f5f4}
main{max-width:28rem;width:100%;background:#fff;border:1px solid #e7e5e4;border-radius:.75rem;padding:2rem}
h1{font-size:1.375rem;margin:0 0 .75rem}
p{margin:0 0 1rem}
button{font:inherit;font-weight:600;color:#fff;background:#b45309;border:0;border-radius:.5rem;padding:.625rem 1.25rem;cursor:pointer}
button:hover{background:#92400e}
button:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
.muted{color:#57534e;font-size:.875rem;margin:1rem 0 0}
label{display:block;font-weight:600;margin:0 0 .25rem}
input[type=email],input[type=text]{font:inherit;width:100%;padding:.5rem .625rem;border:1px solid #a8a29e;border-radius:.5rem;margin:0 0 1rem}
input:focus-visible{outline:3px solid #1d4ed8;outline-offset:1px}
.check{display:flex;gap:.5rem;align-items:flex-start;font-weight:400;font-size:.875rem}
.check input{margin-top:.25rem}
.error{color:#b91c1c;font-weight:600}
.hp{position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden}
a{color:#1d4ed8}
.issues{list-style:none;padding:0;margin:1rem 0 0}
.issues li{padding:.75rem 0;border-top:1px solid #e7e5e4}
.issues time{display:block;color:#57534e;font-size:.875rem}
.pages{display:flex;justify-content:space-between;gap:1rem;border-top:1px solid #e7e5e4;padding-top:.75rem}
.pages a[rel=next]{margin-left:auto}
`;

/**
 * A page of the recipient-facing kind (subscribe forms and the newsletter archive use it too): title
 * escaped, body as given. Kept out of search engines unless the page is meant to be found.
 */
export function publicPage(title: string, body: string, options: { indexable?: boolean } = {}): string {
  return page(title, body, options.indexable ?? false);
}

function page(title: string, body: string, indexable = false): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${indexable ? '' : '<meta name="robots" content="noindex, nofollow">\n'}<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${PAGE_STYLESHEET_PATH}">
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

export const INVALID_LINK_PAGE = page(
  'Link not valid',
  '<h1>This link is no longer valid</h1>\n<p>The address you followed does not lead anywhere. If you typed it, check it against the email.</p>',
);

export const UNAVAILABLE_PAGE = page(
  'Try again',
  '<h1>Something went wrong</h1>\n<p>We could not open this link just now. Please try again in a moment.</p>',
);

export const INVALID_UNSUBSCRIBE_PAGE = page(
  'Unsubscribe link not valid',
  '<h1>This unsubscribe link is not valid</h1>\n<p>Use the unsubscribe link in the email you received, or reply to the sender and ask to be removed.</p>',
);

export function renderUnsubscribeConfirmPage(options: { view: UnsubscribeView; actionPath: string }): string {
  const { view } = options;
  if (view.unsubscribed) return renderUnsubscribedPage(view);
  return page(
    'Unsubscribe',
    `<h1>Unsubscribe</h1>
<p>Stop receiving emails from <strong>${escapeHtml(view.senderName)}</strong> at <strong>${escapeHtml(view.maskedEmail)}</strong>?</p>
<form method="post" action="${escapeHtml(options.actionPath)}">
<input type="hidden" name="confirm" value="yes">
<button type="submit">Unsubscribe</button>
</form>
<p class="muted">You will not receive any more emails from this sender at this address.</p>`,
  );
}

export function renderUnsubscribedPage(view: UnsubscribeView): string {
  return page(
    'You are unsubscribed',
    `<h1>You are unsubscribed</h1>
<p><strong>${escapeHtml(view.senderName)}</strong> will not email <strong>${escapeHtml(view.maskedEmail)}</strong> again.</p>
<p class="muted">You can close this page.</p>`,
  );
}
