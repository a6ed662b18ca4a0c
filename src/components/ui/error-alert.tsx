import { useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { currentError, dismissError, onErrorAlert, type AlertState } from '../../lib/error-alert';

/**
 * Where the alert is shown. A modal dialog (showModal) makes the rest of the page inert, so an
 * alert outside it is not announced, and on a phone the bottom sheet covers it: an error while a
 * dialog is open (a confirmation's call refused) went unseen. The innermost open dialog shows the
 * alerts raised after it opened inside itself instead, and the page's own alert stands down so it
 * is never there twice. An alert already on the page when the dialog opens stays the page's (it
 * was announced there; moved into the dialog it was read out again).
 *
 * An alert is announced once: shown again elsewhere (the page's alert back when the dialog that
 * showed it closes), it is shown without role="alert", so it is not read out a second time.
 */
interface Host {
  dialogId: string;
  /** The alert shown when the dialog opened: it shows only later ones. */
  after: number;
}
let hosts: readonly Host[] = [];
/** Alerts up to this id have been shown (and announced) by the host before the latest change of host. */
let announcedUpTo = 0;
const hostListeners = new Set<() => void>();

/** An open dialog takes the alert until the returned function is called (when it closes). */
export function hostErrorAlert(dialogId: string): () => void {
  const change = (next: readonly Host[]) => {
    // Whatever alert is up now has been shown by the host that is leaving (or standing down).
    announcedUpTo = Math.max(announcedUpTo, currentError()?.id ?? 0);
    hosts = next;
    hostListeners.forEach((listener) => listener());
  };
  change([...hosts, { dialogId, after: currentError()?.id ?? 0 }]);
  return () => change(hosts.filter((host) => host.dialogId !== dialogId));
}

const currentHost = () => hosts[hosts.length - 1] ?? null;
function subscribeHost(listener: () => void) {
  hostListeners.add(listener);
  return () => hostListeners.delete(listener);
}

/** §2 global dismissible error alert (9 s). Text only: server messages never become markup. */
export function ErrorAlert({ dialogId }: { dialogId?: string }) {
  // The alert's own store (lib/error-alert.ts), read the same way on the server (tests render to markup).
  const alert = useSyncExternalStore(onErrorAlert, currentError, currentError);
  const host = useSyncExternalStore(subscribeHost, currentHost, currentHost);
  // A dialog shows only once it is the host (its effect has run): until then the page shows it.
  const shown = dialogId === undefined ? host === null : host?.dialogId === dialogId && alert !== null && alert.id > host.after;
  if (!alert || !shown) return null;
  return <AlertBox key={alert.id} alert={alert} inDialog={dialogId !== undefined} />;
}

function AlertBox({ alert, inDialog }: { alert: AlertState; inDialog: boolean }) {
  const { t } = useTranslation();
  // Decided when it appears: an alert already announced is shown again, not read out again.
  const [announce] = useState(() => alert.id > announcedUpTo);
  return (
    <div className={`error-alert${inDialog ? ' in-dialog' : ''}`} role={announce ? 'alert' : undefined}>
      <span className="error-alert-text">{alert.message}</span>
      <button type="button" className="icon-button" onClick={dismissError} aria-label={t('common.dismiss')}>
        ×
      </button>
    </div>
  );
}
