/**
 * The camera scanning sheet (#17): the rear camera in a modal sheet with a viewfinder, a torch
 * toggle where the camera has one, a close button, and a field to type the code by hand (which
 * keeps working when the camera is refused, absent or busy). Loaded lazily by `ScanButton`: the
 * reader (and its WebAssembly) never weighs on a screen that does not scan.
 *
 * A camera sees a code for as long as it is in front of it: the same code counts again only after
 * it left the picture for `REPEAT_AFTER_MS`, so "count by scanning" adds one per presentation.
 *
 * The camera runs only while the page shows: hidden (app switched, phone locked) it is let go, and
 * it starts again when the page shows again.
 */
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { createBarcodeReader, type BarcodeReader } from './barcode-reader';
import { ErrorAlert, hostErrorAlert } from '../ui/error-alert';
import { wedgeListener } from '../../lib/keyboard-wedge';
import './scan.css';

export const REPEAT_AFTER_MS = 1500;
const FRAME_EVERY_MS = 100;

export type CameraProblem = 'denied' | 'absent' | 'busy' | 'unavailable' | 'readerFailed' | 'failed';

export function cameraProblemOf(error: unknown): CameraProblem {
  const name = error instanceof Error || error instanceof DOMException ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError' || name === 'PermissionDeniedError') return 'denied';
  if (name === 'NotFoundError' || name === 'OverconstrainedError' || name === 'DevicesNotFoundError') return 'absent';
  if (name === 'NotReadableError' || name === 'TrackStartError' || name === 'AbortError') return 'busy';
  return 'failed';
}

interface TorchCapabilities extends MediaTrackCapabilities {
  torch?: boolean;
}

export interface ScannerSheetProps {
  title: string;
  /** Keep scanning after a code (count by scanning); otherwise the sheet closes on the first code. */
  continuous?: boolean;
  onScan(code: string): void;
  onClose(): void;
  /** What the last scan did, with its actions (undo, add): shown under the viewfinder, announced. */
  status?: ReactNode;
  /** Extra controls (the "count by scanning" switch). */
  controls?: ReactNode;
}

