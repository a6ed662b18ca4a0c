import { describe, expect, it } from 'vitest';
import { filledOf, neighbourAfterRemove, newRow, rowsOf, sameList } from './message-rows';

describe('the rows of the broadcast editor', () => {
  it('gives every row its own id, and one empty row for no message', () => {
    const rows = rowsOf(['A', 'B', 'A']);
    expect(new Set(rows.map((row) => row.id)).size).toBe(3);
    expect(rowsOf([]).map((row) => row.text)).toEqual(['']);
  });

  it('keeps the ids of the rows at the same place when the list is read again', () => {
    const before = rowsOf(['A', 'B']);
    const after = rowsOf(['A2', 'B2', 'C'], before);
    expect(after.slice(0, 2).map((row) => row.id)).toEqual(before.map((row) => row.id));
    expect(after.map((row) => row.text)).toEqual(['A2', 'B2', 'C']);
    expect(before.map((row) => row.id)).not.toContain(after[2]!.id);
  });

  it('moves the focus to the next row, else the previous one, after a removal', () => {
    const rows = [newRow('A'), newRow('B'), newRow('C')];
    expect(neighbourAfterRemove(rows, rows[0]!.id)).toBe(rows[1]!.id);
    expect(neighbourAfterRemove(rows, rows[1]!.id)).toBe(rows[2]!.id);
    expect(neighbourAfterRemove(rows, rows[2]!.id)).toBe(rows[1]!.id);
    expect(neighbourAfterRemove(rows.slice(0, 1), rows[0]!.id)).toBeNull();
    expect(neighbourAfterRemove(rows, 'gone')).toBeNull();
  });

  it('sends the messages trimmed, without empty boxes, and compares lists in order', () => {
    expect(filledOf([newRow('  Lift 4 closed '), newRow(''), newRow('   '), newRow('Depot\nFriday')])).toEqual(['Lift 4 closed', 'Depot\nFriday']);
    expect(sameList(['a\nb'], ['a', 'b'])).toBe(false);
    expect(sameList(['a', 'b'], ['b', 'a'])).toBe(false);
    expect(sameList(['a', 'b'], ['a', 'b'])).toBe(true);
  });
});
