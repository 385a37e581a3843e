import { describe, expect, it } from 'vitest';

import { reducer, TOAST_DEFAULT_DURATION, TOAST_LIMIT, TOAST_REMOVE_DELAY } from '@/hooks/use-toast';

describe('toast store', () => {
  it('shows one notification at a time for 5 s and removes it 1,000,000 ms after it closes', () => {
    expect(TOAST_LIMIT).toBe(1);
    expect(TOAST_REMOVE_DELAY).toBe(1_000_000);
    expect(TOAST_DEFAULT_DURATION).toBe(5000);
  });

  it('keeps only the newest notification visible', () => {
    let state = reducer({ toasts: [] }, { type: 'ADD_TOAST', toast: { id: '1', title: 'First' } });
    state = reducer(state, { type: 'ADD_TOAST', toast: { id: '2', title: 'Second' } });
    expect(state.toasts.map((t) => t.id)).toEqual(['2']);
  });

  it('closes a dismissed notification and removes it on REMOVE', () => {
    let state = reducer({ toasts: [] }, { type: 'ADD_TOAST', toast: { id: '9', open: true } });
    state = reducer(state, { type: 'DISMISS_TOAST', toastId: '9' });
    expect(state.toasts[0]?.open).toBe(false);
    state = reducer(state, { type: 'REMOVE_TOAST', toastId: '9' });
    expect(state.toasts).toEqual([]);
  });
});
