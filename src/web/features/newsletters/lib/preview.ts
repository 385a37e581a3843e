import type { MergeTagProblems, PersonalizePreview } from '@shared/personalize';

/** A bulk email's body as the reader's client shows it (the server wraps it the same way when sending). */
export function bulkPreviewHtml(fragment: string, title: string): string {
  const safeTitle = title.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${safeTitle}</title></head><body style="margin:0;padding:16px;font-family:Helvetica, Arial, sans-serif;font-size:15px;line-height:1.6;color:#1f2937;">${fragment || '<p style="color:#9ca3af">Your email appears here as you write it.</p>'}</body></html>`;
}

/** Who the personalised preview shows the email as: a contact of the audience lists, or the sample one. */
export function previewContactLabel({
  contact,
  sample,
  hasLists,
}: Pick<PersonalizePreview, 'contact' | 'sample'> & { hasLists: boolean }): string {
  const name = [contact.firstName, contact.lastName].filter(Boolean).join(' ');
  const company = contact.company ? ` · ${contact.company}` : '';
  if (!sample) {
    const who = name ? `${name} (${contact.email})` : contact.email;
    return `As ${who}${company}, a contact of the audience lists`;
  }
  // The lists are chosen when sending; until then, or while they are empty, there is nobody real to show.
  const why = hasLists ? 'the audience lists have no contact to show' : 'no audience lists are chosen yet';
  return `As a sample contact, ${name || contact.email}${company} (${why})`;
}

/** The merge tag problems worth a warning under the preview, one line each; none when all is well. */
export function mergeTagWarnings({ unknownTags, syntaxErrors }: MergeTagProblems): string[] {
  const lines: string[] = [];
  if (unknownTags.length > 0) {
    const plural = unknownTags.length === 1 ? '' : 's';
    lines.push(
      `Unknown merge tag${plural}: ${unknownTags.join(', ')}. Check the spelling, or the audience lists' custom fields.`,
    );
  }
  if (syntaxErrors.length > 0) lines.push(`Merge tags that cannot be read: ${syntaxErrors.join('; ')}`);
  return lines;
}

/** The links this copy loses (script, data or relative links, a contact's value among them), as one line. */
export function removedLinkWarnings({ removedLinks }: Pick<PersonalizePreview, 'removedLinks'>): string[] {
  if (removedLinks.length === 0) return [];
  const head =
    removedLinks.length === 1
      ? 'A link is removed from this copy'
      : `${removedLinks.length} links are removed from this copy`;
  return [`${head} (only https://, mailto: and tel: links are sent): ${removedLinks.slice(0, 5).join('; ')}`];
}
