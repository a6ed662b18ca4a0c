/**
 * What the count sheet offers (countSheetRights): a read-only super manager who also counts reads
 * every count and counts, adds and submits only on those the server says it may change
 * (`writable_by_you`, decision 0065); a count from an older server or copy without the flag is
 * writable as before. The planner of a split count read whole answers a moved book quantity (Keep
 * counted, decision 0033) through the single counter's edit, and the count's header says when and by
 * whom it was created (§9).
 */
import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { StockCountRow } from '../../../contract/stock';
import type { StockCountPartRow } from '../../../contract/stock-count-parts';
import { bookQuantityMoved } from '../../../domain/stock';
import { formatCreated } from '../../../lib/date-formats';
import { setDatesLocale } from '../../../lib/dates';
import { offlineDb, type OutboxEntry } from '../../../offline/db';
import { runRound, type SyncDeps } from '../../../offline/sync';
import type { LineActions } from '../components/material-line';
import { readCountSheet, sheetKey, writeCountSheet } from '../offline/count-sheet';
import '../offline/register';
import { TEST_COUNT_ID, testLine } from '../offline/test-rows';
import { CountMeta, countLineActions, countSheetRights, mayBeCountedInPart, OrphanedChanges } from './mechanic-view-page';

const MECHANIC = ['mechanic'];
const READ_ONLY_MECHANIC = ['super_manager_read_only', 'mechanic'];
const single = { submitQueued: false, split: false, readsSplitWhole: false, allPartsDone: true };
const rights = (count: Parameters<typeof countSheetRights>[0]['count'], permissions = READ_ONLY_MECHANIC, sheet = single) =>
  countSheetRights({ count, permissions, ...sheet });
const offered = (r: ReturnType<typeof countSheetRights>) => ({ canEdit: r.canEdit, canAdd: r.canAdd, canSubmit: r.canSubmit, canDelete: r.canDelete });
const NOTHING = { canEdit: false, canAdd: false, canSubmit: false, canDelete: false };

describe('countSheetRights', () => {
  it('offers a read-only super manager no counting on a count it may only read, and says so', () => {
    const r = rights({ status: 'in_progress', planned_by_you: false, writable_by_you: false });
    expect(offered(r)).toEqual(NOTHING);
    expect(r.readOnlyForYou).toBe(true);
    // Open by its status: the status notice ("this count is …: viewed, not changed") is not the one shown.
    expect(r.open).toBe(true);
  });

  it('offers it counting on a count its mechanic role is given', () => {
    const r = rights({ status: 'in_progress', planned_by_you: false, writable_by_you: true });
    expect(offered(r)).toEqual({ canEdit: true, canAdd: true, canSubmit: true, canDelete: false });
    expect(r.readOnlyForYou).toBe(false);
  });

  it('does not offer a submit that finishes a booking on a count it may only read', () => {
    const r = rights({ status: 'submitted', being_booked: true, writable_by_you: false });
    expect(r.canSubmit).toBe(false);
    expect(r.readOnlyForYou).toBe(true);
    expect(rights({ status: 'submitted', being_booked: true, writable_by_you: true }).canSubmit).toBe(true);
  });

  it('treats a count without the flag (older server, other service, saved copy) as writable', () => {
    const r = rights({ status: 'initiated' }, MECHANIC);
    expect(offered(r)).toEqual({ canEdit: true, canAdd: true, canSubmit: true, canDelete: false });
    expect(r.readOnlyForYou).toBe(false);
  });

  it('keeps the status and split rules: a closed count, a queued submit, a split count read whole', () => {
    const closed = rights({ status: 'completed', writable_by_you: true });
    expect(offered(closed)).toEqual(NOTHING);
    expect([closed.open, closed.readOnlyForYou]).toEqual([false, false]);
    expect(rights({ status: 'completed', writable_by_you: false }).readOnlyForYou).toBe(false);
    expect(offered(rights({ status: 'in_progress', writable_by_you: true }, MECHANIC, { ...single, submitQueued: true }))).toEqual(NOTHING);
    const whole = rights({ status: 'in_progress', writable_by_you: true, planned_by_you: true }, ['supervisor'], { ...single, split: true, readsSplitWhole: true, allPartsDone: false });
    expect(offered(whole)).toEqual({ canEdit: false, canAdd: true, canSubmit: false, canDelete: true });
    const part = rights({ status: 'in_progress', writable_by_you: true }, MECHANIC, { ...single, split: true, allPartsDone: false });
    expect([part.canEdit, part.canSubmit]).toEqual([true, false]);
  });
});

