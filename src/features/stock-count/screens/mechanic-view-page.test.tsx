/**
 * What the count sheet offers (countSheetRights): a read-only super manager who also counts reads
 * every count and counts, adds and submits only on those the server says it may change
 * (`writable_by_you`, decision 0065); a count from an older server or copy without the flag is
 * writable as before.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { OutboxEntry } from '../../../offline/db';
import type { LineActions } from '../components/material-line';
import { testLine } from '../offline/test-rows';
import { countSheetRights, mayBeCountedInPart, OrphanedChanges } from './mechanic-view-page';

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
