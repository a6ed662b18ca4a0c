/**
 * The foot of a dialog form: its error (read out as an alert), then Cancel and the submit button.
 * Extra buttons (children) sit between the two; without `submitLabel` only the cancel button shows
 * (a read-only form), and `cancelLabel` renames it (e.g. Close).
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export function FormActions({
  error,
  errorId,
  onCancel,
  cancelLabel,
  submitLabel,
  isPending = false,
  children,
}: {
  error: string | null;
  /** The error's id, for fields that point at it with aria-describedby. */
  errorId?: string;
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
        <p id={errorId} className="form-error" role="alert">
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
