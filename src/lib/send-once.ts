/**
 * Idempotency-Keys for the writes a person sends with a button (the offline outbox keeps its own,
 * with each queued change in IndexedDB). A send whose outcome is unsure (no answer, a time-out, a
 * gateway's 502/503/504 in place of the server's: it may have been applied) keeps its key, so the
 * same content sent again (the button pressed again) is the same request: the server answers it
 * from its first time instead of applying it twice, or refusing it as "changed meanwhile" (412,
 * 409) because of its own first attempt. Any answer from the server itself forgets the key: the
 * next send, even of the same content, is a new request (a setting put back to what it was is
 * written again, not answered from the first time).
 *
 * One slot per scope (one user's permissions, one count's split): only the last unsure content is
 * remembered there. Another content is another request under a new key; the server refuses a key
 * reused for a different request (422), so a slot can never replay the wrong change. Kept in
 * memory only: a reload is a new start, as the screen it was sent from is.
 */
import { isGatewayAnswer, isNetworkFailure } from '../offline/errors';

const unsure = new Map<string, { content: string; key: string }>();

export async function sendOnce<T>(scope: string, content: unknown, send: (key: string) => Promise<T>): Promise<T> {
  const text = JSON.stringify(content ?? null);
  const held = unsure.get(scope);
  const key = held?.content === text ? held.key : crypto.randomUUID();
  unsure.set(scope, { content: text, key });
  const forget = () => {
    if (unsure.get(scope)?.key === key) unsure.delete(scope);
  };
  try {
    const answer = await send(key);
    forget();
    return answer;
  } catch (error) {
    if (!isNetworkFailure(error) && !isGatewayAnswer(error)) forget();
    throw error;
  }
}
