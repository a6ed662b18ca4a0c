import { useTranslation } from 'react-i18next';
import { dismissError, useErrorAlert } from '../../lib/error-alert';

/** §2 global dismissible error alert (9 s). Text only: server messages never become markup. */
export function ErrorAlert() {
  const { t } = useTranslation();
  const alert = useErrorAlert();
  if (!alert) return null;
  return (
    <div className="error-alert" role="alert" key={alert.id}>
      <span className="error-alert-text">{alert.message}</span>
      <button type="button" className="icon-button" onClick={dismissError} aria-label={t('common.dismiss')}>
        ×
      </button>
    </div>
  );
}
