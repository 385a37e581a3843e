const URL_PATTERN = /https?:\/\/[^\s"'<>()[\]{}]+/gi;

/** Our open pixel: /t/o/<token>.gif (shared TRACKING_PATHS.open). */
const OPEN_PIXEL_PATH = /^\/t\/o\/[A-Za-z0-9_-]+\.gif$/;

/**
 * The message's HTML without our open pixel: looking at a caught message here must not count as the
 * recipient opening it (the viewer would load the pixel like a mail client does).
 */
export function withoutOpenPixel(html: string): string {
  return html.replace(/<img\b[^>]*\bsrc\s*=\s*["'][^"']*\/t\/o\/[A-Za-z0-9_-]+\.gif["'][^>]*>/gi, '');
}

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&quot;': '"',
  '&#39;': "'",
  '&lt;': '<',
  '&gt;': '>',
};

function decodeEntities(value: string): string {
  return value.replace(/&(amp|quot|#39|lt|gt);/g, (match) => ENTITIES[match] ?? match);
}

/**
 * The http(s) links of a message, in order of appearance and without duplicates. The HTML part is shown in a
 * sandboxed frame where links do not open, so the viewer lists them to let a developer follow, say, a
 * password-reset link.
 */
export function extractMailLinks(html: string | null, text: string | null, limit = 20): string[] {
  const found = new Set<string>();
  for (const source of [html ? decodeEntities(html) : null, text]) {
    if (!source) continue;
    for (const match of source.matchAll(URL_PATTERN)) {
      const url = match[0].replace(/[.,;:!?]+$/, '');
      try {
        const parsed = new URL(url);
        if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') continue;
        // XML namespaces (xmlns="http://www.w3.org/…") and the open pixel are not links to follow.
        if (parsed.hostname === 'www.w3.org' || OPEN_PIXEL_PATH.test(parsed.pathname)) continue;
        found.add(parsed.href);
      } catch {
        // Not a URL after all; skip it.
      }
      if (found.size >= limit) return [...found];
    }
  }
  return [...found];
}
