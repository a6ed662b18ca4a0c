import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HTTPError } from 'ky';
import type { FeedbackBody } from '../../../contract/feedback';
import { MESSAGES } from '../../../domain/constants';
import {
  deliveredSince,
  draftKeyOf,
  readDraft,
  sendWaitingFeedback,
  subscribeToDrafts,
  takenBack,
  waitingFeedbackCount,
  writeDraft,
  type Draft,
} from './feedback-drafts';
import { MemoryStorage } from '../../../../tests/setup/memory-storage';

const body = { type: 'ReportIssue', issue: 'The lift at gate 4 is stuck' } as unknown as FeedbackBody;
const waiting = (key: string): Draft => ({ values: { issue: 'The lift at gate 4 is stuck' }, key, sending: body });
const refusal = (message = 'Field issue must be 2000 characters or less', status = 400) =>
  new HTTPError(
    new Response(JSON.stringify({ message }), { status, headers: { 'content-type': 'application/json' } }),
    new Request('http://localhost/user_api/v1/feedback', { method: 'POST' }),
    {} as never,
  );

describe('feedback whose Send was pressed (decision 0062)', () => {
  beforeEach(() => {
    Object.defineProperty(globalThis, 'localStorage', { value: new MemoryStorage(), configurable: true });
  });

  it('is sent under its own key at the next start and then forgotten; other users\' and unsent drafts stay', async () => {
    const mine = draftKeyOf('mechanic@example.com', 'ReportIssue');
    const typedOnly = draftKeyOf('mechanic@example.com', 'Feedback');
    const theirs = draftKeyOf('supervisor@example.com', 'ReportIssue');
    writeDraft(mine, waiting('key-1'));
    writeDraft(typedOnly, { values: { openFeedback: 'half a thought' }, key: 'key-2' });
    writeDraft(theirs, waiting('key-3'));
    // The top bar's count: this user's texts whose Send was pressed, not a draft only typed.
    expect(waitingFeedbackCount('mechanic@example.com')).toBe(1);
    const posted: Array<[FeedbackBody, string]> = [];
    const delivered = await sendWaitingFeedback('mechanic@example.com', async (sent, key) => {
      posted.push([sent, key]);
      return {} as never;
    });
    expect(waitingFeedbackCount('mechanic@example.com')).toBe(0);
    expect(delivered).toBe(1);
    expect(posted).toEqual([[body, 'key-1']]);
    // The text is gone from the device; only the key the server took is noted, for a form that shows it.
    expect(readDraft(mine)).toMatchObject({ values: {}, delivered: 'key-1' });
    expect(readDraft(mine).sending).toBeUndefined();
    expect(readDraft(typedOnly).values).toEqual({ openFeedback: 'half a thought' });
    expect(readDraft(theirs).sending).toEqual(body);
  });

  it('stays waiting, text and key, while there is no answer', async () => {
    const mine = draftKeyOf('mechanic@example.com', 'ReportIssue');
    writeDraft(mine, waiting('key-1'));
    const delivered = await sendWaitingFeedback('mechanic@example.com', async () => {
      throw new TypeError('Failed to fetch');
    });
    expect(delivered).toBe(0);
    expect(readDraft(mine)).toEqual(waiting('key-1'));
  });

  it('keeps a refused text for correcting, with the server\'s words, and stops sending it', async () => {
    const mine = draftKeyOf('mechanic@example.com', 'ReportIssue');
    writeDraft(mine, waiting('key-1'));
    await sendWaitingFeedback('mechanic@example.com', async () => {
      throw refusal();
    });
    expect(readDraft(mine)).toEqual({ values: waiting('key-1').values, key: 'key-1', refused: 'Field issue must be 2000 characters or less' });
    let asked = 0;
    await sendWaitingFeedback('mechanic@example.com', async () => {
      asked += 1;
      return {} as never;
    });
    expect(asked).toBe(0);
  });

  it('keeps waiting, counted, through a sign-in to renew or a refusal of the account', async () => {
    const mine = draftKeyOf('mechanic@example.com', 'ReportIssue');
    writeDraft(mine, waiting('key-1'));
    for (const answer of [refusal('Unauthorized', 401), refusal(MESSAGES.userExpired, 403), refusal(MESSAGES.pendingApproval, 403)]) {
      await sendWaitingFeedback('mechanic@example.com', async () => {
        throw answer;
      });
      expect(readDraft(mine)).toEqual(waiting('key-1'));
      expect(waitingFeedbackCount('mechanic@example.com')).toBe(1);
    }
    // A 403 about the text itself (another plant, say) is the text's refusal.
    await sendWaitingFeedback('mechanic@example.com', async () => {
      throw refusal('Plant 9999 is not one of yours', 403);
    });
    expect(readDraft(mine).refused).toBe('Plant 9999 is not one of yours');
  });

  it('does not forget a newer text typed while an older one was on its way', async () => {
    const mine = draftKeyOf('mechanic@example.com', 'ReportIssue');
    writeDraft(mine, waiting('key-1'));
    await sendWaitingFeedback('mechanic@example.com', async () => {
      writeDraft(mine, { values: { issue: 'And gate 5 too' }, key: 'key-9' });
      return {} as never;
    });
    expect(readDraft(mine)).toEqual({ values: { issue: 'And gate 5 too' }, key: 'key-9' });
  });
});