export default function ScannerSheet({ title, continuous = false, onScan, onClose, status, controls }: ScannerSheetProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const manualId = useId();
  const alertHostId = useId();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const videoRef = useRef<HTMLVideoElement>(null);
  const [problem, setProblem] = useState<CameraProblem | null>(null);
  const [starting, setStarting] = useState(true);
  const [engine, setEngine] = useState<BarcodeReader['engine'] | null>(null);
  const [torch, setTorch] = useState<{ track: MediaStreamTrack; on: boolean } | null>(null);
  const [manual, setManual] = useState('');
  const latest = useRef({ onScan, continuous, onClose });
  // A hardware scanner used while the sheet is open: its keys land on the sheet's focused button
  // (Close, the torch), and its Enter would press it. Taken as a scan here, the Enter swallowed.
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    const listener = wedgeListener(
      (code) => {
        latest.current.onScan(code);
        if (!latest.current.continuous) latest.current.onClose();
      },
      {},
      'anywhere',
    );
    dialog.addEventListener('keydown', listener, true);
    return () => dialog.removeEventListener('keydown', listener, true);
  }, []);
  useEffect(() => {
    latest.current = { onScan, continuous, onClose };
  });
  // The global error alert raised while the sheet is open shows in it, as in `Dialog`: a scan whose
  // count was not saved said so only behind the modal sheet, on an inert page.
  useEffect(() => hostErrorAlert(alertHostId), [alertHostId]);

  // Focus goes back to the control that opened the sheet, as in `Dialog`: the sheet is unmounted
  // while open, so the browser's own return of focus on close() never happens and focus fell to
  // <body> (a keyboard or screen-reader user lost their place). When the opener has gone, <main>.
  useEffect(() => {
    const dialog = dialogRef.current;
    const opener = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
    if (dialog && !dialog.open) dialog.showModal();
    return () => {
      if (dialog?.open) dialog.close();
      const active = document.activeElement;
      if (active && active !== document.body && !dialog?.contains(active)) return;
      const target = opener?.isConnected ? opener : document.getElementById('main');
      target?.focus({ preventScroll: true });
    };
  }, []);

  useEffect(() => {
    const video = videoRef.current!;
    let stopped = false;
    let stream: MediaStream | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    /** Each start of the camera: one let go since (page hidden, track ended, sheet closed) stops its work. */
    let generation = 0;
    const current = (started: number) => !stopped && started === generation;
    /**
     * The camera is to run while the page shows: started, and neither refused nor of no use (no
     * reader). Let go while hidden or ended on its own, it starts again when the page shows.
     */
    let resume = false;
    /** Per code: when it was last in a frame, and in how many read frames since it was not. */
    const seen = new Map<string, { at: number; missed: number }>();

    /** Lets the camera go (its light off, free for other apps): the read loop stops, the picture empties. */
    const release = () => {
      generation += 1;
      clearTimeout(timer);
      stream?.getTracks().forEach((track) => track.stop());
      stream = null;
      video.srcObject = null;
    };

    // Counts again only after the code left the picture: missing from 2 read frames (a 1D code
    // is sometimes missed while held still) and for REPEAT_AFTER_MS (a slow phone reads few frames).
    const accept = (code: string) => {
      const now = performance.now();
      const last = seen.get(code);
      seen.set(code, { at: now, missed: 0 });
      if (last !== undefined && (last.missed < 2 || now - last.at < REPEAT_AFTER_MS)) return false;
      latest.current.onScan(code);
      if (!latest.current.continuous) {
        stopped = true;
        latest.current.onClose();
      }
      return true;
    };

    const loop = async (reader: BarcodeReader, started: number) => {
      if (!current(started)) return;
      if (video.readyState >= 2 && video.videoWidth > 0) {
        try {
          const codes = await reader.detect(video);
          for (const [code, last] of seen) if (!codes.includes(code)) seen.set(code, { ...last, missed: last.missed + 1 });
          for (const code of codes) if (current(started) && accept(code)) break;
        } catch {
          // A frame that cannot be read (camera switching, tab hidden) is skipped.
        }
      }
      if (current(started)) timer = setTimeout(() => void loop(reader, started), FRAME_EVERY_MS);
    };

    // A track that ends on its own while the page shows (another app took the camera, a camera
    // unplugged) left a frozen picture: the camera's failure is shown, and it starts again when the
    // page shows again (the user back from that app). Ended while hidden, it just starts again then.
    const onEnded = () => {
      release();
      setTorch(null);
      if (document.visibilityState === 'visible') setProblem('failed');
    };

    const start = async () => {
      const started = ++generation;
      if (!navigator.mediaDevices?.getUserMedia) {
        setProblem('unavailable');
        setStarting(false);
        return;
      }
      resume = true;
      let own: MediaStream;
      try {
        own = await navigator.mediaDevices.getUserMedia({
          audio: false,
          video: { facingMode: { ideal: 'environment' }, width: { ideal: 1280 }, height: { ideal: 720 } },
        });
      } catch (error) {
        if (!current(started)) return;
        resume = false;
        setProblem(cameraProblemOf(error));
        setStarting(false);
        return;
      }
      if (!current(started)) {
        own.getTracks().forEach((track) => track.stop());
        return;
      }
      stream = own;
      video.srcObject = own;
      await video.play().catch(() => undefined);
      if (!current(started)) return;
      own.getTracks().forEach((track) => track.addEventListener('ended', onEnded));
      const [track] = own.getVideoTracks();
      const capabilities = (track?.getCapabilities?.() ?? {}) as TorchCapabilities;
      if (track && capabilities.torch) setTorch({ track, on: false });
      let reader: BarcodeReader;
      try {
        reader = await createBarcodeReader();
      } catch {
        if (!current(started)) return;
        // Without a reader the camera is of no use: let it go (its light off, free for other
        // apps) rather than keep it running behind the message until the sheet closes.
        release();
        resume = false;
        setTorch(null);
        setProblem('readerFailed');
        setStarting(false);
        return;
      }
      if (!current(started)) return;
      setEngine(reader.engine);
      setStarting(false);
      void loop(reader, started);
    };

    // Hidden, the camera is let go (a phone locked with the sheet open kept it, and its light, on;
    // iOS ends its tracks, which left a frozen picture); shown again, it starts again.
    const onVisibility = () => {
      if (stopped) return;
      if (document.visibilityState === 'hidden') {
        release();
        setTorch(null);
      } else if (resume) {
        // A start still under way (or a camera still on) is let go first: one camera, one read loop.
        release();
        setProblem(null);
        setStarting(true);
        void start();
      }
    };
    document.addEventListener('visibilitychange', onVisibility);
    void start();
    return () => {
      stopped = true;
      document.removeEventListener('visibilitychange', onVisibility);
      release();
    };
  }, []);

  const toggleTorch = async () => {
    if (!torch) return;
    const on = !torch.on;
    try {
      await torch.track.applyConstraints({ advanced: [{ torch: on } as MediaTrackConstraintSet] });
      setTorch({ ...torch, on });
    } catch {
      setTorch(null);
    }
  };

  /**
   * Typing the code: right under the camera, or — when there is no camera — under the message that
   * says so. Drawn in one place in both cases: drawn in two, a camera failing (or coming back) while
   * the code was typed made it anew, and the focus and what was typed in it went.
   */
  const manualEntry = (
    <form
      className="scanner-manual"
      onSubmit={(event) => {
        event.preventDefault();
        const code = manual.trim();
        if (!code) return;
        setManual('');
        latest.current.onScan(code);
        if (!continuous) onClose();
      }}
    >
      <label htmlFor={manualId} className="field-label">
        {t('scan.manualLabel')}
      </label>
      <div className="search-form">
        <input
          id={manualId}
          type="text"
          autoComplete="off"
          spellCheck={false}
          enterKeyHint="done"
          value={manual}
          onChange={(event) => setManual(event.target.value)}
        />
        <button type="submit" className="button">
          {t('scan.manualSubmit')}
        </button>
      </div>
    </form>
  );

  return (
    <dialog
      ref={dialogRef}
      className="scanner-sheet"
      aria-labelledby={titleId}
      data-engine={engine ?? undefined}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <div className="scanner-head">
        <h2 id={titleId} className="scanner-title">
          {title}
        </h2>
        {torch && (
          // One name, its state in aria-pressed: a name that changed with it read "Light off, pressed".
          <button type="button" className="button small scanner-torch" aria-pressed={torch.on} onClick={() => void toggleTorch()}>
            {t('scan.torch')}
          </button>
        )}
        <button type="button" className="icon-button scanner-close" aria-label={t('scan.close')} onClick={onClose}>
          <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
            <path d="M6 6l12 12M18 6L6 18" />
          </svg>
        </button>
      </div>
      <ErrorAlert dialogId={alertHostId} />
      <div className={`scanner-view${problem ? ' has-problem' : ''}`}>
        <video ref={videoRef} className="scanner-video" playsInline muted aria-hidden="true" />
        {!problem && <div className="scanner-frame" aria-hidden="true" />}
        {starting && !problem && <p className="scanner-note">{t('scan.starting')}</p>}
        {problem && (
          <p className="scanner-problem" role="alert">
            {t(`scan.problem.${problem}`)}
          </p>
        )}
      </div>
      {!problem && !starting && <p className="scanner-hint">{t('scan.hint')}</p>}
      {manualEntry}
      {controls && <div className="scanner-controls">{controls}</div>}
      <div className="scanner-status" role="status" aria-live="polite">
        {status}
      </div>
    </dialog>
  );
}
