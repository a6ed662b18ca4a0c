/**
 * What the count sheet offers (countSheetRights): a read-only super manager who also counts reads
 * every count and counts, adds and submits only on those the server says it may change
 * (`writable_by_you`, decision 0065); a count from an older server or copy without the flag is
 * writable as before.
 */
import { describe, expect, it } from 'vitest';
import { countSheetRights } from './mechanic-view-page';

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
