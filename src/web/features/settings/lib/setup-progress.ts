/** The three quick-setup steps, each ticked from real data; null while its data is loading. */
export interface SetupState {
  connected: boolean | null;
  hasLists: boolean | null;
  hasCampaign: boolean | null;
}

/** "1 of 3 setup steps done." counted over every step the page shows, or null until all are known. */
export function setupProgress(state: SetupState): string | null {
  const steps = [state.connected, state.hasLists, state.hasCampaign];
  if (steps.some((step) => step === null)) return null;
  const done = steps.filter(Boolean).length;
  if (done === steps.length) return 'All 3 setup steps done.';
  return `${done} of ${steps.length} setup steps done.`;
}
