/**
 * What was typed into a feedback form, kept on the device per user and form until the server has
 * it (decision 0062). Nothing typed is lost: a reload, another form and back, and a Send pressed
 * without connection. A draft whose Send was pressed holds the body it sends (`sending`) under
 * its key: it is sent again, under that key, at the next start and whenever the connection comes
 * back, also when the form is never opened again (the server applies one key once). An open form
 * follows its stored draft (`useDraft`): a text the background send delivered meanwhile is shown
 * as sent, not as still waiting to be sent again or taken back as a new text (a second feedback).
 */
import { useEffect, useSyncExternalStore } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { feedbackItem, type FeedbackBody } from '../../../contract/feedback';
import { afterFirstScreen } from '../../../lib/after-first-screen';
import { ACCOUNT_REFUSALS } from '../../../domain/constants';
import { errorMessage, statusOf, userApi } from '../../../lib/api-client';

export type DraftValues = Record<string, string>;

export interface Draft {
  values: DraftValues;
  /** The Idempotency-Key of this text: another text is another key. */
  key: string;
  /** Send was pressed: what is sent under `key` until the server answers. */
  sending?: FeedbackBody;
  /** The server refused the last send (its words): the text stays for the user to correct. */
  refused?: string;
  /**
   * The key of the text the server took last: the draft was cleared for it (settleSend), here or
   * in another tab. A form that showed that text says it was sent (`deliveredSince`).
   */
  delivered?: string;
}

const PREFIX = 'feedback-draft:';

export const draftKeyOf = (email: string, type: string) => `${PREFIX}${email}:${type}`;

export const newDraft = (): Draft => ({ values: {}, key: crypto.randomUUID() });

/** The stored text of a draft; none where storage cannot be read. */
function storedText(storageKey: string): string | null {
  try {
    return localStorage.getItem(storageKey);
  } catch {
    return null;
  }
}

function parseDraft(text: string | null): Draft {
  try {
    const stored = JSON.parse(text ?? 'null') as Partial<Draft> | null;
    if (stored && typeof stored.key === 'string' && stored.values && typeof stored.values === 'object') {
      return {
        values: stored.values,
        key: stored.key,
        ...(stored.sending && typeof stored.sending === 'object' ? { sending: stored.sending } : {}),
        ...(typeof stored.refused === 'string' ? { refused: stored.refused } : {}),
        ...(typeof stored.delivered === 'string' ? { delivered: stored.delivered } : {}),
      };
    }
  } catch {
    // not a draft: start a new one
  }
  return newDraft();
}

/**
 * Each draft as this tab last wrote or read it, with what storage held then. A form follows its
 * draft (useSyncExternalStore), which needs the same object while nothing changed; and a draft
 * storage would not keep (full, blocked) is still the text on the screen. When storage holds
 * something else (another tab wrote it), that is read.
 */
const known = new Map<string, { draft: Draft; stored: string | null }>();

export function readDraft(storageKey: string): Draft {
  const stored = storedText(storageKey);
  const seen = known.get(storageKey);
  if (seen && seen.stored === stored) return seen.draft;
  const draft = parseDraft(stored);
  known.set(storageKey, { draft, stored });
  return draft;
}

export function writeDraft(storageKey: string, draft: Draft): void {
  try {
    if (draft.sending || draft.delivered || Object.values(draft.values).some((value) => value !== '')) localStorage.setItem(storageKey, JSON.stringify(draft));
    else localStorage.removeItem(storageKey);
  } catch {
    // storage full or blocked: the form still works, the draft is not kept
  }
  known.set(storageKey, { draft, stored: storedText(storageKey) });
  for (const listener of draftListeners) listener();
}

/**
 * The text of a send that has not gone, taken back to change it: under its key still. Sent again
 * unchanged it is applied once; a send of it still on its way clears it when it arrives. A change
 * makes it another text, under another key (the form's fields).
 */
export const takenBack = (draft: Draft): Draft => ({ values: draft.values, key: draft.key });

/** Whether `now` says the text of `shown` (a draft a form showed) reached the server since. */
export const deliveredSince = (shown: Draft, now: Draft): boolean => now.delivered !== undefined && now.delivered === shown.key;

const draftListeners = new Set<() => void>();

/** The stored draft keys of `email`; none where storage cannot be read. */
function draftKeysOf(email: string): string[] {
  const keys: string[] = [];
  try {
    for (let index = 0; index < localStorage.length; index += 1) {
      const name = localStorage.key(index);
      if (name?.startsWith(`${PREFIX}${email}:`)) keys.push(name);
    }
  } catch {
    // storage blocked: nothing is kept, nothing waits
  }
  return keys;
}

