/**
 * A background task run every `intervalMs` (and once at start when asked). A run still going when
 * the next is due is not started twice; stop() clears the timer and waits for a running one. The
 * task handles its own errors (it logs them): a failed run never stops the next.
 */
export interface Periodic {
  stop(): Promise<void>;
}

export function startPeriodic(task: () => Promise<void>, intervalMs: number, options: { runAtStart?: boolean } = {}): Periodic {
  let running: Promise<void> | null = null;
  const run = () => {
    if (running) return;
    running = task().finally(() => {
      running = null;
    });
  };
  if (options.runAtStart) run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
