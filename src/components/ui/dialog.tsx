/**
 * A modal dialog on the native <dialog> element: focus is trapped, Escape closes, and the page
 * behind is inert, all by the browser. Focus goes back to the control that opened it (#21): the
 * browser does that only when the dialog is closed while it stays in the page, and most callers
 * unmount it instead (`{open && <XDialog …/>}`), which left focus on <body>. When the opener has
 * gone (its row was removed), focus goes to the page's <main>. The global error alert raised while
 * the dialog is open shows inside it: outside it, the inert page hid it from screen readers and
 * the bottom sheet covered it on phones (error-alert.tsx). An alert already up when it opens stays
 * the page's. A dialog that shows its own load error reads with silent queries (meta.silent), so
 * the failure is not also the global alert beside it.
 */
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert, hostErrorAlert } from './error-alert';

export function Dialog({
  open,
  title,
  onClose,
  unsaved = false,
  children,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  /**
   * The form inside holds typed text not saved yet: Escape (or a phone's Back, which the browser
   * turns into a cancel) asks before closing, since a stray press would drop a whole split or a
   * planned count; Escape again keeps editing. A Cancel button the user presses closes as it says.
   */
  unsaved?: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  const [asking, setAsking] = useState(false);
  const keepRef = useRef<HTMLButtonElement>(null);
  /** What had the focus when the question came up (the field being typed in): it gets it back on "Keep editing". */
  const returnRef = useRef<HTMLElement | null>(null);
  const ask = () => {
    if (asking) return;
    const active = document.activeElement;
    returnRef.current = active instanceof HTMLElement && ref.current?.contains(active) ? active : null;
    setAsking(true);
  };
  // "Keep editing" removes itself while it has the focus: the focus goes back where the user was
  // (before the button goes, so it is never left on <body>), else to the form's first field.
  const keepEditing = () => {
    setAsking(false);
    const back = returnRef.current;
    returnRef.current = null;
    (back?.isConnected ? back : ref.current?.querySelector<HTMLElement>('input:not([type="hidden"]):not(:disabled), select:not(:disabled), textarea:not(:disabled)'))?.focus();
  };
  useEffect(() => {
    if (asking) keepRef.current?.focus();
  }, [asking]);
  useEffect(() => {
    if (!unsaved) setAsking(false);
  }, [unsaved]);
  useEffect(() => (open ? hostErrorAlert(id) : undefined), [open, id]);
  useEffect(() => {
    const dialog = ref.current;
    if (!open || !dialog) return;
    const opener = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    return () => {
      if (dialog.open) dialog.close();
      const active = document.activeElement;
      if (active && active !== document.body && !dialog.contains(active)) return;
      const target = opener?.isConnected ? opener : document.getElementById('main');
      target?.focus({ preventScroll: true });
    };
  }, [open]);
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-label={title}
      onClose={onClose}
      // Escape is answered here, not through the cancel event: Chromium makes the cancel of a second
      // Escape with no click or tap between not cancelable, so Escape while the question showed
      // closed the dialog and dropped the text. Its keydown cancelled, no cancel event comes at all.
      // Escape asks; pressed again while asking, it answers "Keep editing". A key an element inside
      // already took (a list box closing its options) is left alone.
      onKeyDown={(event) => {
        if (!unsaved || event.key !== 'Escape' || event.defaultPrevented || event.nativeEvent.isComposing) return;
        event.preventDefault();
        if (asking) keepEditing();
        else ask();
      }}
      // A phone's Back (a close watcher, no key) still comes as the cancel event.
      onCancel={(event) => {
        if (!unsaved) return onClose();
        // Kept open: the browser would close it before onClose could ask.
        event.preventDefault();
        ask();
      }}
    >
      {open && (
        <div className="dialog-body">
          <h2 className="dialog-title">{title}</h2>
          <ErrorAlert dialogId={id} />
          {asking && (
            <div className="notice dialog-discard" role="alert">
              <span>{t('common.discardTyped')}</span>
              <button ref={keepRef} type="button" className="button small primary" onClick={keepEditing}>
                {t('common.keepEditing')}
              </button>
              <button type="button" className="button small danger" onClick={onClose}>
                {t('common.discardAndClose')}
              </button>
            </div>
          )}
          {children}
        </div>
      )}
    </dialog>
  );
}
