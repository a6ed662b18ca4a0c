/**
 * Text typed into a count line's quantity field that is not on the device yet: refused as typed
 * ("1.250" in German, "12a") or refused by the device (storage full). It stays the user's when its
 * row leaves the page — a long count draws only the lines near the screen, and scrolling away
 * removes the row — and across a reload or a closed tab: the row shows it again, red, with why,
 * and Submit waits for it (decision 0071). Kept per user and count in localStorage (the feedback
 * drafts' way, 0062); when storage refuses even that, this tab still holds it in memory.
 */
import type { TypedFrom } from './count-sheet';

export interface TypedDraft {
  text: string;
  /** The line as it was when the typing began (what the edit is sent from once it is corrected). */
  from?: TypedFrom;
}

const PREFIX = 'count-typing:';

/** Whose and which count's lines: the user's email and the count id. */
export const typingScope = (email: string, stockCountId: number) => `${email}:${stockCountId}`;

/** This tab's copy, when storage refused the last write (full, blocked); else what storage holds. */
const memory = new Map<string, Record<string, TypedDraft>>();

function read(scope: string): Record<string, TypedDraft> {
  const held = memory.get(scope);
  if (held) return { ...held };
  try {
    const stored = JSON.parse(localStorage.getItem(PREFIX + scope) ?? 'null') as Record<string, TypedDraft> | null;
    if (stored && typeof stored === 'object') return Object.fromEntries(Object.entries(stored).filter(([, draft]) => typeof draft?.text === 'string'));
  } catch {
    // unreadable: nothing kept
  }
  return {};
}

function write(scope: string, drafts: Record<string, TypedDraft>): void {
  try {
    if (Object.keys(drafts).length === 0) localStorage.removeItem(PREFIX + scope);
    else localStorage.setItem(PREFIX + scope, JSON.stringify(drafts));
    memory.delete(scope);
  } catch {
    memory.set(scope, drafts);
  }
}

/** Keeps what is typed in `code`'s field. */
export function keepTyped(scope: string, code: string, draft: TypedDraft): void {
  write(scope, { ...read(scope), [code]: draft });
}

/** What was typed in `code`'s field and not stored, taken off the list (the row shows it now). */
export function takeTyped(scope: string, code: string): TypedDraft | undefined {
  const drafts = read(scope);
  const draft = drafts[code];
  if (draft === undefined) return undefined;
  delete drafts[code];
  write(scope, drafts);
  return draft;
}

/** Forgets `code`'s kept text, when it is `text` (or whatever it is, without one). */
export function dropTyped(scope: string, code: string, text?: string): void {
  const drafts = read(scope);
  const draft = drafts[code];
  if (draft === undefined || (text !== undefined && draft.text !== text)) return;
  delete drafts[code];
  write(scope, drafts);
}

/** The materials of the count whose typed text is kept off the page (their rows are not drawn). */
export function typedCodes(scope: string): string[] {
  return Object.keys(read(scope));
}

/** Forgets everything kept for a count (closed meanwhile: nothing of it can be counted any more). */
export function forgetTyping(scope: string): void {
  memory.delete(scope);
  try {
    localStorage.removeItem(PREFIX + scope);
  } catch {
    // storage unreadable: nothing kept there
  }
}