describe('an open form follows its stored draft', () => {
  const mine = draftKeyOf('mechanic@example.com', 'ReportIssue');

  beforeEach(() => {
    Object.defineProperty(globalThis, 'localStorage', { value: new MemoryStorage(), configurable: true });
    // subscribeToDrafts also hears other tabs (the window's storage event).
    vi.stubGlobal('window', new EventTarget());
  });

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('hears the background send deliver the text it shows, and shows it as sent with nothing left to send again', async () => {
    writeDraft(mine, waiting('key-1'));
    const shown = readDraft(mine);
    // The form reads its draft through useSyncExternalStore: the same object while nothing changed.
    expect(readDraft(mine)).toBe(shown);
    let heard = 0;
    const stop = subscribeToDrafts(() => {
      heard += 1;
    });
    await sendWaitingFeedback('mechanic@example.com', async () => ({}) as never);
    stop();
    expect(heard).toBeGreaterThan(0);
    const now = readDraft(mine);
    expect(now).not.toBe(shown);
    expect(deliveredSince(shown, now)).toBe(true);
    // No text, not waiting: no "not sent yet", no Edit again, no second Send of it.
    expect(now.values).toEqual({});
    expect(now.sending).toBeUndefined();
    expect(waitingFeedbackCount('mechanic@example.com')).toBe(0);
    // The form opened again later does not say "sent" again.
    expect(deliveredSince(now, readDraft(mine))).toBe(false);
  });

  it('takes a text back under its key: the send still on its way clears it, no second feedback under a new key', async () => {
    writeDraft(mine, waiting('key-1'));
    const shown = readDraft(mine);
    // Edit again pressed while the background send of the same text waits for its answer.
    await sendWaitingFeedback('mechanic@example.com', async () => {
      writeDraft(mine, takenBack(readDraft(mine)));
      expect(readDraft(mine)).toEqual({ values: waiting('key-1').values, key: 'key-1' });
      return {} as never;
    });
    expect(readDraft(mine)).toMatchObject({ values: {}, delivered: 'key-1' });
    expect(deliveredSince(shown, readDraft(mine))).toBe(true);
  });

  it('hears a delivery by another tab', () => {
    writeDraft(mine, waiting('key-1'));
    const shown = readDraft(mine);
    // The other tab's background send cleared it (its writeDraft, seen here as storage only).
    localStorage.setItem(mine, JSON.stringify({ values: {}, key: 'key-2', delivered: 'key-1' }));
    expect(deliveredSince(shown, readDraft(mine))).toBe(true);
  });

  it('keeps the typed text on the screen where storage will not keep it', () => {
    const full = new MemoryStorage();
    full.setItem = () => {
      throw new DOMException('full', 'QuotaExceededError');
    };
    Object.defineProperty(globalThis, 'localStorage', { value: full, configurable: true });
    writeDraft(mine, { values: { issue: 'The lift' }, key: 'key-1' });
    expect(readDraft(mine)).toEqual({ values: { issue: 'The lift' }, key: 'key-1' });
  });
});
