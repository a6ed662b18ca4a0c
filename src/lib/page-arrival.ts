/**
 * "Load more" hands the focus to the page it brought. The pressed button leaves with the click (it
 * moves under the new page), so the focus fell back to the document: a keyboard or screen-reader
 * user started again at the top of the screen. The button says which page it asked for
 * (`expectPage`); that page, once its rows are drawn, takes the focus on its first control (or
 * itself) — only while the focus is still lost: someone who moved on elsewhere keeps their place.
 */
import { useEffect, useRef } from 'react';

/** An expectation older than this is forgotten (the page never came, or came long after). */
const ARRIVAL_MS = 30_000;
const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

let expected: { page: number; screen: string; at: number } | null = null;

/** The screen a page belongs to: an expectation of one list is no other screen's. */
const screen = () => window.location.pathname;

/** Called by a "Load more" button for the page it asks for. */
export function expectPage(page: number): void {
  expected = { page, screen: screen(), at: Date.now() };
}

/** Whether the focus is nowhere (its element left the page, or nothing had it). */
function focusLost(): boolean {
  const active = document.activeElement;
  return !active || active === document.body || !active.isConnected;
}

/**
 * The element of one loaded page; once `ready` (its rows drawn), it takes the focus if this page
 * was asked for by "Load more" and the focus is lost.
 */
export function usePageArrivalFocus<T extends HTMLElement>(page: number, ready: boolean) {
  const ref = useRef<T>(null);
  useEffect(() => {
    const element = ref.current;
    if (!ready || !element || expected?.page !== page) return;
    const fresh = Date.now() - expected.at < ARRIVAL_MS && expected.screen === screen();
    expected = null;
    if (!fresh || !focusLost()) return;
    const target = element.querySelector<HTMLElement>(FOCUSABLE) ?? element;
    if (target === element && !element.hasAttribute('tabindex')) element.tabIndex = -1;
    target.focus();
  }, [page, ready]);
  return ref;
}
