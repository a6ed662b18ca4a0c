/**
 * A "Scan" button that opens the camera scanning sheet. The sheet and its barcode reader are a
 * lazy chunk fetched on the first press (and precached by the service worker, so it opens offline).
 * Screens place it beside a search field or in a toolbar; `open`/`onOpenChange` let a screen keep
 * the sheet open for counting by scanning.
 */
import { lazy, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ScannerSheetProps } from './scanner-sheet';
import { Optional } from '../optional';
import './scan.css';

const ScannerSheet = lazy(() => import('./scanner-sheet'));

export interface ScanButtonProps extends Omit<ScannerSheetProps, 'onClose' | 'title'> {
  /** The sheet's title; the button's own text is "Scan" unless `label` is given. */
  title?: string;
  label?: string;
  className?: string;
  open?: boolean;
  onOpenChange?(open: boolean): void;
  children?: ReactNode;
}

export function ScanButton({ title, label, className = 'button', open, onOpenChange, ...sheet }: ScanButtonProps) {
  const { t } = useTranslation();
  const [ownOpen, setOwnOpen] = useState(false);
  const isOpen = open ?? ownOpen;
  const setOpen = (next: boolean) => {
    setOwnOpen(next);
    onOpenChange?.(next);
  };
  return (
    <>
      <button type="button" className={`${className} scan-button`} aria-haspopup="dialog" onClick={() => setOpen(true)}>
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
          <path d="M4 8V5a1 1 0 011-1h3M16 4h3a1 1 0 011 1v3M20 16v3a1 1 0 01-1 1h-3M8 20H5a1 1 0 01-1-1v-3M7 8v8M10 8v8M13 8v8M17 8v8" />
        </svg>
        <span>{label ?? t('scan.button')}</span>
      </button>
      {isOpen && (
        <Optional onFail={() => setOpen(false)}>
          <ScannerSheet title={title ?? t('scan.title')} {...sheet} onClose={() => setOpen(false)} />
        </Optional>
      )}
    </>
  );
}

export default ScanButton;
