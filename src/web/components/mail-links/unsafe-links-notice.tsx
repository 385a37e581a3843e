import { shownUrl, type UnsafeUrl, unsafeUrlAttributes } from '@shared/mail-links';
import { AlertTriangle } from 'lucide-react';
import { useMemo } from 'react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';

/*
 * The editors' warning about links the send will remove. The browser parses the body as a mail client
 * would and judges each URL attribute by the same shared rule (shared/mail-links.ts) the server applies
 * when it sends, so what is listed here is what goes missing from the recipient's copy.
 */

export interface UnsafeLinks {
  /** Removed for every recipient: script, data or relative links, images not on https://. */
  unsafe: { value: string; reason: string }[];
  /** Merge tags that decide the link per contact (`href="{{ website }}"`). */
  perContact: { value: string }[];
}

const NONE: UnsafeLinks = { unsafe: [], perContact: [] };

/** The unsafe and per-contact URL attributes of an email body (a template: merge tags not yet filled). */
export function findUnsafeLinks(html: string): UnsafeLinks {
  if (!html?.includes('=') || typeof DOMParser === 'undefined') return NONE;
  // A parsed, never-attached document: nothing in it loads or runs.
  const document = new DOMParser().parseFromString(html, 'text/html');
  const unsafe: UnsafeUrl[] = [];
  const perContact: UnsafeUrl[] = [];
  for (const element of document.querySelectorAll('*')) {
    if (element.attributes.length === 0) continue;
    const attributes: Record<string, string> = {};
    for (const attribute of element.attributes) attributes[attribute.name.toLowerCase()] = attribute.value;
    const found = unsafeUrlAttributes(element.localName, attributes, { template: true });
    unsafe.push(...found.unsafe);
    perContact.push(...found.perContact);
  }
  return { unsafe, perContact };
}

export function UnsafeLinksNotice({
  html,
  links,
  testId = 'unsafe-links-notice',
}: {
  /** An HTML body to scan… */
  html?: string;
  /** …or what is already known to be removed (a block newsletter's dropped links). */
  links?: UnsafeLinks;
  testId?: string;
}) {
  const found = useMemo(() => links ?? findUnsafeLinks(html ?? ''), [html, links]);
  if (found.unsafe.length === 0 && found.perContact.length === 0) return null;
  const count = found.unsafe.length;
  return (
    <Alert variant="warning" data-testid={testId}>
      <AlertTriangle aria-hidden="true" />
      <AlertTitle>
        {count > 0
          ? `${count === 1 ? 'A link' : `${count} links`} will be removed when this email is sent`
          : 'Some links depend on your contacts’ data'}
      </AlertTitle>
      <AlertDescription>
        <p>
          Emails keep only https://, mailto: and tel: links, and images from https:// addresses. The link text
          stays; the link does not.
        </p>
        {count > 0 && (
          <ul className="mt-1 list-disc space-y-0.5 pl-5">
            {found.unsafe.slice(0, 8).map((item, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the same URL may be listed twice
              <li key={i} className="break-all">
                <code>{shownUrl(item.value)}</code> — {item.reason}
              </li>
            ))}
            {count > 8 && <li>and {count - 8} more</li>}
          </ul>
        )}
        {found.perContact.length > 0 && (
          <p className="mt-1">
            {[...new Set(found.perContact.map((item) => shownUrl(item.value)))]
              .slice(0, 3)
              .map((value, i) => (
                <span key={value}>
                  {i > 0 && ', '}
                  <code>{value}</code>
                </span>
              ))}{' '}
            {found.perContact.length === 1 ? 'is' : 'are'} filled from each contact: a contact whose value is
            not such a link gets the text without the link. The pre-launch check counts them; or put a fixed
            https:// before the merge tag.
          </p>
        )}
      </AlertDescription>
    </Alert>
  );
}
