/**
 * The device's storage is full (offline/storage-state.ts): screens are no longer saved for use
 * without signal and queued changes may fail. Said for as long as it holds, in the page's flow
 * between the top bar and the screen like the "Sign in again" notice (it never covers a screen's
 * controls), so the mechanic frees space while there is still a connection, not in the basement.
 */
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { isStorageFull, subscribeStorageFull } from '../../offline/storage-state';

export function StorageBanner() {
  const { t } = useTranslation();
  const full = useSyncExternalStore(subscribeStorageFull, isStorageFull, isStorageFull);
  if (!full) return null;
  // An alert, as the sign-in notice: changes are at risk, and a status region added with its text is often not read out.
  return (
    <div className="notice danger sign-in-again storage-full" role="alert">
      <span>{t('offline.storageFull')}</span>
    </div>
  );
}