/** How many texts of `email` wait to reach the server (Send pressed, no answer yet). */
export function waitingFeedbackCount(email: string): number {
  return draftKeysOf(email).filter((key) => readDraft(key).sending).length;
}

export function subscribeToDrafts(listener: () => void): () => void {
  draftListeners.add(listener);
  // Another tab of the same app wrote or cleared a draft.
  window.addEventListener('storage', listener);
  return () => {
    draftListeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

/** The top bar's count of waiting feedback: "all saved" is not said while a text is still on the phone. */
export function useWaitingFeedbackCount(email: string): number {
  return useSyncExternalStore(
    subscribeToDrafts,
    () => waitingFeedbackCount(email),
    () => 0,
  );
}

/** The stored draft of a form, followed: written by the form, settled by a send (here or in the background), or by another tab. */
export function useDraft(storageKey: string): Draft {
  const snapshot = () => readDraft(storageKey);
  return useSyncExternalStore(subscribeToDrafts, snapshot, snapshot);
}

/** POST /user_api/v1/feedback under the draft's key: sent again after a lost answer, applied once. */
export const postFeedback = async (body: FeedbackBody, key: string) =>
  feedbackItem.parse(await userApi.post('feedback', { json: body, headers: { 'Idempotency-Key': key } }).json());

/**
 * The answer to one send, written into the stored draft: delivered clears it, noting the key it
 * held (unless the user has typed another text since, under another key); a refusal (4xx) keeps the text with the
 * server's words and stops sending it; no answer keeps it waiting.
 */
export async function settleSend(storageKey: string, key: string, outcome: { ok: true } | { ok: false; error: unknown }): Promise<'sent' | 'refused' | 'waiting'> {
  const current = readDraft(storageKey);
  if (outcome.ok) {
    if (current.key === key) writeDraft(storageKey, { ...newDraft(), delivered: key });
    return 'sent';
  }
  const status = statusOf(outcome.error);
  // A refusal is the text's (4xx), not a timeout (408) or too many requests (429): those wait. Nor
  // is a sign-in to renew (401) or a refusal of the account (403 "User expired", pending, rejected):
  // the text waits and goes once the account may send again, as the outbox's changes do
  // (offline/sync.ts refusesTheAccount), still counted as waiting in the top bar and at sign-out.
  const accountRefused = status === 403 && ACCOUNT_REFUSALS.includes(await errorMessage(outcome.error));
  if (status !== null && status >= 400 && status < 500 && ![401, 408, 429].includes(status) && !accountRefused) {
    if (current.key === key) writeDraft(storageKey, { values: current.values, key: current.key, refused: await errorMessage(outcome.error) });
    return 'refused';
  }
  return 'waiting';
}

/** Sends every draft of `email` whose Send was pressed; the number delivered. */
export async function sendWaitingFeedback(email: string, post: typeof postFeedback = postFeedback): Promise<number> {
  let delivered = 0;
  for (const storageKey of draftKeysOf(email)) {
    const draft = readDraft(storageKey);
    if (!draft.sending) continue;
    try {
      await post(draft.sending, draft.key);
      if ((await settleSend(storageKey, draft.key, { ok: true })) === 'sent') delivered += 1;
    } catch (error) {
      await settleSend(storageKey, draft.key, { ok: false, error });
    }
  }
  return delivered;
}

/** How often waiting feedback is tried again while the app is open. */
const RETRY_WAITING_MS = 60_000;

/** After sign-in: waiting feedback goes once the first screen is drawn, each time the connection returns, and every minute. */
export function useWaitingFeedback(email: string): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    let stopped = false;
    let running = false;
    const run = () => {
      if (stopped || running || !navigator.onLine) return;
      running = true;
      void sendWaitingFeedback(email)
        .then((delivered) => {
          if (delivered > 0) void queryClient.invalidateQueries({ queryKey: ['notifications', 'sent-feedback'] });
        })
        .finally(() => {
          running = false;
        });
    };
    void afterFirstScreen().then(run);
    window.addEventListener('online', run);
    // A weak link comes back without an offline/online flip: try again now and then, as the outbox does.
    const timer = window.setInterval(run, RETRY_WAITING_MS);
    return () => {
      stopped = true;
      window.clearInterval(timer);
      window.removeEventListener('online', run);
    };
  }, [email, queryClient]);
}
