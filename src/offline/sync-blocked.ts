/**
 * Whether the outbox of a user waits for a new sign-in: the last round was answered 401 after the
 * session could not be renewed (a token that expired in a basement, a provider that needs the
 * user). The changes stay on the device; the shell says so and offers to sign in again. Small on
 * purpose: the shell reads it without loading the sync engine (sync.ts writes it).
 */
import { useSyncExternalStore } from 'react';

let blockedUser: string | null = null;
const listeners = new Set<() => void>();

export function setSyncBlocked(userEmail: string, blocked: boolean): void {
  const next = blocked ? userEmail : blockedUser === userEmail ? null : blockedUser;
  if (next === blockedUser) return;
  blockedUser = next;
  listeners.forEach((listener) => listener());
}

export function isSyncBlocked(userEmail: string): boolean {
  return blockedUser === userEmail;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSyncBlocked(userEmail: string): boolean {
  return useSyncExternalStore(subscribe, () => blockedUser === userEmail);
}
