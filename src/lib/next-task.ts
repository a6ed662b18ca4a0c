/**
 * Gives the main thread back to the browser until the next task (#22): what is queued meanwhile
 * (a tap, a network answer, a paint) runs first. `scheduler.yield()` where the browser has it (the
 * continuation keeps its place ahead of other tasks), a timer otherwise.
 */
export function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
