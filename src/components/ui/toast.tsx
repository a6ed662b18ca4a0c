/**
 * One toast / snackbar for the feedback of an action (#21): sent, cancelled, recount asked,
 * removed… Shown where the thumb is — above the bottom bar on phones, at the bottom on desktop —
 * one at a time (a new one replaces the last), gone after a few seconds or when dismissed. While
 * the global error alert is up the toast waits under it, so the two never stack over controls.
 * Its time stops while the pointer is on it or the focus is in it (WCAG 2.2.1): a toast being read
 * or about to be pressed (its action, Dismiss) does not go from under the user.
 * Text only: messages never become markup.
 */
import { useCallback, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { currentError, onErrorAlert, useErrorAlert } from '../../lib/error-alert';
import { Icon } from './icons';

export type ToastTone = 'success' | 'info' | 'danger';

/** A toast's one action, e.g. "Open" on a push message. */
export interface ToastAction {
  label: string;
  run: () => void;
}

export interface ToastState {
  id: number;
  message: string;
  tone: ToastTone;
  action?: ToastAction;
  /** ToastOptions.untilOnline. */
  untilOnline?: true;
}

export interface ToastOptions {
  /** How long it stays (default TOAST_SECONDS); a push message stays PUSH_TOAST_MS (§9). */
  ms?: number;
  action?: ToastAction;
  /**
   * The message says there is no connection ("saved on this device, sent when you are back
   * online"): it goes when the browser is online again, even while held, as it is no longer true.
   */
  untilOnline?: boolean;
}

const TOAST_SECONDS = 8;

let state: ToastState | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;
/** How long the toast shown now stays once it can be seen. */
let shownMs = 0;
let nextId = 1;
const listeners = new Set<() => void>();

/** What holds the toast's time: the pointer on it, the keyboard focus in it. */
export type ToastHold = 'pointer' | 'focus';
const holds = new Set<ToastHold>();

function emit(next: ToastState | null) {
  state = next;
  listeners.forEach((listener) => listener());
}

/**
 * The toast's time runs only while it can be seen: under the error alert it waits (a push toast was
 * lost there). Nor while it is held (pointer, focus): then it starts again, whole, when let go.
 */
function runTimer(): void {
  clearTimeout(timer);
  timer = state && !currentError() && holds.size === 0 ? setTimeout(() => emit(null), shownMs) : undefined;
}
onErrorAlert(() => {
  if (!state) return;
  if (currentError()) {
    clearTimeout(timer);
    timer = undefined;
  } else if (timer === undefined) runTimer();
});

/** The window the 'online' listener is on (one, added with the first such toast). */
let listeningOn: Window | null = null;

export function showToast(message: string, tone: ToastTone = 'success', options: ToastOptions = {}): void {
  // A new toast is a new element: the last one's pointer or focus does not hold it (the element it
  // was on is gone without a leave or a blur); its own events say when it is held.
  holds.clear();
  if (options.untilOnline && typeof window !== 'undefined' && listeningOn !== window) {
    listeningOn = window;
    window.addEventListener('online', () => {
      if (!state?.untilOnline) return;
      // The keyboard focus in it (on Dismiss) would fall to the page with it: it goes to the main content.
      const focused = holds.has('focus');
      dismissToast();
      if (focused) document.getElementById('main')?.focus();
    });
  }
  emit({ id: nextId++, message, tone, ...(options.action ? { action: options.action } : {}), ...(options.untilOnline ? { untilOnline: true as const } : {}) });
  shownMs = options.ms ?? TOAST_SECONDS * 1000;
  runTimer();
}

export function dismissToast(): void {
  clearTimeout(timer);
  holds.clear();
  emit(null);
}

/** The pointer came onto the toast or left it, the focus went into it or out (the Toaster's events). */
export function holdToast(reason: ToastHold, held: boolean): void {
  if (holds.has(reason) === held) return;
  if (held) holds.add(reason);
  else holds.delete(reason);
  if (state) runTimer();
}

/** The toast shown now, if any. */
export function currentToast(): ToastState | null {
  return state;
}

export function useToast(): ToastState | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    currentToast,
  );
}

/** A setter shaped like a screen's old `setNotice`: a message shows a toast, null does nothing. */
export function useToastNotice(tone: ToastTone = 'success'): (message: string | null, options?: ToastOptions) => void {
  return useCallback((message: string | null, options?: ToastOptions) => {
    if (message) showToast(message, tone, options);
  }, [tone]);
}

/** The one place toasts appear; the shell renders it once. */
export function Toaster() {
  const { t } = useTranslation();
  const toast = useToast();
  const error = useErrorAlert();
  // Always in the page, so screen readers hear a message put into it.
  return (
    <div className="toaster" role="status" aria-live="polite">
      {toast && !error && (
        <div
          className={`toast ${toast.tone}`}
          key={toast.id}
          role={toast.tone === 'danger' ? 'alert' : undefined}
          onPointerEnter={() => holdToast('pointer', true)}
          onPointerLeave={() => holdToast('pointer', false)}
          onFocus={() => holdToast('focus', true)}
          onBlur={(event) => {
            // Focus moving between its buttons stays in it.
            if (!(event.relatedTarget instanceof Node && event.currentTarget.contains(event.relatedTarget))) holdToast('focus', false);
          }}
        >
          <span className="toast-text">{toast.message}</span>
          {toast.action && (
            <button
              type="button"
              className="toast-action"
              onClick={() => {
                dismissToast();
                toast.action?.run();
              }}
            >
              {toast.action.label}
            </button>
          )}
          <button type="button" className="icon-button" onClick={dismissToast} aria-label={t('common.dismiss')}>
            <Icon name="close" size={18} />
          </button>
        </div>
      )}
    </div>
  );
}
