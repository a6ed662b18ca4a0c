/**
 * The upload dialog while a file is applied: it stays open (the outcome is what the user must
 * see), and the focus goes to the outcome's line once a step ends (its control went with it).
 */
import { describe, expect, it } from 'vitest';
import { focusesOutcome, mayClose } from './upload-dialog';

describe('the priority upload dialog', () => {
  it('cannot be closed while applying, at any other step it can', () => {
    expect(mayClose('applying')).toBe(false);
    for (const step of ['idle', 'checking', 'preview', 'refused', 'applied', 'unsure'] as const) expect(mayClose(step)).toBe(true);
  });

  it('moves the focus to the outcome after the check and after applying', () => {
    expect(focusesOutcome('checking', 'preview')).toBe(true);
    expect(focusesOutcome('checking', 'refused')).toBe(true);
    expect(focusesOutcome('applying', 'applied')).toBe(true);
    expect(focusesOutcome('applying', 'unsure')).toBe(true);
    expect(focusesOutcome('applying', 'refused')).toBe(true);
    // The user's own moves keep their focus: a file refused before any check (too large), a reset.
    expect(focusesOutcome('preview', 'refused')).toBe(false);
    expect(focusesOutcome('applied', 'idle')).toBe(false);
    expect(focusesOutcome('idle', 'checking')).toBe(false);
  });
});
