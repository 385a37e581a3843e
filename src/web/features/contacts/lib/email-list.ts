/**
 * Addresses pasted into a box: split on new lines, commas, semicolons and spaces; "Name <a@b.c>" gives
 * a@b.c; repeats (case-insensitive) count once.
 */
export function parseEmailList(
  text: string,
  isValid: (email: string) => boolean,
): { valid: string[]; invalid: string[] } {
  const seen = new Set<string>();
  const valid: string[] = [];
  const invalid: string[] = [];
  // "Ada Obi <ada@example.com>" → the address alone.
  const plain = text.replace(/[^\n,;<>]*<([^<>\s]+@[^<>\s]+)>/g, ' $1 ');
  for (const raw of plain.split(/[\n,;\s]+/)) {
    const token = raw.trim().replace(/^<|>$/g, '');
    if (!token?.includes('@')) {
      if (token) invalid.push(token);
      continue;
    }
    const key = token.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    if (isValid(token)) valid.push(token);
    else invalid.push(token);
  }
  return { valid, invalid };
}
