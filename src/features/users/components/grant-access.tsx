/**
 * "Give access" on the priority manager (§6): those who give PM read or write (UM_PM_grant_read /
 * _write) list no users, so they name the colleague by e-mail address; the permission editor then
 * opens on that colleague, offering only what the granter may change (the server's scope, the
 * same rule it enforces). The priority screen gets this from the route table (features do not
 * import each other).
 */
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { UserRow } from '../../../contract/users';
import { isEmailShaped } from '../../../domain/email';
import { errorMessage } from '../../../lib/api-client';
import { useOnline } from '../../../lib/use-online';
import { Dialog } from '../../../components/ui/dialog';
import { FormActions } from '../../../components/ui/form-actions';
import { Icon } from '../../../components/ui/icons';
import { useToastNotice } from '../../../components/ui/toast';
import { findUserByEmail } from '../api/find-user';
import { PermissionsDialog } from './permissions-dialog';
import { useUnsavedText } from '../../../lib/unsaved-text';

/**
 * `render`: how the action is offered (a button by default); on a phone with other actions the
 * priority screen puts it in its "⋯" menu, where a row of three buttons would not fit.
 */
export function GrantAccess({ render }: { render?: (open: () => void) => ReactNode }) {
  const { t } = useTranslation();
  const online = useOnline();
  const [step, setStep] = useState<'closed' | 'name' | { user: UserRow }>('closed');
  const setNotice = useToastNotice();
  const open = () => setStep('name');
  return (
    <>
      {render ? (
        render(open)
      ) : (
        <button type="button" className="button" disabled={!online} onClick={open}>
          <Icon name="users" size={20} />
          {t('users.grantAccess.button')}
        </button>
      )}
      {step === 'name' && <NameColleague onClose={() => setStep('closed')} onFound={(user) => setStep({ user })} />}
      {typeof step === 'object' && (
        <PermissionsDialog
          user={step.user}
          onClose={() => setStep('closed')}
          onSaved={() => {
            setStep('closed');
            setNotice(t('users.permissions.saved', { email: step.user.email }));
          }}
        />
      )}
    </>
  );
}

function NameColleague({ onClose, onFound }: { onClose: () => void; onFound: (user: UserRow) => void }) {
  const { t } = useTranslation();
  const id = useId();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [looking, setLooking] = useState(false);
  const unsaved = email.trim() !== '';
  useUnsavedText(unsaved);
  // A lookup still on its way when the dialog closes is dropped: its answer opens nothing.
  const lookup = useRef<AbortController | null>(null);
  useEffect(() => () => lookup.current?.abort(), []);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const wanted = email.trim();
    if (wanted === '') return setError(t('users.grantAccess.emailRequired'));
    if (!isEmailShaped(wanted)) return setError(t('users.grantAccess.emailInvalid'));
    lookup.current?.abort();
    const controller = new AbortController();
    lookup.current = controller;
    setLooking(true);
    findUserByEmail(wanted, controller.signal).then(
      (user) => {
        if (!controller.signal.aborted) onFound(user);
      },
      async (failure: unknown) => {
        if (controller.signal.aborted) return;
        setLooking(false);
        setError(await errorMessage(failure));
      },
    );
  };
  return (
    <Dialog open title={t('users.grantAccess.title')} onClose={onClose} unsaved={unsaved}>
      <form className="form-grid" onSubmit={submit} noValidate>
        <label htmlFor={`${id}-email`}>{t('users.grantAccess.email')}</label>
        <input
          id={`${id}-email`}
          type="email"
          inputMode="email"
          autoComplete="off"
          autoFocus
          value={email}
          aria-invalid={error !== null}
          aria-describedby={error === null ? `${id}-help` : `${id}-error ${id}-help`}
          onChange={(event) => setEmail(event.target.value)}
        />
        <p id={`${id}-help`} className="muted small">
          {t('users.grantAccess.help')}
        </p>
        <FormActions error={error} errorId={`${id}-error`} onCancel={onClose} submitLabel={t('users.grantAccess.find')} isPending={looking} />
      </form>
    </Dialog>
  );
}
