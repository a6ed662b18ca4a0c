/**
 * The foot of a dialog form: its error (read out as an alert), then Cancel and the submit button.
 * Extra buttons (children) sit between the two; without `submitLabel` only the cancel button shows
 * (a read-only form), and `cancelLabel` renames it (e.g. Close).
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export function FormActions({
  error,
  onCancel,
  cancelLabel,
  submitLabel,
  isPending = false,
  children,
}: {
  error: string | null;
  onCancel: () => void;
  cancelLabel?: string;
  submitLabel?: string;
  isPending?: boolean;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" className="button ghost" onClick={onCancel}>
          {cancelLabel ?? t('common.cancel')}
        </button>
        {children}
        {submitLabel && (
          <button type="submit" className="button primary" disabled={isPending}>
            {submitLabel}
          </button>
        )}
      </div>
    </>
  );
}
