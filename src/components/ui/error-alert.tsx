import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { currentError, dismissError, onErrorAlert } from '../../lib/error-alert';

/**
 * Where the alert is shown. A modal dialog (showModal) makes the rest of the page inert, so an
 * alert outside it is not announced, and on a phone the bottom sheet covers it: an error while a
 * dialog is open (a confirmation's call refused) went unseen. The innermost open dialog shows the
 * alert inside itself instead, and the page's own alert stands down so it is never there twice.
 */
let hosts: readonly string[] = [];
const hostListeners = new Set<() => void>();

/** An open dialog takes the alert until the returned function is called (when it closes). */
export function hostErrorAlert(dialogId: string): () => void {
  const change = (next: readonly string[]) => {
    hosts = next;
    hostListeners.forEach((listener) => listener());
  };
  change([...hosts, dialogId]);
  return () => change(hosts.filter((id) => id !== dialogId));
}

const currentHost = () => hosts[hosts.length - 1] ?? null;
function subscribeHost(listener: () => void) {
  hostListeners.add(listener);
  return () => hostListeners.delete(listener);
}

/** §2 global dismissible error alert (9 s). Text only: server messages never become markup. */
export function ErrorAlert({ dialogId }: { dialogId?: string }) {
  const { t } = useTranslation();
  // The alert's own store (lib/error-alert.ts), read the same way on the server (tests render to markup).
  const alert = useSyncExternalStore(onErrorAlert, currentError, currentError);
  const host = useSyncExternalStore(subscribeHost, currentHost, currentHost);
  // A dialog shows it from its first render on, before its effect has made it the host.
  const shown = dialogId === undefined ? host === null : host === dialogId || host === null;
  if (!alert || !shown) return null;
  return (
    <div className={`error-alert${dialogId === undefined ? '' : ' in-dialog'}`} role="alert" key={alert.id}>
      <span className="error-alert-text">{alert.message}</span>
      <button type="button" className="icon-button" onClick={dismissError} aria-label={t('common.dismiss')}>
        ×
      </button>
    </div>
  );
}
