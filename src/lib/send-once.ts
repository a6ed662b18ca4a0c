/**
 * Idempotency-Keys for the writes a person sends with a button (the offline outbox keeps its own,
 * with each queued change in IndexedDB). A send whose outcome is unsure keeps its key, so the same
 * content sent again (the button pressed again) is the same request: the server answers it from
 * its first time instead of applying it twice, or refusing it as "changed meanwhile" (412, 409) or
 * gone (404) because of its own first attempt.
 *
 * Unsure: no answer, a time-out, or an answer that says nothing of whether an earlier try (ky's
 * own retries go under the same key) was applied: 401, 408, 429 and 5xx. Keeping a key is never
 * wrong there: an attempt that failed rolled its claim of the key back on the server. Sure: a 2xx,
 * or any other 4xx (the server's own refusal of this request): the key is forgotten, and the next
 * send, even of the same content, is a new request.
 *
 * A slot per scope (one user's permissions, one count's split) keeps the last unsure content
 * only. Scopes belong to a group (what one screen writes: priorities, users…): any sure answer in
 * the group forgets every slot of it, and a slot is kept ten minutes after its last unsure try. Either way
 * another write may have moved the state on since (a number removed without an answer, then
 * uploaded again, then removed again), and a replay would show an old answer for a new request.
 * Kept in memory only: a reload is a new start, as the screen it was sent from is.
 */
import { HTTPError } from 'ky';
import { isNetworkFailure } from '../offline/errors';

/** How long an unsure send keeps its key: the press again after no answer comes within it. */
export const UNSURE_KEY_MS = 10 * 60 * 1000;

const unsure = new Map<string, { group: string; content: string; key: string; at: number }>();

/** Whether a failure leaves it open that the request (or an earlier try of it) was applied. */
export function leavesUnsure(error: unknown): boolean {
  if (isNetworkFailure(error)) return true;
  if (!(error instanceof HTTPError)) return false;
  const status = error.response.status;
  return status >= 500 || status === 401 || status === 408 || status === 429;
}

export async function sendOnce<T>(group: string, scope: string, content: unknown, send: (key: string) => Promise<T>): Promise<T> {
  const slot = `${group}\u0000${scope}`;
  const text = JSON.stringify(content ?? null);
  const held = unsure.get(slot);
  const key = held && held.content === text && Date.now() - held.at < UNSURE_KEY_MS ? held.key : crypto.randomUUID();
  unsure.set(slot, { group, content: text, key, at: Date.now() });
  const answered = () => {
    for (const [other, entry] of unsure) if (entry.group === group) unsure.delete(other);
  };
  try {
    const answer = await send(key);
    answered();
    return answer;
  } catch (error) {
    // Unsure: kept (again, if another write of the group was answered meanwhile and forgot it),
    // its ten minutes counted from this try.
    if (leavesUnsure(error)) unsure.set(slot, { group, content: text, key, at: Date.now() });
    else answered();
    throw error;
  }
}
