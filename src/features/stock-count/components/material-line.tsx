/**
 * One counted line: what it is, the book quantity, the quantity input (§5 rule and message),
 * and its sync state with the actions that resolve it. Enter saves and moves to the next line,
 * so a mechanic counts a whole shelf without touching anything else.
 */
import { memo, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { MaterialCountRow } from '../../../contract/stock';
import { formatQuantity, isGroupedQuantityInput, parseQuantityInput, isValidCountedQuantity } from '../../../domain/quantity';
import { bookQuantityMoved, quantityKeepingDifference, toThousandths } from '../../../domain/stock';
import type { OutboxEntry } from '../../../offline/db';
import { StorageFullError } from '../../../offline/errors';
import { formatDateTime } from '../../../lib/date-formats';
import { editOf, typingFrom, type TypedFrom } from '../offline/count-sheet';
import { dropTyped, keepTyped, peekTyped, takeTyped } from '../offline/typed-drafts';
import { dismissUnit, unitLearned } from '../offline/unit-notices';
import { isWedgeRestore } from '../../../lib/keyboard-wedge';
import { Dialog } from '../../../components/ui/dialog';
import '../stock-count.css';

export interface LineActions {
  /** `from`: the line as it was when the mechanic began typing over it (absent for − and + on a value not typed over). */
  onQuantity(line: MaterialCountRow, quantity: number, from?: TypedFrom): Promise<unknown>;
  /** After the book quantity moved: take the current book as the reference, with this quantity. */
  onAcceptBook(line: MaterialCountRow, quantity: number): void;
  /** Removes the line; called once the user confirmed it (RemoveLineDialog). */
  onRemove(line: MaterialCountRow): void;
  onRetry(entry: OutboxEntry): void;
  onDiscard(entry: OutboxEntry): void;
  onKeepMine(entry: OutboxEntry): void;
  onTakeTheirs(entry: OutboxEntry): void;
  /** An accepted book quantity refused (the book moved again): keep the quantity, choose the book again. */
  onChooseBookAgain(entry: OutboxEntry): void;
}

interface Props {
  line: MaterialCountRow;
  entry: OutboxEntry | undefined;
  canEdit: boolean;
  /**
   * Answers a moved book quantity with Keep counted though the quantity is not edited here: the
   * planner of a split count read whole (decision 0033). The quantity is the merge of the parts,
   * so Keep difference, a new quantity, is not offered (the server refuses it, 409).
   */
  canKeepCounted?: boolean;
  canRemove: boolean;
  actions: LineActions;
  /** #18 blind count: the counter is not shown the book quantity. */
  blind?: boolean;
  /** The list's first line: its paint is timed (Element Timing, the offline-start bench of #22). */
  timed?: boolean;
  /**
   * Where text typed here and not stored is kept when the row goes (typingScope: the user and the
   * count), and found again when it comes back (offline/typed-drafts.ts). Absent: not kept.
   */
  typing?: string;
}

/**
 * A quantity in a text, in the user's language ("1,5" in German); '' for none. `inField`: the
 * field's text, ungrouped, so it reads back through parseQuantityInput (what an edit builds on).
 */
const quantityText = (value: number | null, language: string, inField = false) => (value === null ? '' : formatQuantity(value, language, { inField }));

/**
 * What a mechanic typed into a quantity field: nothing (the field goes back to the saved value), a
 * quantity, or refused with a reason: `grouped`, a number with the language's thousands separator
 * ("1.250" in German: 1250 or 1,25? not guessed), `invalid`, not a counted quantity (§5).
 */
export type TypedQuantity = { kind: 'empty' } | { kind: 'quantity'; value: number } | { kind: 'grouped' } | { kind: 'invalid' };

export function readTypedQuantity(text: string, language: string): TypedQuantity {
  if (isGroupedQuantityInput(text, language)) return { kind: 'grouped' };
  const value = parseQuantityInput(text);
  if (value === null) return { kind: 'empty' };
  return isValidCountedQuantity(value) ? { kind: 'quantity', value } : { kind: 'invalid' };
}

/** Why a typed quantity is refused, in words; the transfer dialog's words, its example as the field takes it. */
export function typedQuantityError(problem: 'grouped' | 'invalid', t: TFunction, language: string): string {
  if (problem === 'grouped') return t('stock.transferQuantityGrouped', { example: formatQuantity(1500.5, language, { inField: true }) });
  return t('stockCount.quantityInvalid');
}

/** The error a kept text is shown with when drawn again (decision 0071): none for a quantity or an empty field. */
function keptTextError(text: string, t: TFunction, language: string): string | null {
  const typed = readTypedQuantity(text, language);
  return typed.kind === 'quantity' || typed.kind === 'empty' ? null : typedQuantityError(typed.kind, t, language);
}

function focusNextQuantity(current: HTMLInputElement) {
  const inputs = [...document.querySelectorAll<HTMLInputElement>('input[data-quantity]')];
  const next = inputs[inputs.indexOf(current) + 1];
  if (next) {
    next.focus();
    next.select();
  } else current.blur();
}

/**
 * Where the focus goes when a line is removed: its row leaves the page, with the × that had the
 * focus, which fell to <body> (a keyboard or screen-reader user lost their place in a long count).
 * The next line's quantity, or the previous line's when it was the last; null when none is left
 * to type in (then the dialog's own return of the focus, to the page's <main>, stands).
 */
export function quantityAfterRemoval(code: string, root: ParentNode = document): HTMLInputElement | null {
  const rows = [...root.querySelectorAll<HTMLElement>('[data-line]')];
  const at = rows.findIndex((row) => row.dataset.line === code);
  if (at < 0) return null;
  const field = (row: HTMLElement | undefined) => row?.querySelector<HTMLInputElement>('input[data-quantity]:not(:disabled)') ?? null;
  return field(rows[at + 1]) ?? field(rows[at - 1]);
}

/** What the user may do with a change the server refused: send it again, or drop it. */
export function RetryOrDiscard({ entry, actions }: { entry: OutboxEntry; actions: Pick<LineActions, 'onRetry' | 'onDiscard'> }) {
  const { t } = useTranslation();
  return (
    <span className="line-sync-actions">
      <button type="button" className="button small" onClick={() => actions.onRetry(entry)}>
        {t('sync.retry')}
      </button>
      <button type="button" className="button small" onClick={() => actions.onDiscard(entry)}>
        {t('sync.discard')}
      </button>
    </span>
  );
}

/**
 * A line's refused or conflicting change, read where the line is. Not an alert: the list is
 * virtualized, and each alert was read out again whenever its line scrolled back into view. The
 * top bar's sync status says once that a change needs the counter ("Changes that need you: 1").
 */
function SyncState({ entry, actions }: { entry: OutboxEntry; actions: LineActions }) {
  const { t, i18n } = useTranslation();
  const format = (value: number | null) => quantityText(value, i18n.language);
  if (entry.status === 'conflict') {
    const theirs = entry.theirs as MaterialCountRow | undefined;
    const edit = editOf(entry);
    const mine = edit?.quantity;
    // A book quantity accepted that moved again before it reached the server (decision 0054): the
    // server takes only the current one. Keeping mine would be refused again; the choice is made
    // again on the line as it is now.
    if (theirs && edit?.acceptBookQuantity !== undefined && theirs.book_quantity_now !== edit.acceptBookQuantity) {
      return (
        <div className="line-sync conflict">
          <span>{t('stockCount.bookMovedAgain', { now: format(theirs.book_quantity_now), unit: theirs.unit, mine: format(mine ?? null) })}</span>
          <span className="line-sync-actions">
            <button type="button" className="button small" onClick={() => actions.onChooseBookAgain(entry)}>
              {t('stockCount.chooseAgain')}
            </button>
          </span>
        </div>
      );
    }
    // The planner sent the line to recount meanwhile (decision 0033): nobody's value to take, the
    // counter counts it again; what they typed is kept with "Keep mine".
    const recount = theirs !== undefined && theirs.quantity === null && !theirs.updated_by;
    return (
      <div className="line-sync conflict">
        <span>
          {recount
            ? t('sync.recountRequested', { mine: format(mine ?? null) })
            : t('sync.conflictText', { mine: format(mine ?? null), theirs: format(theirs?.quantity ?? null), who: theirs?.updated_by ?? '?' })}
        </span>
        <span className="line-sync-actions">
          <button type="button" className="button small" onClick={() => actions.onKeepMine(entry)}>
            {t('sync.keepMine')}
          </button>
          {!recount && (
            <button type="button" className="button small" onClick={() => actions.onTakeTheirs(entry)}>
              {t('sync.takeTheirs')}
            </button>
          )}
        </span>
      </div>
    );
  }
  if (entry.status === 'failed') {
    return (
      <div className="line-sync failed">
        <span>{t('sync.failedText', { message: entry.lastError ?? '' })}</span>
        <RetryOrDiscard entry={entry} actions={actions} />
      </div>
    );
  }
  return <div className="line-sync pending">{entry.kind === 'material-count.add' ? t('sync.addWaiting') : t('sync.pending')}</div>;
}

/**
 * The line was counted while its unit was not known ("?"), and the server has since given it
 * (decision 0076): the count is in that unit, which the counter may not have had in mind. Said
 * once, until OK or a new quantity.
 */
function UnitLearned({ line, onSeen }: { line: MaterialCountRow; onSeen: () => void }) {
  const { t, i18n } = useTranslation();
  return (
    <div className="line-sync unit-learned" role="status">
      <span>{t('stockCount.unitLearned', { unit: line.unit, quantity: quantityText(line.quantity, i18n.language) })}</span>
      <span className="line-sync-actions">
        <button type="button" className="button small" onClick={onSeen} aria-label={t('stockCount.unitLearnedSeenFor', { code: line.material_code })}>
          {t('stockCount.unitLearnedSeen')}
        </button>
      </span>
    </div>
  );
}

/**
 * The book quantity moved after the line was taken: say by how much, and let the counter keep the
 * counted quantity or keep the difference (counted + the move), before the count is submitted.
 * `choice`: both (the one who counts), Keep counted only (a split count's planner), or none.
 */
function BookMoved({ line, choice, onAccept }: { line: MaterialCountRow; choice: 'both' | 'counted' | 'none'; onAccept: (quantity: number) => void }) {
  const { t, i18n } = useTranslation();
  const format = (value: number | null) => quantityText(value, i18n.language);
  const counted = line.quantity!;
  const keepDifference = quantityKeepingDifference(counted, line.book_quantity, line.book_quantity_now);
  const differenceValid = keepDifference !== null && isValidCountedQuantity(keepDifference);
  return (
    <div className="line-sync book-moved" role="status">
      <span>
        {t('stockCount.bookMoved', {
          before: format(line.book_quantity),
          now: format(line.book_quantity_now),
          unit: line.unit,
        })}
      </span>
      {choice !== 'none' && (
        <span className="line-sync-actions">
          <button type="button" className="button small" onClick={() => onAccept(counted)}>
            {t('stockCount.keepCounted', { quantity: format(counted) })}
          </button>
          {choice === 'both' && (
            <button
              type="button"
              className="button small"
              disabled={!differenceValid}
              title={differenceValid ? undefined : t('stockCount.keepDifferenceNegative')}
              onClick={() => differenceValid && onAccept(keepDifference)}
            >
              {t('stockCount.keepDifference', { quantity: format(keepDifference) })}
            </button>
          )}
        </span>
      )}
    </div>
  );
}

/**
 * Removing a line is asked first (#10): the × sits beside the + stepper, and one stray tap threw
 * the line away, a counted quantity with it, for good. The question names the material and the
 * quantity that goes; Cancel comes first and has the focus, so Enter or a second stray tap keeps it.
 */
export function RemoveLineDialog({ line, onConfirm, onClose }: { line: MaterialCountRow; onConfirm: () => void; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const cancel = useRef<HTMLButtonElement>(null);
  // After the dialog's showModal (its effect, a child's, runs first), as the sign-out question does.
  useEffect(() => {
    cancel.current?.focus();
  }, []);
  return (
    <Dialog open title={t('stockCount.removeLineTitle', { code: line.material_code })} onClose={onClose}>
      <p>{t('stockCount.removeLineText', { code: line.material_code, description: line.material_description_english })}</p>
      {line.quantity !== null && (
        <p className="notice danger">{t('stockCount.removeLineCounted', { quantity: formatQuantity(line.quantity, i18n.language), unit: line.unit })}</p>
      )}
      <div className="dialog-actions">
        <button ref={cancel} type="button" className="button ghost" onClick={onClose}>
          {t('common.cancel')}
        </button>
        <button type="button" className="button danger" onClick={onConfirm}>
          {t('stockCount.removeLineConfirm')}
        </button>
      </div>
    </Dialog>
  );
}

/** Quantities typed into a line and on their way to the device's store (see `saveTyping`). */
const typingSaves = new Set<Promise<unknown>>();

/**
 * Saves what is being typed in the focused quantity field, as leaving it would, and waits until it
 * is on the device: a scan counted in count mode then adds its 1 to the typed total. Without it the
 * scan's +1 went under the typing, and the typed value written on blur replaced it (a piece lost).
 */
export async function saveTyping(): Promise<void> {
  const active = document.activeElement;
  if (active instanceof HTMLInputElement && active.matches('input[data-quantity]')) active.blur();
  await Promise.allSettled([...typingSaves]);
}

function MaterialLineView({ line, entry, canEdit, canKeepCounted = false, canRemove, actions, blind = false, timed = false, typing }: Props) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  /** A quantity as a number of the user's language (1,5 in German, Finnish, French…). */
  const number = (value: number) => formatQuantity(value, language);
  /** The field's text for a quantity (decision 0064: what the field shows is what an edit builds on). */
  const format = (value: number | null) => quantityText(value, language, true);
  const inputId = useId();
  const errorId = useId();
  /**
   * Text typed here before and not stored: the row left the page (scrolled far) or the page was
   * reloaded with it refused (decision 0071). It is the field's text again, not yet stored.
   */
  const [restored] = useState(() => (typing ? peekTyped(typing, line.material_code) : undefined));
  const [text, setText] = useState(restored?.text ?? format(line.quantity));
  const [error, setError] = useState<string | null>(() => (restored ? keptTextError(restored.text, t, language) : null));
  /** The × was pressed: the removal waits for the user's yes (RemoveLineDialog). */
  const [removing, setRemoving] = useState(false);
  // A unit learned after the line was counted, not yet seen (offline/unit-notices.ts); `seen` redraws the row once OK is pressed.
  const [seen, setSeen] = useState(false);
  // Read from storage when the line's unit or count changes, not at every keystroke's render.
  const noted = useMemo(() => (typing !== undefined && line.unit !== '' ? unitLearned(typing, line.material_code) : undefined), [typing, line.material_code, line.unit]);
  const learned = !seen && line.quantity !== null && noted === line.unit;
  const unitSeen = () => {
    if (typing === undefined) return;
    dismissUnit(typing, line.material_code);
    setSeen(true);
  };
  /** Typed and not yet saved: what the device holds must not overwrite it. */
  const dirty = useRef(restored !== undefined);
  /** The restored text is a quantity (the device could not store it then): stored once the row is drawn. */
  const storeRestored = useRef(restored !== undefined && error === null);
  /**
   * The line as it was when the typing began: a value that arrives meanwhile (another counter's,
   * from a read of the server) is not shown over the typing, so the edit must not overwrite it
   * unseen. Sent with the edit, it makes the server answer with a conflict instead.
   */
  const typedFrom = useRef<TypedFrom | undefined>(restored?.from);

  // No longer removable while asked (counted in a part meanwhile, the count closed): the question goes.
  if (removing && !canRemove) setRemoving(false);

  const moved = line.quantity !== null && bookQuantityMoved(line.book_quantity, line.book_quantity_now);

  const input = useRef<HTMLInputElement>(null);
  /** The field was focused with all its text selected when the device's value replaced it. */
  const reselect = useRef(false);
  /**
   * A tap into the field selects what it holds, so the number typed replaces the count instead of
   * being added to its digits (3, then 3, was 33). The tap's own mouseup would put the caret back
   * where the finger was: that one is held (only a press that brought the focus: focus given by
   * Enter, a scan or Submit has no mouseup to hold); a second tap places the caret to correct one
   * digit.
   */
  const pressedInto = useRef(false);

  // Show what the device holds when it changes underneath (sync, take theirs, discard), unless
  // the mechanic is typing over it. A focused field whose whole text is selected (Enter on the
  // line before, a tap that selects, a test's fill), or that is empty, keeps the new text
  // selected: what is typed next replaces the value and never lands after it. Browser chaos,
  // CHAOS_SEED=836769833: "158" typed over a value that changed to 122 between select and typing
  // read "122158". Layout effects, so no keystroke can come between the new value and its selection.
  useLayoutEffect(() => {
    if (dirty.current) return;
    const next = quantityText(line.quantity, language, true);
    const field = input.current;
    if (field?.value === next) return;
    reselect.current = !!field && field === document.activeElement && field.selectionStart === 0 && field.selectionEnd === field.value.length;
    setText(next);
    // The language too: a field not typed in shows the value as the new language writes it.
  }, [line.quantity, language]);
  useLayoutEffect(() => {
    if (!reselect.current) return;
    reselect.current = false;
    if (input.current === document.activeElement) input.current?.select();
  }, [text]);

  /** Keeps the field's text off the page (offline/typed-drafts.ts), for when the row goes. */
  const keep = (typed: string, from: TypedFrom | undefined) => {
    if (typing) keepTyped(typing, line.material_code, { text: typed, ...(from ? { from } : {}) });
  };
  /** The field shows what the device holds (saved, cleared, stepped): nothing of it is kept apart. */
  const settled = () => {
    if (typing) dropTyped(typing, line.material_code);
  };

  /**
   * A value the device could not store (storage full) stays the user's: the field keeps it as
   * typed, red with why where the thumb is (the toast may be under the keyboard), and the next
   * blur, Enter or page hide stores it again. Kept apart too, should the row go meanwhile.
   */
  const keepIfRefused = (saving: Promise<unknown>, typed: string, from: TypedFrom | undefined) => {
    typingSaves.add(saving);
    saving
      .catch((failure: unknown) => {
        dirty.current = true;
        keep(typed, from);
        setError(t(failure instanceof StorageFullError ? 'stockCount.typedNotKeptFull' : 'stockCount.typedNotKept'));
      })
      .finally(() => typingSaves.delete(saving));
  };

  const commit = () => {
    // Nothing typed since the field last showed the device's value: nothing to save. The text of
    // this render may be stale then (a scanner's keys taken back out of the field a moment ago,
    // not yet re-rendered): written on blur, it replaced the line's count with the scanned code.
    if (!dirty.current) return true;
    const from = typedFrom.current;
    const typed = readTypedQuantity(text, language);
    if (typed.kind === 'empty') {
      dirty.current = false;
      setText(format(line.quantity));
      setError(null);
      settled();
      return true;
    }
    // Refused: the text stays the user's (not replaced by the device's value), and is checked again.
    // A German "1.250" is refused too, not saved as 1,25 (nor as 1250: which was meant is not known).
    if (typed.kind !== 'quantity') {
      setError(typedQuantityError(typed.kind, t, language));
      return false;
    }
    const value = typed.value;
    dirty.current = false;
    setError(null);
    settled();
    // A quantity typed with the unit in view: the unit is known to the counter now.
    if (learned) unitSeen();
    // Saved unless it is what the field showed AND what the screen's line holds. The line can be a
    // render behind the field (a value this field saved a moment ago): typing the value from
    // before it back (6 saved, then 5 again) must be saved, not taken for "unchanged".
    if (value !== line.quantity || value !== from?.quantity) keepIfRefused(actions.onQuantity(line, value, from), text, from);
    return true;
  };

  // What is typed is saved before the page goes away: tab closed, app switched, screen locked.
  // Text that cannot be stored as it is (refused as typed) is kept apart for when the row or the
  // page goes: shown again, red, when the line is drawn next (decision 0071).
  const commitLatest = useRef(commit);
  const keepLatest = useRef(() => keep(text, typedFrom.current));
  useEffect(() => {
    commitLatest.current = commit;
    keepLatest.current = () => keep(text, typedFrom.current);
  });
  useEffect(() => {
    // The kept text is the row's now that it is on the page: taken off the list. What is kept now
    // can differ from what was read when the row was drawn: drawn anew while an earlier drawing of
    // this row was still on the page (the list re-keyed its rows), that one's removal (below, run
    // before this) has just kept its text. Shown then, as when the row is drawn after a reload;
    // nothing can have been typed here yet (React runs these effects before any input event).
    if (typing) {
      const kept = takeTyped(typing, line.material_code);
      if (kept && kept.text !== restored?.text) {
        dirty.current = true;
        typedFrom.current = kept.from;
        setText(kept.text);
        setError(keptTextError(kept.text, t, language));
      }
    }
    const flush = () => {
      if (dirty.current && !commitLatest.current()) keepLatest.current();
    };
    // A kept quantity the device could not store before (storage full): stored now it is drawn again.
    if (storeRestored.current) flush();
    const onHidden = () => document.visibilityState === 'hidden' && flush();
    window.addEventListener('pagehide', flush);
    document.addEventListener('visibilitychange', onHidden);
    return () => {
      window.removeEventListener('pagehide', flush);
      document.removeEventListener('visibilitychange', onHidden);
      // And when the line leaves the page with typing unsaved: a long count draws only the lines
      // near the screen, so scrolling far (the keyboard still up) removes the row, and React sends
      // no blur to a field it removes. Saved as on blur, not dropped with the row.
      flush();
    };
    // Once per drawing of the row: the kept text is its own when it is drawn.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  /** − and + (#21): one more or one less than what the field shows (or the saved count), never below 0. */
  const step = (by: number) => {
    // A grouped number typed ("1.250" in German) is no base for a step: said, not guessed.
    if (isGroupedQuantityInput(text, language)) {
      setError(typedQuantityError('grouped', t, language));
      return;
    }
    const shown = parseQuantityInput(text);
    const current = shown ?? line.quantity ?? 0;
    const next = Math.max(0, toThousandths(current + by));
    if (!isValidCountedQuantity(next)) return;
    // Built on what the field shows, which may be a value it saved a moment ago and the line does
    // not show yet (+ then − quickly): what the step is based on, for the edit and its journal.
    const from = dirty.current ? typedFrom.current : typingFrom(line, text);
    dirty.current = false;
    setError(null);
    settled();
    setText(format(next));
    if (next !== line.quantity || next !== shown) keepIfRefused(actions.onQuantity(line, next, from), format(next), from);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      if (commit()) focusNextQuantity(event.currentTarget);
    } else if (event.key === 'Escape') {
      dirty.current = false;
      setText(format(line.quantity));
      setError(null);
      settled();
    }
  };

  return (
    <div
      className={`material-line${entry ? ` has-${entry.status}` : ''}${line.quantity === null ? ' uncounted' : ''}${moved ? ' book-moved' : ''}`} data-line={line.material_code}>
      <div className="material-line-main">
        <div className="material-line-what">
          <span className="material-code" elementtiming={timed ? 'count-line' : undefined}>{line.material_code}</span>
          <span className="material-description">{line.material_description_english}</span>
          {line.bin && <span className="material-bin">{t('stockCount.binLabel', { bin: line.bin })}</span>}
          {!blind && (
            <span className="material-book">
              {line.book_quantity === null
                ? t('stockCount.noBook')
                : line.book_quantity_at
                  ? t('stockCount.bookAt', { quantity: number(line.book_quantity), unit: line.unit, time: formatDateTime(line.book_quantity_at) })
                  : t('stockCount.book', { quantity: number(line.book_quantity), unit: line.unit })}
            </span>
          )}
        </div>
        <div className="material-line-input">
          <label className="visually-hidden" htmlFor={inputId}>
            {t('stockCount.quantityFor', { code: line.material_code })}
          </label>
          {canEdit && (
            <button type="button" className="stepper" tabIndex={-1} aria-label={t('stockCount.decrease', { code: line.material_code })} onClick={() => step(-1)}>
              −
            </button>
          )}
          <input
            ref={input}
            id={inputId}
            data-quantity
            type="text"
            inputMode="decimal"
            enterKeyHint="next"
            autoComplete="off"
            value={text}
            disabled={!canEdit}
            placeholder="–"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            onChange={(event) => {
              // A hardware scanner's keys land in the focused quantity before the scan is recognised;
              // putting the field back to the device's value is no typing. Kept dirty, the field
              // would hide the scan's +1 and write the old value back on blur (a count lost).
              // The field was clean when the scanner's keys began (typedFrom is what it showed then):
              // clean again, showing the device's value (a scan may have changed it meanwhile).
              if (isWedgeRestore(event.nativeEvent) && event.target.value === format(typedFrom.current?.quantity ?? line.quantity)) {
                dirty.current = false;
                setError(null);
                setText(format(line.quantity));
                return;
              }
              if (!dirty.current) {
                const theirs = entry?.status === 'conflict' ? (entry.theirs as MaterialCountRow | undefined)?.version : undefined;
                // What the field showed (`text`, before this keystroke): it may be a value it saved a moment ago.
                typedFrom.current = typingFrom(line, text, theirs);
              }
              dirty.current = true;
              setText(event.target.value);
            }}
            onMouseDown={(event) => {
              pressedInto.current = document.activeElement !== event.currentTarget;
            }}
            onFocus={(event) => {
              const field = event.currentTarget;
              if (field.value) field.setSelectionRange(0, field.value.length);
            }}
            onMouseUp={(event) => {
              if (!pressedInto.current) return;
              pressedInto.current = false;
              if (event.currentTarget.value) event.preventDefault();
            }}
            onBlur={() => {
              pressedInto.current = false;
              commit();
            }}
            onKeyDown={onKeyDown}
          />
          {canEdit && (
            <button type="button" className="stepper" tabIndex={-1} aria-label={t('stockCount.increase', { code: line.material_code })} onClick={() => step(1)}>
              +
            </button>
          )}
          {/* A line added by its code offline: the catalogue's unit is not known until the server takes the line. */}
          {line.unit ? (
            <span className="unit">{line.unit}</span>
          ) : (
            <span className="unit unknown" title={t('stockCount.unitUnknown')} aria-label={t('stockCount.unitUnknown')}>
              ?
            </span>
          )}
          {canRemove && (
            <button
              type="button"
              className="icon-button remove-line"
              aria-label={t('stockCount.removeLine', { code: line.material_code })}
              onClick={() => setRemoving(true)}
            >
              ×
            </button>
          )}
          {/* Mounted only while asked: a count holds thousands of lines. */}
          {removing && (
            <RemoveLineDialog
              line={line}
              onClose={() => setRemoving(false)}
              onConfirm={() => {
                // Found while the row is still there; focused once the dialog has closed (a modal
                // dialog keeps the focus from the page) and handed it back to this row's ×, just
                // before the row goes.
                const next = quantityAfterRemoval(line.material_code);
                setRemoving(false);
                // What was typed goes with the line.
                dirty.current = false;
                settled();
                actions.onRemove(line);
                if (next) {
                  requestAnimationFrame(() => {
                    if (!next.isConnected || next.disabled) return;
                    next.focus();
                    next.select();
                  });
                }
              }}
            />
          )}
        </div>
      </div>
      {error && (
        <p className="field-error" id={errorId} role="alert">
          {error}
        </p>
      )}
      {learned && <UnitLearned line={line} onSeen={unitSeen} />}
      {moved && !entry && (
        <BookMoved
          line={line}
          choice={canEdit ? 'both' : canKeepCounted ? 'counted' : 'none'}
          onAccept={(quantity) => actions.onAcceptBook(line, quantity)}
        />
      )}
      {entry && <SyncState entry={entry} actions={actions} />}
    </div>
  );
}

export const MaterialLine = memo(MaterialLineView);
