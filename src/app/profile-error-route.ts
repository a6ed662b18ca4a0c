import { MESSAGES } from '../domain/constants';

export type GuardOutcome =
  | { kind: 'loading' }
  | { kind: 'redirect'; to: string }
  | { kind: 'offline'; message: string }
  | { kind: 'ready' };

/** Where a failed profile call leads (§8): 'User expired' → /user-expired, other 403 → /welcome. */
export function routeForProfileError(status: number | null, message: string): GuardOutcome {
  if (status === 403) return { kind: 'redirect', to: message === MESSAGES.userExpired ? '/user-expired' : '/welcome' };
  if (status === 401) return { kind: 'redirect', to: '/' };
  return { kind: 'offline', message };
}
