/** Edit a user's expiration date (§4: an expired account can be given a new date, and is re-checked on the next call). */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isPastLastDay } from '../../../domain/expiration';
import type { UserRow } from '../../../contract/users';
import { errorMessage } from '../../../lib/api-client';
import { Dialog } from '../../../components/ui/dialog';
import { FormActions } from '../../../components/ui/form-actions';
import { useUpdateExpiration } from '../api/change-user';
import { UserStatus } from './user-table';
import { useUnsavedText } from '../../../lib/unsaved-text';

export function ExpirationDialog({ user, onClose, onSaved }: { user: UserRow; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const [never, setNever] = useState(user.expirationDate === null);
  const [date, setDate] = useState(user.expirationDate ?? '');
  const [error, setError] = useState<string | null>(null);
  // The missing date is the field's own error: tied to it (read with it, marked invalid).
  const [dateMissing, setDateMissing] = useState(false);
  // #19 item 20: a past last day expires the user at once; say so and save only when confirmed.
  const [confirmedPast, setConfirmedPast] = useState<string | null>(null);
  const save = useUpdateExpiration(user.uid);
  const unsaved = never !== (user.expirationDate === null) || (!never && date !== (user.expirationDate ?? ''));
  const release = useUnsavedText(unsaved);
  // Judged as the server judges it: by the day of the user's plants (accessDay, from the server),
  // not by this device's clock; the UTC day from a service that does not send it.
  const isPast = !never && /^\d{4}-\d{2}-\d{2}$/.test(date) && (user.accessDay ? date < user.accessDay : isPastLastDay(date));
  const askingPast = isPast && confirmedPast === date;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setDateMissing(false);
    if (!never && !/^\d{4}-\d{2}-\d{2}$/.test(date)) {
      setDateMissing(true);
      return setError(t('users.expiration.dateRequired'));
    }
    if (isPast && confirmedPast !== date) return setConfirmedPast(date);
    // The date the dialog opened with: refused (412) if another manager changed it since.
    save
      .mutateAsync({ expirationDate: never ? null : date, openedWith: user.expirationDate })
      .then(() => {
        release();
        onSaved();
      }, async (failure: unknown) => setError(await errorMessage(failure)));
  };
  return (
    <Dialog open title={t('users.expiration.title', { name: user.displayName })} onClose={onClose} unsaved={unsaved}>
      {/* noValidate: the browser's own "required" bubble would pre-empt our message, which is tied to the field. */}
      <form className="form-grid" onSubmit={submit} noValidate>
        <p>
          {user.email} · <UserStatus user={user} />
        </p>
        <label className="check-row">
          <input type="checkbox" checked={never} onChange={(event) => setNever(event.target.checked)} />
          {t('users.expiration.never')}
        </label>
        <label htmlFor="expiration-date">{t('users.expiration.lastDay')}</label>
        <input
          id="expiration-date"
          type="date"
          value={date}
          disabled={never}
          required={!never}
          aria-invalid={(dateMissing && !never) || undefined}
          aria-describedby={dateMissing && !never ? 'expiration-date-error' : undefined}
          onChange={(event) => setDate(event.target.value)}
        />
        <p className="muted small">{t('users.expiration.help')}</p>
        {askingPast && (
          <p className="notice" role="alert">
            {t('users.expiration.pastWarning', { name: user.displayName })}
          </p>
        )}
        <FormActions error={error} errorId="expiration-date-error" onCancel={onClose} submitLabel={askingPast ? t('users.expiration.expireNow') : t('users.save')} isPending={save.isPending} />
      </form>
    </Dialog>
  );
}
