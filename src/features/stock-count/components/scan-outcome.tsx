/** What the last scan did on a count, with what can follow it: undo a counted scan, add an unknown material, open a scanned count. */
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { ScanOutcome } from '../hooks/use-scan-to-count';
import '../stock-count.css';

interface Props {
  outcome: ScanOutcome | null;
  /** Whether the count's quantities can be typed: otherwise a found line is not asked for one (its field is disabled). */
  canEdit: boolean;
  /** Absent when the last counted scan can no longer be undone. */
  onUndo?: () => void;
  onAdd: (code: string) => void;
}

/**
 * The outcome's words (.scan-result-text) take the focus when Undo, which had it, goes with the undo:
 * focused before the button goes, so it is never left on <body>. Every outcome's words are the same
 * element (React keeps it from one outcome to the next) and focusable by script only (tabIndex -1,
 * on all of them: one that lost it while focused would drop the focus), so the focus stays while the
 * words change to the undo's, and the status region around them reads them out.
 */
export function ScanOutcomeView({ outcome, canEdit, onUndo, onAdd }: Props) {
  const { t, i18n } = useTranslation();
  if (!outcome) return null;
  // Quantities read as numbers of the user's language (1,5 in German, Finnish, French…).
  const quantity = 'quantity' in outcome && typeof outcome.quantity === 'number' ? new Intl.NumberFormat(i18n.language).format(outcome.quantity) : null;
  switch (outcome.kind) {
    case 'found':
      return (
        <div className="scan-result" data-scan-result="found">
          <span className="scan-result-text" tabIndex={-1}>
            {outcome.quantity === null
              ? t(canEdit ? 'scan.foundUncounted' : 'scan.foundUncountedReadOnly', { code: outcome.code, unit: outcome.unit })
              : t(canEdit ? 'scan.found' : 'scan.foundReadOnly', { code: outcome.code, quantity, unit: outcome.unit })}
          </span>
        </div>
      );
    case 'counted':
      return (
        <div className="scan-result" data-scan-result="counted">
          <span className="scan-result-text" tabIndex={-1}>{t('scan.counted', { code: outcome.code, quantity, unit: outcome.unit })}</span>
          {onUndo && (
            <button
              type="button"
              className="button small"
              onClick={(event) => {
                event.currentTarget.parentElement?.querySelector<HTMLElement>('.scan-result-text')?.focus();
                onUndo();
              }}
            >
              {t('scan.undo')}
            </button>
          )}
        </div>
      );
    case 'undone':
      return (
        <div className="scan-result" data-scan-result="undone">
          <span className="scan-result-text" tabIndex={-1}>
            {quantity === null ? t('scan.undoneUncounted', { code: outcome.code }) : t('scan.undone', { code: outcome.code, quantity, unit: outcome.unit })}
          </span>
        </div>
      );
    case 'unknown':
      return (
        <div className="scan-result unknown" data-scan-result="unknown">
          <span className="scan-result-text" tabIndex={-1}>{t(outcome.inPart ? 'scan.notInPart' : 'scan.notOnCount', { code: outcome.code })}</span>
          {outcome.canAdd && (
            <button type="button" className="button small" onClick={() => onAdd(outcome.code)}>
              {t('scan.addToCount', { code: outcome.code })}
            </button>
          )}
        </div>
      );
    case 'elsewhere':
      return (
        <div className="scan-result unknown" data-scan-result="elsewhere">
          <span className="scan-result-text" tabIndex={-1}>
            {outcome.counter === null ? t('scan.inNoPart', { code: outcome.code }) : t('scan.inOtherPart', { code: outcome.code, counter: outcome.counter })}
          </span>
        </div>
      );
    case 'count':
      return (
        <div className="scan-result" data-scan-result="count">
          {outcome.isThisCount ? (
            <span className="scan-result-text" tabIndex={-1}>{t('scan.thisCount', { id: outcome.stockCountId })}</span>
          ) : (
            <>
              <span className="scan-result-text" tabIndex={-1}>{t('scan.otherCount', { id: outcome.stockCountId })}</span>
              <Link className="button small" to={`/mechanic-view/${outcome.stockCountId}`}>
                {t('scan.openCount', { id: outcome.stockCountId })}
              </Link>
            </>
          )}
        </div>
      );
    case 'unreadable':
      return (
        <div className="scan-result unknown" data-scan-result="unreadable">
          <span className="scan-result-text" tabIndex={-1}>{t('scan.unreadable')}</span>
        </div>
      );
  }
}
