/** §6: users are removed after confirmation. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { UserRow } from '../../../contract/users';
import { errorMessage } from '../../../lib/api-client';
import { Dialog } from '../../../components/ui/dialog';
import { useRemoveUser } from '../api/change-user';

export function RemoveUserDialog({ user, onClose, onRemoved }: { user: UserRow; onClose: () => void; onRemoved: () => void }) {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const remove = useRemoveUser(user.uid);
  return (
    <Dialog open title={t('users.remove.title')} onClose={onClose}>
      <p>{t('users.remove.question', { name: user.displayName, email: user.email })}</p>
      <p className="muted small">{t('users.remove.consequence')}</p>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" className="button ghost" onClick={onClose} autoFocus>
          {t('common.cancel')}
        </button>
        <button
          type="button"
          className="button danger"
          disabled={remove.isPending}
          onClick={() => remove.mutate(undefined, { onSuccess: onRemoved, onError: async (failure) => setError(await errorMessage(failure)) })}
        >
          {t('users.remove.confirm')}
        </button>
      </div>
    </Dialog>
  );
}
