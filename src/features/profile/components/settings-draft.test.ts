/** An edit of the notification settings saves against the revision it started from, whatever is read meanwhile (decision 0068). */
import { describe, expect, it } from 'vitest';
import type { NotificationSettingsEntry } from '../../../contract/notifications';
import { changedDraft } from './settings-draft';

const entries = (email: string) => [{ primary: true, email } as NotificationSettingsEntry];

describe('the settings form’s draft', () => {
  it('takes the revision shown at the first change and keeps it when the settings are read again', () => {
    const first = changedDraft(null, { revision: 7 }, entries('a@example.com'));
    expect(first).toEqual({ entries: entries('a@example.com'), revision: 7 });
    // The settings read again meanwhile (revision 8: a save elsewhere): the edit still names 7,
    // so its save is refused instead of undoing that save.
    const second = changedDraft(first, { revision: 8 }, entries('b@example.com'));
    expect(second).toEqual({ entries: entries('b@example.com'), revision: 7 });
  });

  it('names no revision for a device copy that has none', () => {
    expect(changedDraft(null, {}, entries('a@example.com')).revision).toBeUndefined();
  });
});
