/** §2/§8 global error alert: the last error message, dismissible, gone after 9 seconds. */
import { useSyncExternalStore } from 'react';
import { ERROR_ALERT_SECONDS } from '../domain/constants';

export interface AlertState {
  id: number;
  message: string;
}

let state: AlertState | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;
let nextId = 1;
const listeners = new Set<() => void>();

function emit(next: AlertState | null) {
  state = next;
  listeners.forEach((listener) => listener());
}

export function showError(message: string): void {
  clearTimeout(timer);
  emit({ id: nextId++, message });
  timer = setTimeout(() => emit(null), ERROR_ALERT_SECONDS * 1000);
}

export function dismissError(): void {
  clearTimeout(timer);
  emit(null);
}

/** The alert shown now, if any. */
export function currentError(): AlertState | null {
  return state;
}

/** Calls `listener` whenever the alert appears, changes or goes; returns the unsubscribe. */
export function onErrorAlert(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useErrorAlert(): AlertState | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => state,
  );
}