describe('a split count left being booked (decision 0053)', () => {
  const booking = { status: 'submitted', being_booked: true, writable_by_you: true, planned_by_you: true } as const;

  it('offers its planner reading it whole Submit again, and nothing else (its lines are frozen)', () => {
    const whole = rights(booking, ['supervisor'], { ...single, split: true, readsSplitWhole: true, allPartsDone: false });
    expect(offered(whole)).toEqual({ canEdit: false, canAdd: false, canSubmit: true, canDelete: false });
    expect(whole.booking).toBe(true);
  });

  it('offers it to a counter of a part too, even with parts the planner confirmed open', () => {
    expect(rights(booking, MECHANIC, { ...single, split: true, allPartsDone: false }).canSubmit).toBe(true);
  });

  it('offers no Submit while its submission waits in the outbox, nor to one without the right', () => {
    expect(rights(booking, ['supervisor'], { ...single, split: true, readsSplitWhole: true, allPartsDone: false, submitQueued: true }).canSubmit).toBe(false);
    expect(rights(booking, ['super_manager_read_only'], { ...single, split: true, readsSplitWhole: true }).canSubmit).toBe(false);
  });

  it('still offers an open split count read whole no Submit (its planner submits on the merge screen)', () => {
    const open = rights({ status: 'in_progress', writable_by_you: true }, ['supervisor'], { ...single, split: true, readsSplitWhole: true, allPartsDone: true });
    expect(open.canSubmit).toBe(false);
  });
});

describe('deleting a line of a split count (#10)', () => {
  it('is not offered on a line a part may have counted (the server refuses it: 409)', () => {
    // Counted, partly counted or resolved: the merged quantity.
    expect(mayBeCountedInPart(testLine(1, 4, 1), true)).toBe(true);
    // A variance empties the merged quantity; the line's version says a count was written.
    expect(mayBeCountedInPart(testLine(2, null, 2), true)).toBe(true);
  });

  it('is offered on a line nothing was written to, and on a line this phone added and did not send yet', () => {
    expect(mayBeCountedInPart(testLine(3), true)).toBe(false);
    expect(mayBeCountedInPart(testLine(-4, 2), true)).toBe(false);
  });

  it('changes nothing on a count not split', () => {
    expect(mayBeCountedInPart(testLine(5, 4, 3), false)).toBe(false);
  });
});

describe('changes refused for lines not in the list', () => {
  it('names a refused quantity as a number of the user’s language', async () => {
    const german = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'locales', 'de-DE.json'), 'utf8')) as Record<string, unknown>;
    await i18next.use(initReactI18next).init({ lng: 'de-DE', resources: { 'de-DE': { translation: german } }, interpolation: { escapeValue: false } });
    const none = () => undefined;
    const actions: LineActions = { onQuantity: () => Promise.resolve(), onAcceptBook: none, onRemove: none, onRetry: none, onDiscard: none, onKeepMine: none, onTakeTheirs: none, onChooseBookAgain: none };
    const refused: OutboxEntry = {
      seq: 1,
      id: 'e1',
      userEmail: 'mechanic@example.com',
      kind: 'material-count.quantity',
      scope: 'count:27',
      target: 'line:99',
      request: { service: 'stock', method: 'PUT', path: 'my_material_count', json: { modifiedMaterials: [{ id: 99, quantity: 1.5 }] } },
      status: 'failed',
      createdAt: 0,
      attempts: 1,
      lastError: 'Material count 99 not found',
      undo: { ...testLine(99, null), material_code: 'KM100' },
    };
    const html = renderToStaticMarkup(<OrphanedChanges entries={[refused]} lines={[testLine(1, 2)]} actions={actions} />);
    expect(html).toContain(i18next.t('stockCount.orphans.quantity', { code: 'KM100', quantity: '1,5' }));
    expect(html).not.toContain('1.5');
  });
});

