import { startTransition, useEffect, useState } from 'react';

/** The rows drawn at once: a phone's screenful of order cards and a little more (#22). */
export const FIRST_ROWS = 5;

const afterPaint = (run: () => void): (() => void) => {
  // A frame, then a task: the rows drawn so far are painted before more are added.
  if (typeof requestAnimationFrame !== 'function') {
    const timer = setTimeout(run, 0);
    return () => clearTimeout(timer);
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(run, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    if (timer !== undefined) clearTimeout(timer);
  };
};

/**
 * How many of a list's `total` rows to draw (#22, decision 0034): the first `first` with the
 * answer, then `first` more after each paint, each batch in a React transition (rendered in
 * slices that yield to the browser). On a mid-range phone a page of 20 order cards is ~1,200
 * elements: drawn in one go it is a 300–500 ms task between the answer and the first paint of
 * the list, and the thumb waits for it. Drawn in batches, the first screenful shows at once and
 * no task is long. Another `list` (a key: another search, tab or page) starts again from the first
 * batch; new rows of the same list keep what is drawn.
 */
export function useProgressiveCount(list: string, total: number, first = FIRST_ROWS): number {
  const [drawn, setDrawn] = useState({ list, count: first });
  const count = drawn.list === list ? drawn.count : first;
  useEffect(() => {
    if (count >= total) return undefined;
    return afterPaint(() => startTransition(() => setDrawn({ list, count: count + first })));
  }, [list, count, total, first]);
  return Math.min(count, total);
}
