/**
 * A line counted before its unit was known (decision 0070: a material added by its code offline
 * shows "?" until the server takes the line) whose unit the server then gave: the counter is told
 * once, on the line, that the quantity they typed is in that unit, until they say OK or count the
 * line again (decision 0076). Kept per user and count in localStorage beside the typed drafts
 * (0071): the add may be confirmed while the line is off the screen, or the app closed.
 */
import { scopedNotes } from './count-scope';

export { countScope as unitScope } from './count-scope';

const { read, write, forget } = scopedNotes<string>('count-unit:', (value): value is string => typeof value === 'string');

/** The server gave `code`'s line its unit after it was counted without one. */
export function noteUnitLearned(scope: string, code: string, unit: string): void {
  write(scope, { ...read(scope), [code]: unit });
}

/** The unit `code`'s counter has not been told of yet, or undefined. */
export function unitLearned(scope: string, code: string): string | undefined {
  return read(scope)[code];
}

/** The counter has seen it (OK, or a new quantity typed in the unit shown). */
export function dismissUnit(scope: string, code: string): void {
  const notices = read(scope);
  if (!(code in notices)) return;
  delete notices[code];
  write(scope, notices);
}

/** Forgets every notice of a count (closed for good). */
export const forgetUnits = forget;
