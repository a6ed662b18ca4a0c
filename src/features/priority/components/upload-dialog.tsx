/**
 * An upload dialog (§2: ship-to-party numbers, priorities add/update, priorities delete/disable):
 * choose or drop a file, see what the server read (dry run), apply, see the result — rows
 * applied, or every failing row with a downloadable error CSV. Nothing changes before "Apply".
 */
import { useCallback, useEffect, useRef, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { UploadResult } from '../../../contract/priority';
import { Dialog } from '../../../components/ui/dialog';
import { MAX_SHIP_TO_PARTY_NUMBERS, PRIORITY_UPLOAD_MAX_BYTES, PRIORITY_UPLOAD_MAX_ROWS } from '../../../domain/constants';
import { PRIORITY_CSV_COLUMNS, type PriorityUploadKind } from '../../../domain/priority';
import { useCsvUpload, type UploadState } from '../hooks/use-csv-upload';
import { DropZone } from './drop-zone';
import { UploadErrors } from './upload-errors';
import { UploadPreview } from './upload-preview';
import '../priority.css';

const MB = PRIORITY_UPLOAD_MAX_BYTES / (1024 * 1024);
const STEP: Record<UploadState['step'], number> = { idle: 1, checking: 2, refused: 2, preview: 2, applying: 3, applied: 3, unsure: 3 };

/**
 * Whether the step reached takes the focus to its outcome line (#21): the control pressed went with
 * the step before (the file's zone while checking, Apply while applying) and left it on <body>.
 */
export function focusesOutcome(from: UploadState['step'], to: UploadState['step']): boolean {
  return (from === 'checking' || from === 'applying') && to !== 'idle' && to !== 'checking' && to !== 'applying';
}

/**
 * Whether the dialog may close now: not while applying, or the result (rows applied, or that the
 * server did not answer) was never seen — the file may have been applied all the same.
 */
export function mayClose(step: UploadState['step']): boolean {
  return step !== 'applying';
}

function UploadProgress({ state }: { state: UploadState }) {
  const { t } = useTranslation();
  if (state.step !== 'checking' && state.step !== 'applying') return null;
  const label = t(state.step === 'checking' ? 'priority.upload.checking' : 'priority.upload.applying', { file: state.fileName });
  return (
    <div className="priority-progress" role="status">
      <span>{t('priority.upload.stepOf', { step: STEP[state.step] })}</span>
      <progress aria-label={label} />
      <span>{label}</span>
    </div>
  );
}

function ShipToPartyOutcome({ result }: { result: UploadResult }) {
  const { t } = useTranslation();
  const stp = result.shipToParty;
  if (!stp) return null;
  return (
    <p>
      {stp.added.length > 0 && <>{t('priority.upload.added', { codes: stp.added.join(', ') })} </>}
      {t(result.dryRun ? 'priority.upload.countAfter' : 'priority.upload.countNow', { count: stp.count, max: stp.maximum })}
    </p>
  );
}

export function UploadDialog({ kind, open, onClose }: { kind: PriorityUploadKind; open: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const { state, choose, apply, reset } = useCsvUpload(kind, t('priority.upload.tooLarge', { mb: MB }));
  const close = () => {
    reset();
    onClose();
  };
  const closable = mayClose(state.step);
  // Escape asks the <dialog> to close (its cancel event): held while applying. Should the browser
  // close it all the same, the apply goes on and its result is there when the dialog opens again.
  const requestClose = (event?: SyntheticEvent) => {
    if (!closable && event?.type === 'cancel') {
      event.preventDefault();
      return;
    }
    close();
  };
  // An Escape whose keydown is cancelled is no close request at all (the browser gives a page one
  // cancelled "cancel" only per user gesture).
  useEffect(() => {
    if (!open || closable) return;
    const hold = (event: KeyboardEvent) => {
      if (event.key === 'Escape') event.preventDefault();
    };
    document.addEventListener('keydown', hold, true);
    return () => document.removeEventListener('keydown', hold, true);
  }, [open, closable]);
  // The outcome's line (summary, refusal or no answer) takes the focus once a check or apply ends.
  const outcome = useRef<HTMLElement | null>(null);
  const setOutcome = useCallback((node: HTMLElement | null) => {
    outcome.current = node;
  }, []);
  const shownStep = useRef(state.step);
  useEffect(() => {
    const from = shownStep.current;
    shownStep.current = state.step;
    if (focusesOutcome(from, state.step)) outcome.current?.focus();
  }, [state.step]);
  const busy = state.step === 'checking' || state.step === 'applying';
  const columns = PRIORITY_CSV_COLUMNS[kind];
  const hasResult = state.step === 'preview' || state.step === 'applying' || state.step === 'applied';

  return (
    <Dialog open={open} title={t(`priority.upload.${kind}.title`)} onClose={requestClose}>
      <p className="muted">{t(`priority.upload.${kind}.help`, { max: MAX_SHIP_TO_PARTY_NUMBERS })}</p>
      <p className="small">
        {t('priority.upload.columns', { columns: columns.required.join(', ') })}
        {columns.optional.length > 0 && <> {t('priority.upload.optionalColumns', { columns: columns.optional.join(', ') })}</>}{' '}
        {t('priority.upload.format', { mb: MB, rows: PRIORITY_UPLOAD_MAX_ROWS.toLocaleString(i18n.language) })}
      </p>
      {(state.step === 'idle' || state.step === 'refused' || state.step === 'preview') && <DropZone disabled={busy} fileName={'fileName' in state ? state.fileName : null} onFile={(file) => void choose(file)} />}
      <UploadProgress state={state} />

      {state.step === 'refused' && (
        <div ref={setOutcome} tabIndex={-1} className="notice danger" role="alert">
          <p>{state.message}</p>
          <p>{t('priority.upload.refused')}</p>
        </div>
      )}
      {state.step === 'refused' && <UploadErrors errors={state.errors} fileName={state.fileName} />}
      {state.step === 'unsure' && (
        <div ref={setOutcome} tabIndex={-1} className="notice" role="alert">
          <p>{state.message}</p>
          <p>{t('priority.upload.unsure', { file: state.fileName })}</p>
        </div>
      )}

      {hasResult && (
        <>
          <p ref={setOutcome} tabIndex={-1} role="status" className={state.step === 'applied' ? 'notice success' : undefined}>
            {state.step === 'applied'
              ? t('priority.upload.appliedSummary', {
                  applied: t('priority.upload.rowsApplied', { count: state.result.changed }),
                  unchanged: t('priority.upload.unchangedCount', { count: state.result.unchanged }),
                  file: state.fileName,
                })
              : t('priority.upload.summary', {
                  rows: t('priority.upload.rowsRead', { count: state.result.rowCount }),
                  changed: t('priority.upload.willChange', { count: state.result.changed }),
                  unchanged: t('priority.upload.unchangedCount', { count: state.result.unchanged }),
                  errors: t('priority.upload.errorCount', { count: state.result.errors.length }),
                })}
          </p>
          <ShipToPartyOutcome result={state.result} />
          <UploadErrors errors={state.result.errors} fileName={state.fileName} />
          <UploadPreview result={state.result} />
        </>
      )}
      {state.step === 'preview' && state.result.errors.length > 0 && <p className="form-error">{t('priority.upload.fixFirst')}</p>}
      {state.step === 'preview' && state.result.errors.length === 0 && state.result.changed === 0 && <p className="muted">{t('priority.upload.nothingToApply')}</p>}

      <div className="dialog-actions">
        <button type="button" className="button ghost" disabled={!closable} onClick={close}>
          {t('common.close')}
        </button>
        {state.step === 'applied' && (
          <button type="button" className="button" onClick={reset}>
            {t('priority.upload.another')}
          </button>
        )}
        {state.step === 'unsure' && (
          <button type="button" className="button primary" onClick={() => void apply()}>
            {t('priority.upload.tryAgain')}
          </button>
        )}
        {(state.step === 'preview' || state.step === 'applying') && (
          <button
            type="button"
            className="button primary"
            disabled={state.step === 'applying' || state.result.errors.length > 0 || state.result.changed === 0}
            onClick={() => void apply()}
          >
            {t('priority.upload.apply', { count: state.result.changed })}
          </button>
        )}
      </div>
    </Dialog>
  );
}
