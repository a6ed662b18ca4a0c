/**
 * A row of tabs that scrolls sideways when it is wider than the screen (#21): the edge that hides
 * more tabs fades, and the selected tab is scrolled into view whenever it changes — so every tab
 * is reachable on a phone. The tabs themselves (role="tab" buttons) are the screen's.
 *
 * Positions are read where the browser has just laid the page out — in a ResizeObserver's
 * callback (the bar and each tab: the first layout, a count arriving, a font, a rotation) or at
 * the frame after a render, where it lays the page out anyway — and in React's commit only after
 * another tab was selected: a read of `offsetLeft` in the commit
 * makes the browser lay out the whole page in the middle of the render, which on a start is the
 * first layout of the screen inside the longest task (#22).
 */
import { useCallback, useLayoutEffect, useRef, useState, type ReactNode } from 'react';

export function TabBar({ label, className = '', children }: { label: string; className?: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [edges, setEdges] = useState({ start: false, end: false });
  const observer = useRef<ResizeObserver | null>(null);
  const observed = useRef(new WeakSet<Element>());
  /** The selected tab last brought into view; whether the observer has reported yet. */
  const revealed = useRef<Element | null>(null);
  const laidOut = useRef(false);
  /** The user moved the bar (a swipe, a wheel, its scrollbar) since the selected tab was placed. */
  const moved = useRef(false);
  const userMoves = useCallback(() => {
    moved.current = true;
  }, []);
  const measure = useCallback(() => {
    const list = ref.current;
    if (!list) return;
    const start = list.scrollLeft > 1;
    const end = list.scrollLeft + list.clientWidth < list.scrollWidth - 1;
    setEdges((value) => (value.start === start && value.end === end ? value : { start, end }));
  }, []);
  // The selected tab in view, without moving the page up or down.
  const reveal = useCallback(() => {
    const list = ref.current;
    if (!list) return;
    const tab = list.querySelector<HTMLElement>('[aria-selected="true"]');
    revealed.current = tab;
    if (tab) {
      const left = tab.offsetLeft - list.offsetLeft;
      const margin = 24;
      if (left - margin < list.scrollLeft) list.scrollLeft = Math.max(0, left - margin);
      else if (left + tab.offsetWidth + margin > list.scrollLeft + list.clientWidth) list.scrollLeft = left + tab.offsetWidth + margin - list.clientWidth;
    }
    measure();
  }, [measure]);
  // Layout effects that read no positions: the observer exists before the first layout.
  useLayoutEffect(() => {
    const list = ref.current;
    if (!list || typeof ResizeObserver === 'undefined') return;
    const watcher = new ResizeObserver(() => {
      laidOut.current = true;
      reveal();
    });
    observer.current = watcher;
    observed.current = new WeakSet();
    watcher.observe(list);
    return () => {
      watcher.disconnect();
      observer.current = null;
    };
  }, [reveal]);
  // After each render: tabs that are new are watched too (their width moves the selected one), and
  // a tab selected since the observer's first report is brought into view at once (a user's tap or
  // key; the observer reports the tab selected when the bar first appears).
  useLayoutEffect(() => {
    const list = ref.current;
    if (!list) return;
    const watcher = observer.current;
    if (watcher) {
      for (const tab of Array.from(list.children)) {
        if (observed.current.has(tab)) continue;
        observed.current.add(tab);
        watcher.observe(tab);
      }
    }
    const selected = list.querySelector('[aria-selected="true"]');
    if (selected !== revealed.current) moved.current = false;
    if (selected !== revealed.current && (laidOut.current || !watcher)) {
      reveal();
      return;
    }
    // Otherwise the selected tab is placed again at the next frame, where the browser lays the page
    // out anyway (reveal moves nothing when it is in view): the observer reports sizes only, and a
    // bar whose report had not come left the selected tab cut off at the edge (seen in CI, #21).
    // Not once the user has moved the bar to look at the other tabs.
    if (moved.current || typeof requestAnimationFrame !== 'function') return;
    const frame = requestAnimationFrame(() => {
      if (!moved.current) reveal();
    });
    return () => cancelAnimationFrame(frame);
  });
  return (
    <div className={`tab-bar${edges.start ? ' more-start' : ''}${edges.end ? ' more-end' : ''}`}>
      <div ref={ref} className={`tabs ${className}`.trim()} role="tablist" aria-label={label} onScroll={measure} onPointerDown={userMoves} onWheel={userMoves}>
        {children}
      </div>
    </div>
  );
}
