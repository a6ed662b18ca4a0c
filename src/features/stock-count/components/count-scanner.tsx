/**
 * Scanning on the count screen (#17): the Scan button (camera sheet), keyboard-wedge scanners
 * anywhere on the screen, the "count by scanning" switch and what the last scan did. A scanned
 * material jumps to its line and focuses its quantity; counting by scanning adds 1 per scan.
 * `?scan=<code>` (from the material-count search's Scan button) is handled once on arrival.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { MaterialCountRow } from '../../../contract/stock';
import { ScanButton } from '../../../components/scan/scan-button';
import { primeScanFeedback } from '../../../components/scan/feedback';
import { useKeyboardWedge } from '../../../lib/keyboard-wedge';
import { useScanToCount } from '../hooks/use-scan-to-count';
import { saveTyping } from './material-line';
import { ScanOutcomeView } from './scan-outcome';
import '../stock-count.css';

interface Props {
  email: string;
  stockCountId: number;
  canEdit: boolean;
  canAdd: boolean;
  /** Scrolls the line into the list (clearing a filter that hides it); false when it is not rendered yet. */
  reveal(code: string): boolean;
  /** Add the scanned material; `counting`: scanned in count mode, so the new line is counted 1 (the scan was one piece). */
  onAdd(code: string, counting: boolean): void;
  onError(error: unknown): void;
}

const lineInput = (code: string) => document.querySelector<HTMLInputElement>(`[data-line="${CSS.escape(code)}"] input[data-quantity]`);

export default function CountScanner({ email, stockCountId, canEdit, canAdd, reveal, onAdd, onError }: Props) {
  const { t } = useTranslation();
  const barModeId = useId();
  const sheetModeId = useId();
  const revealLatest = useRef(reveal);
  useEffect(() => {
    revealLatest.current = reveal;
  });
  const focusing = useRef(0);
  const [sheetOpen, setSheetOpen] = useState(false);

  /** Brings the line into view and focuses its quantity (a virtualized list renders it a frame later). */
  const jump = (line: MaterialCountRow) => {
    const attempt = ++focusing.current;
    let frames = 0;
    const tryFocus = () => {
      if (attempt !== focusing.current) return;
      revealLatest.current(line.material_code);
      const input = lineInput(line.material_code);
      const row = input?.closest('.material-line');
      if (input && row) {
        document.querySelectorAll('.material-line.scanned').forEach((other) => other.classList.remove('scanned'));
        row.classList.add('scanned');
        if (!input.disabled && !document.querySelector('dialog[open]')) {
          input.focus({ preventScroll: true });
          input.select();
        }
        row.scrollIntoView({ block: 'center' });
        return;
      }
      if (++frames < 30) requestAnimationFrame(tryFocus);
    };
    requestAnimationFrame(tryFocus);
  };

  const scan = useScanToCount({ email, stockCountId, canEdit, canAdd, onJump: jump, beforeCount: saveTyping, onError });
  useKeyboardWedge(scan.handle);

  const [params, setParams] = useSearchParams();
  const arrived = params.get('scan');
  useEffect(() => {
    if (!arrived) return;
    const next = new URLSearchParams(params);
    next.delete('scan');
    setParams(next, { replace: true });
    void scan.handle(arrived);
  }, [arrived, params, setParams, scan]);

  // Drawn in the bar and in the sheet: each its own id, so each label names its own box.
  const modeSwitch = (id: string) =>
    canEdit && (
      <label className="scan-mode" htmlFor={id}>
        <input
          id={id}
          type="checkbox"
          checked={scan.countMode}
          onChange={(event) => {
            // A tap, as a keyboard-wedge scanner's counting begins: the beeps may sound (see primeScanFeedback).
            primeScanFeedback();
            scan.setCountMode(event.target.checked);
          }}
        />
        {/* #21: the "+1 per scan" hint is a chip that never breaks inside, on the label's line or the next.
            The phone's toolbar shows only the chip's short "+1" (the whole text stays the name). */}
        <span className="scan-mode-text">
          <span className="scan-mode-words">{t('scan.countMode')}</span>{' '}
          <span className="scan-mode-hint">
            <span className="scan-mode-long">{t('scan.countModeHint')}</span>
            <span className="scan-mode-short" aria-hidden="true">
              {t('scan.countModeShort')}
            </span>
          </span>
        </span>
      </label>
    );
  const outcome = (
    <ScanOutcomeView
      outcome={scan.outcome}
      canEdit={canEdit}
      onUndo={scan.canUndo ? () => void scan.undo() : undefined}
      onAdd={(code) => {
        scan.clear();
        setSheetOpen(false);
        onAdd(code, scan.countMode && canEdit);
      }}
    />
  );

  return (
    <div className="count-scan">
      <div className="count-scan-bar">
        <ScanButton
          title={t('scan.countTitle', { id: stockCountId })}
          open={sheetOpen}
          onOpenChange={(open) => {
            // Called in the tap on Scan: the one moment iOS lets the scans' beeps start (see primeScanFeedback).
            if (open) primeScanFeedback();
            setSheetOpen(open);
          }}
          continuous={scan.countMode} onScan={(code) => void scan.handle(code)} status={outcome} controls={modeSwitch(sheetModeId)} />
        {modeSwitch(barModeId)}
      </div>
      <div role="status" aria-live="polite" className="count-scan-outcome">
        {outcome}
      </div>
    </div>
  );
}
