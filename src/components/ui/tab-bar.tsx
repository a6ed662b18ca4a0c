/**
 * A row of tabs that scrolls sideways when it is wider than the screen (#21): the edge that hides
 * more tabs fades, and the selected tab is scrolled into view whenever it changes — so every tab
 * is reachable on a phone. The tabs themselves (role="tab" buttons) are the screen's.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';

export function TabBar({ label, className = '', children }: { label: string; className?: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [edges, setEdges] = useState({ start: false, end: false });
  const measure = useCallback(() => {
    const list = ref.current;
    if (!list) return;
    const start = list.scrollLeft > 1;
    const end = list.scrollLeft + list.clientWidth < list.scrollWidth - 1;
    setEdges((value) => (value.start === start && value.end === end ? value : { start, end }));
  }, []);
  const selected = ref.current?.querySelector<HTMLElement>('[aria-selected="true"]')?.id ?? null;
  // The selected tab in view, without moving the page up or down.
  useLayoutEffect(() => {
    const list = ref.current;
    const tab = list?.querySelector<HTMLElement>('[aria-selected="true"]');
    if (!list || !tab) return;
    const left = tab.offsetLeft - list.offsetLeft;
    const margin = 24;
    if (left - margin < list.scrollLeft) list.scrollLeft = Math.max(0, left - margin);
    else if (left + tab.offsetWidth + margin > list.scrollLeft + list.clientWidth) list.scrollLeft = left + tab.offsetWidth + margin - list.clientWidth;
    measure();
  });
  useEffect(() => {
    const list = ref.current;
    if (!list || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(list);
    return () => observer.disconnect();
  }, [measure, selected]);
  return (
    <div className={`tab-bar${edges.start ? ' more-start' : ''}${edges.end ? ' more-end' : ''}`}>
      <div ref={ref} className={`tabs ${className}`.trim()} role="tablist" aria-label={label} onScroll={measure}>
        {children}
      </div>
    </div>
  );
}
