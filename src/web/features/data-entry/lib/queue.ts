/** Load the next page of the queue when fewer than this many unhandled items are left. */
export const QUEUE_PREFETCH_AT = 5;

/**
 * The queue as the officer sees it: the loaded pages in order, without the contacts handled (verified,
 * invalidated) or skipped in this visit. The first is the one on screen.
 */
export function remainingQueue<T extends { id: string }>(
  pages: readonly { items: readonly T[] }[] | undefined,
  handled: ReadonlySet<string>,
): T[] {
  const seen = new Set<string>();
  const remaining: T[] = [];
  for (const page of pages ?? []) {
    for (const item of page.items) {
      // Pages fetched after an edit can repeat a contact; show it once.
      if (handled.has(item.id) || seen.has(item.id)) continue;
      seen.add(item.id);
      remaining.push(item);
    }
  }
  return remaining;
}

export function shouldLoadMore(remaining: number, hasNextPage: boolean, fetching: boolean): boolean {
  return hasNextPage && !fetching && remaining < QUEUE_PREFETCH_AT;
}

/** Keys of the queue (when no text field has focus). */
export const QUEUE_KEYS = { verify: 'v', invalid: 'i', skip: 's', edit: 'e' } as const;

/** True when a key press belongs to a text field or an open dialog, not to the queue shortcuts. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!target || typeof (target as HTMLElement).closest !== 'function') return false;
  const element = target as HTMLElement;
  if (element.isContentEditable) return true;
  return Boolean(
    element.closest(
      'input, textarea, select, [role="dialog"], [role="alertdialog"], [role="listbox"], [role="menu"]',
    ),
  );
}
