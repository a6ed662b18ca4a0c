/**
 * A modal dialog on the native <dialog> element: focus is trapped and returned, Escape closes,
 * and the page behind is inert, all by the browser.
 */
import { useEffect, useRef, type ReactNode } from 'react';

export function Dialog({ open, title, onClose, children }: { open: boolean; title: string; onClose: () => void; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} className="dialog" aria-label={title} onClose={onClose} onCancel={onClose}>
      {open && (
        <div className="dialog-body">
          <h2 className="dialog-title">{title}</h2>
          {children}
        </div>
      )}
    </dialog>
  );
}
