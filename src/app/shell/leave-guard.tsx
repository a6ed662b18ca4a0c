/**
 * Leaving the screen while a form holds typed text not saved yet (a link, the bottom bar, the
 * phone's back gesture) asks first: staying keeps the text, leaving throws it away on the user's
 * word (lib/unsaved-text.ts). Changes of the address within one screen (a tab, a page) do not ask,
 * unless the form is the query's (another person's notification settings: `?uid=`).
 * Leaving the app (a reload, closing the tab) gets the browser's own question.
 */
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router-dom';
import { Dialog } from '../../components/ui/dialog';
import { unsavedTextHeld, unsavedTextTiedToQuery } from '../../lib/unsaved-text';

export function LeaveGuard() {
  const { t } = useTranslation();
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      unsavedTextHeld() && (currentLocation.pathname !== nextLocation.pathname || (currentLocation.search !== nextLocation.search && unsavedTextTiedToQuery())),
  );
  const stayRef = useRef<HTMLButtonElement>(null);
  const blocked = blocker.state === 'blocked';
  useEffect(() => {
    if (blocked) stayRef.current?.focus();
  }, [blocked]);
  // A reload, a closed tab or a typed address leaves the app, not the screen: the browser's own
  // question asks first (it words it itself; the page may only ask for it).
  useEffect(() => {
    const ask = (event: BeforeUnloadEvent) => {
      if (!unsavedTextHeld()) return;
      event.preventDefault();
      // Older browsers ask only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, []);
  const stay = () => blocker.reset?.();
  return (
    <Dialog open={blocked} title={t('shell.leave.title')} onClose={stay}>
      <p>{t('shell.leave.text')}</p>
      <div className="dialog-actions">
        {/* First and focused: staying loses nothing. */}
        <button ref={stayRef} type="button" className="button primary" onClick={stay}>
          {t('shell.leave.stay')}
        </button>
        <button type="button" className="button danger" onClick={() => blocker.proceed?.()}>
          {t('shell.leave.anyway')}
        </button>
      </div>
    </Dialog>
  );
}