describe('a moved book quantity on a split count read whole (decision 0033)', () => {
  const whole = { ...single, split: true, readsSplitWhole: true, allPartsDone: true };
  const open = { status: 'in_progress', writable_by_you: true, planned_by_you: true } as const;

  it('is answered by its planner with Keep counted: the submit waits for it (409 submitBookMoved)', () => {
    const r = rights(open, ['supervisor'], whole);
    expect(r.canKeepCounted).toBe(true);
    // The quantities stay the parts': nothing is typed here.
    expect(r.canEdit).toBe(false);
  });

  it('is not a counter’s, nor anyone’s on a count not open to them', () => {
    // A counter's part shows the book it was taken with: the move is the planner's.
    expect(rights(open, MECHANIC, { ...single, split: true, allPartsDone: false }).canKeepCounted).toBe(false);
    // A single count: the one who counts answers it (canEdit), as before.
    expect(rights(open, ['supervisor']).canKeepCounted).toBe(false);
    expect(rights({ ...open, planned_by_you: false }, ['supervisor'], whole).canKeepCounted).toBe(false);
    expect(rights({ ...open, writable_by_you: false }, ['super_manager_read_only', 'supervisor'], whole).canKeepCounted).toBe(false);
    expect(rights({ ...open, status: 'submitted' }, ['supervisor'], whole).canKeepCounted).toBe(false);
    expect(rights(open, ['supervisor'], { ...whole, submitQueued: true }).canKeepCounted).toBe(false);
  });

  describe('on the device (fake-indexeddb)', () => {
    const PLANNER = 'supervisor@example.com';
    const key = sheetKey(PLANNER, TEST_COUNT_ID);
    const part = (id: number, counter: string): StockCountPartRow => ({
      id,
      stock_count_id: TEST_COUNT_ID,
      counter,
      counter_name: null,
      label: null,
      status: 'done',
      done_at: '2026-12-01T10:00:00.000Z',
      total_lines: 1,
      counted_lines: 1,
      control_lines: 0,
      is_mine: false,
    });
    // The merged quantity 4, counted against a book of 5 that is 7 now.
    const moved = { ...testLine(1, 4, 3), book_quantity: 5, book_quantity_now: 7 };

    beforeEach(async () => {
      await Promise.all([offlineDb.pages.clear(), offlineDb.chunks.clear(), offlineDb.slots.clear(), offlineDb.outbox.clear(), offlineDb.marks.clear()]);
      // The planner counts no part: the whole count, with every part's progress.
      await writeCountSheet(PLANNER, {
        stock_count: { id: TEST_COUNT_ID, status: 'in_progress', part_count: 2, planned_by_you: true } as StockCountRow,
        material_counts: [moved, testLine(2, 6, 1)],
        parts: [part(7, 'mechanic@example.com'), part(8, 'mikko.virtanen@lift.example')],
      });
    });

    it('sends Keep counted as the count’s edit with the quantity unchanged and the book as it is now, and the flag clears', async () => {
      const running: Array<Promise<unknown>> = [];
      countLineActions(PLANNER, (work) => {
        running.push(work);
        return work;
      }).onAcceptBook(moved, 4);
      await Promise.all(running);
      const [queued] = await offlineDb.outbox.toArray();
      // PUT /my_material_count, which takes the planner's acceptance with the quantity unchanged (not the part's call).
      expect(queued!.request).toMatchObject({ method: 'PUT', path: 'my_material_count', json: { modifiedMaterials: [{ id: 1, quantity: 4, version: 3, acceptBookQuantity: 7 }] } });
      const shown = (await readCountSheet(key))!.material_counts.find((row) => row.id === 1)!;
      expect(bookQuantityMoved(shown.book_quantity, shown.book_quantity_now)).toBe(false);

      const sent: OutboxEntry[] = [];
      const deps: SyncDeps = {
        send: async (entry) => {
          sent.push(structuredClone(entry));
          return {
            status: 200,
            message: '',
            body: { material_counts: [{ ...moved, book_quantity: 7, version: 4, updated_by: PLANNER }], stock_counts: [{ id: TEST_COUNT_ID, status: 'in_progress' }] },
          };
        },
        sleep: async () => undefined,
      };
      expect(await runRound(PLANNER, deps)).toEqual({ sent: 1, stoppedBy: 'empty' });
      expect(sent).toHaveLength(1);
      const confirmed = (await readCountSheet(key))!.material_counts.find((row) => row.id === 1)!;
      expect([confirmed.quantity, confirmed.book_quantity, confirmed.book_quantity_now, confirmed.version]).toEqual([4, 7, 7, 4]);
      expect(await offlineDb.outbox.count()).toBe(0);
    });
  });
});

describe('the count’s header (§9)', () => {
  afterAll(() => setDatesLocale('en-US'));

  it('says when the count was created, as a long date with time in the user’s language, and by whom', async () => {
    const german = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'locales', 'de-DE.json'), 'utf8')) as Record<string, unknown>;
    await i18next.use(initReactI18next).init({ lng: 'de-DE', resources: { 'de-DE': { translation: german } }, interpolation: { escapeValue: false } });
    await setDatesLocale('de-DE');
    const count = { id: 27, created: '2026-12-15T08:00:00.000Z', created_by: 'planner@example.com', status: 'in_progress', type: 'cycle', plant: '1000', storage_location: '0001', should_be_done_at: null } as StockCountRow;
    const shown = renderToStaticMarkup(<CountMeta count={count} open />).replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    expect(shown).toContain(i18next.t('stockCount.createdBy', { date: formatCreated(count.created), who: 'planner@example.com' }));
    expect(shown).toContain('Dezember 2026');
    expect(shown).toContain('planner@example.com');
  });
});
