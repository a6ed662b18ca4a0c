/**
 * The rows of the broadcast editor. Each row has an id of its own, made here on the device (the
 * server stores a plain list): keyed by position, removing a message moved the next one's text into
 * the removed row's box and the focus fell to the page.
 */

export interface MessageRow {
  id: string;
  text: string;
}

let lastRowId = 0;

export function newRow(text = ''): MessageRow {
  lastRowId += 1;
  return { id: `message-${lastRowId}`, text };
}

/** Rows for a list as the server has it (one empty row for none); rows at the same place keep their id, so their box stays. */
export function rowsOf(messages: readonly string[], keep: readonly MessageRow[] = []): MessageRow[] {
  const texts = messages.length > 0 ? messages : [''];
  return texts.map((text, index) => (keep[index] ? { id: keep[index].id, text } : newRow(text)));
}

/** What a save sends: the typed messages without surrounding spaces, empty boxes left out. */
export const filledOf = (rows: readonly MessageRow[]): string[] => rows.map((row) => row.text.trim()).filter((text) => text !== '');

export { sameTexts as sameList } from '../../domain/text';

/** The row that takes the focus when `id` is removed: the next one, else the previous; null when none is left. */
export function neighbourAfterRemove(rows: readonly MessageRow[], id: string): string | null {
  const index = rows.findIndex((row) => row.id === id);
  if (index === -1) return null;
  return rows[index + 1]?.id ?? rows[index - 1]?.id ?? null;
}
