import { useSyncExternalStore } from 'react';
import { NARROW_BREAKPOINT_PX } from '../domain/constants';

export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (listener) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', listener);
      return () => list.removeEventListener('change', listener);
    },
    () => window.matchMedia(query).matches,
  );
}

/** §9: narrow screens are 991 px wide or less. */
export function useIsNarrow(): boolean {
  return useMediaQuery(`(max-width: ${NARROW_BREAKPOINT_PX}px)`);
}
