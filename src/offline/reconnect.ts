/**
 * Back online, every screen showing the device's copy reads the server again at once, whatever
 * its stale time. TanStack refetches on reconnect only when its online state changes, and a
 * start without a connection begins "online" for it (it never saw the browser go offline): after
 * a reload in a basement, the "Offline · showing data saved …" banner stayed once the signal came
 * back, and the screen showed the old copy until the next search.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { Mirrored } from './mirror';

const isDeviceCopy = (data: unknown) => (data as Mirrored<unknown> | undefined)?.source === 'mirror';

export function refetchDeviceCopiesOnReconnect(client: QueryClient, target: Pick<Window, 'addEventListener' | 'removeEventListener'> = window): () => void {
  // cancelRefetch false: a read TanStack's own reconnect started (a copy gone stale) goes on, not twice.
  const run = () => void client.refetchQueries({ type: 'active', predicate: (query) => isDeviceCopy(query.state.data) }, { cancelRefetch: false });
  target.addEventListener('online', run);
  return () => target.removeEventListener('online', run);
}
