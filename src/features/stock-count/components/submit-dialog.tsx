import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/ui/dialog';
import '../stock-count.css';

/** Submission is final (§4): say what will happen, refuse while lines are uncounted or need a book-quantity choice. */
export function SubmitDialog({
  open,
  stockCountId,
  counted,
  total,
  bookMoved,
  online,
  onConfirm,
  onClose,
}: {
  open: boolean;
  stockCountId: number;
  counted: number;
  total: number;
  /** Counted lines whose book quantity moved: the counter chooses before submitting. */
  bookMoved: number;
  online: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const missing = total - counted;
  return (
    <Dialog open={open} title={t('stockCount.submitTitle', { id: stockCountId })} onClose={onClose}>
      {/* "1 of 1 material is counted": the plural follows the number of materials. */}
      <p>{t('stockCount.submitText', { counted, total, count: total })}</p>
      {missing > 0 && (
        <p className="form-error" role="alert">
          {t('stockCount.submitMissing', { count: missing })}
        </p>
      )}
      {bookMoved > 0 && (
        <p className="form-error" role="alert">
          {t('stockCount.submitBookMoved', { count: bookMoved })}
        </p>
      )}
      {!online && missing === 0 && bookMoved === 0 && <p className="muted">{t('stockCount.submitOffline')}</p>}
      <div className="dialog-actions">
        <button type="button" className="button ghost" onClick={onClose}>
          {t('common.cancel')}
        </button>
        <button type="button" className="button primary" disabled={missing > 0 || bookMoved > 0} onClick={onConfirm}>
          {t('stockCount.submitConfirm')}
        </button>
      </div>
    </Dialog>
  );
}
