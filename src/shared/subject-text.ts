/**
 * A subject as a list can show it: each merge tag becomes its fallback (`{{ firstName | default:
 * "friend" }}` → friend), or its field name in brackets when it has none ("[firstName]"), so a list
 * reads as the inbox would, not as template code.
 */
export function readableSubject(subject: string): string {
  return subject
    .replace(/\{\{\s*([^{}|]*?)\s*(?:\|([^{}]*))?\}\}/g, (_, name: string, filters: string | undefined) => {
      const fallback = filters ? /default:\s*(?:"([^"]*)"|'([^']*)')/.exec(filters) : null;
      if (fallback) return fallback[1] ?? fallback[2] ?? '';
      return `[${name.trim() || 'field'}]`;
    })
    .replace(/\{%[^%]*%\}/g, '')
    .replace(/\s{2,}/g, ' ')
    .trim();
}
