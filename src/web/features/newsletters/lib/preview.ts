/** A bulk email's body as the reader's client shows it (the server wraps it the same way when sending). */
export function bulkPreviewHtml(fragment: string, title: string): string {
  const safeTitle = title.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${safeTitle}</title></head><body style="margin:0;padding:16px;font-family:Helvetica, Arial, sans-serif;font-size:15px;line-height:1.6;color:#1f2937;">${fragment || '<p style="color:#9ca3af">Your email appears here as you write it.</p>'}</body></html>`;
}
