/**
 * §2: back from an order, the monitor's list is where it was left. The window's position is kept
 * per monitor address when an order is opened (`keep`), and put back when the screen opens again
 * on that address, once every page it shows is drawn: the pages are drawn whole then (`drawAll`),
 * not in batches, and the position is put back before the paint, so the list does not show at
 * its top first. Put back once; another address (a tab clicked before) leaves the window alone.
 */
import { useCallback, useRef, useState } from 'react';
import { forgetMonitorScroll, saveMonitorScroll, savedMonitorScroll } from '../utils/monitor-return';

export function useMonitorScroll(address: string, firstPage: number, pageCount: number) {
  // Read when the screen opens: the position of the visit that left to an order.
  const [pending, setPending] = useState(() => {
    const y = savedMonitorScroll(address);
    return y === null ? null : { address, y };
  });
  if (pending !== null && pending.address !== address) setPending(null);
  const restoring = pending !== null && pending.address === address;
  const drawnPages = useRef(new Set<number>());

  const onDrawn = useCallback(
    (page: number) => {
      if (pending === null) return;
      drawnPages.current.add(page);
      for (let index = 0; index < pageCount; index++) if (!drawnPages.current.has(firstPage + index)) return;
      window.scrollTo(0, pending.y);
      forgetMonitorScroll(pending.address);
      setPending(null);
    },
    [pending, firstPage, pageCount],
  );
  const keep = useCallback(() => saveMonitorScroll(address, window.scrollY), [address]);
  return { drawAll: restoring, onDrawn: restoring ? onDrawn : undefined, keep };
}
