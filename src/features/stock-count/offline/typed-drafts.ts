/**
 * Text typed into a count line's quantity field that is not on the device yet: refused as typed
 * ("1.250" in German, "12a") or refused by the device (storage full). It stays the user's when its
 * row leaves the page — a long count draws only the lines near the screen, and scrolling away
 * removes the row — and across a reload or a closed tab: the row shows it again, red, with why,
 * and Submit waits for it (decision 0071). Kept per user and count in localStorage (the feedback
 * drafts' way, 0062); when storage refuses even that, this tab still holds it in memory.
 */
import type { TypedFrom } from './count-sheet';
import { scopedNotes } from './count-scope';

export interface TypedDraft {
  text: string;
  /** The line as it was when the typing began (what the edit is sent from once it is corrected). */
  from?: TypedFrom;
}

/** Whose and which count's lines: the user's email and the count id. */
export { countScope as typingScope } from './count-scope';

const isDraft = (value: unknown): value is TypedDraft => typeof (value as TypedDraft | null)?.text === 'string';
const { read, write, forget } = scopedNotes<TypedDraft>('count-typing:', isDraft);

/** Keeps what is typed in `code`'s field. */
export function keepTyped(scope: string, code: string, draft: TypedDraft): void {
  write(scope, { ...read(scope), [code]: draft });
}

/**
 * What was typed in `code`'s field and not stored, left on the list: read while a row is drawn,
 * which React may do and throw away (a navigation's render is interrupted by the next one). The row
 * takes it (`takeTyped`) once it is on the page. Taking it in the render lost it: a Submit that
 * cleared the filter re-asked every frame, the render that took the text was thrown away, and the
 * row drawn in the end found nothing (the stock-count-flow e2e, now and then).
 */
export function peekTyped(scope: string, code: string): TypedDraft | undefined {
  return read(scope)[code];
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
export const forgetTyping = forget;
