/** What Chromium offers (129+) to give the main thread back and carry on first when it is free again. */
interface TaskScheduler {
  yield?: () => Promise<void>;
}

/**
 * Resolves in a later task of the main thread, so work before and after it are separate tasks: the
 * browser can handle input and paint in between, and neither counts as one long task.
 */
export function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: TaskScheduler }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
