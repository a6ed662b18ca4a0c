/**
 * §8: a 403 with the message 'User expired' on any call, not only the profile call, sends the
 * user to /user-expired. The API client reports it here; the app decides where that leads
 * (main.tsx hands it to the router), so the client stays free of routing.
 */
import { MESSAGES } from '../domain/constants';

type Listener = () => void;
const listeners = new Set<Listener>();

export function onUserExpired(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function reportUserExpired(): void {
  listeners.forEach((listener) => listener());
}

/** A response that says the account has expired: 403 with `{ "message": "User expired" }`. */
export async function isUserExpiredResponse(response: Response): Promise<boolean> {
  if (response.status !== 403) return false;
  try {
    const body = (await response.clone().json()) as unknown;
    return typeof body === 'object' && body !== null && 'message' in body && body.message === MESSAGES.userExpired;
  } catch {
    return false;
  }
}
