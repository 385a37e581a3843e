/** Text made safe for HTML element content and quoted attribute values (the five special characters). */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
