/**
 * An edit of the notification settings saves against the revision it started from, whatever is
 * read meanwhile (decision 0068); refused because another save came between, the user's changes
 * are carried onto the settings as they are now (decision 0069).
 */
import { describe, expect, it } from 'vitest';
import type { NotificationSettingsEntry } from '../../../contract/notifications';
import { changedDraft, rebasedDraft } from './settings-draft';

const entry = (primary: boolean, changes: Partial<NotificationSettingsEntry> = {}): NotificationSettingsEntry => ({
  primary,
  emailEnabled: true,
  email: primary ? 'mechanic@example.com' : null,
  mobileEnabled: false,
  mobileNumber: null,
  pushNotificationsEnabled: false,
  pushNotificationsSettings: [
    { deviceId: '1', deviceName: 'Android / Chrome', token: 't1', isEnabled: true, isLoggedIn: true },
    { deviceId: '2', deviceName: 'Windows / Edge', token: 't2', isEnabled: true, isLoggedIn: true },
  ],
  notificationsPreferences: {
    delivery_notification: { emailEnabled: true, smsEnabled: false, pushEnabled: false },
    inventory_count_notification: { emailEnabled: true, smsEnabled: false, pushEnabled: false },
  } as NotificationSettingsEntry['notificationsPreferences'],
  ...changes,
});

const shown = (revision: number | undefined, entries: NotificationSettingsEntry[]) => ({ revision, notification_settings: entries });

describe('the settings form’s draft', () => {
  it('takes the revision shown at the first change and keeps it when the settings are read again', () => {
    const loaded = [entry(true)];
    const first = changedDraft(null, shown(7, loaded), [entry(true, { email: 'a@example.com' })]);
    expect(first).toEqual({ entries: [entry(true, { email: 'a@example.com' })], revision: 7, base: loaded });
    // The settings read again meanwhile (revision 8: a save elsewhere): the edit still names 7,
    // so its save is refused instead of undoing that save.
    const second = changedDraft(first, shown(8, [entry(true, { mobileEnabled: true })]), [entry(true, { email: 'b@example.com' })]);
    expect(second).toEqual({ entries: [entry(true, { email: 'b@example.com' })], revision: 7, base: loaded });
  });

  it('names no revision for a device copy that has none', () => {
    expect(changedDraft(null, shown(undefined, [entry(true)]), [entry(true)]).revision).toBeUndefined();
  });
});

describe('an edit refused because the settings changed meanwhile', () => {
  const base = [entry(true)];

  it('keeps the user’s changes and takes the other save’s, with the new revision', () => {
    // The supervisor sets a secondary e-mail and turns off device 2; meanwhile the mechanic turned SMS on.
    const mine = [entry(true, { pushNotificationsSettings: [base[0]!.pushNotificationsSettings[0]!, { ...base[0]!.pushNotificationsSettings[1]!, isEnabled: false }] }), entry(false, { email: 'desk@example.com' })];
    const theirs = [entry(true, { mobileEnabled: true, mobileNumber: '+358401234567' })];
    const draft = changedDraft(null, shown(3, base), mine);
    const rebased = rebasedDraft(draft, shown(4, theirs))!;
    expect(rebased.revision).toBe(4);
    expect(rebased.base).toEqual(theirs);
    const [primary, secondary] = rebased.entries;
    expect(primary).toMatchObject({ mobileEnabled: true, mobileNumber: '+358401234567' });
    expect(primary!.pushNotificationsSettings.map((d) => d.isEnabled)).toEqual([true, false]);
    expect(secondary).toEqual(entry(false, { email: 'desk@example.com' }));
  });

  it('keeps a nested preference the user changed and one the other save changed', () => {
    const prefs = (delivery: boolean, inventory: boolean) =>
      ({
        delivery_notification: { emailEnabled: delivery, smsEnabled: false, pushEnabled: false },
        inventory_count_notification: { emailEnabled: inventory, smsEnabled: false, pushEnabled: false },
      }) as NotificationSettingsEntry['notificationsPreferences'];
    const draft = changedDraft(null, shown(1, base), [entry(true, { notificationsPreferences: prefs(false, true) })]);
    const rebased = rebasedDraft(draft, shown(2, [entry(true, { notificationsPreferences: prefs(true, false) })]))!;
    expect(rebased.entries[0]!.notificationsPreferences).toEqual(prefs(false, false));
  });

  it('has nothing left when the other save made the same change', () => {
    const same = [entry(true, { email: 'new@example.com' })];
    expect(rebasedDraft(changedDraft(null, shown(1, base), same), shown(2, same))).toBeNull();
  });

  it('keeps a secondary the user removed removed, unless the other save changed it', () => {
    const withSecondary = [entry(true), entry(false, { email: 'desk@example.com' })];
    const draft = changedDraft(null, shown(1, withSecondary), [entry(true, { email: 'x@example.com' })]);
    expect(rebasedDraft(draft, shown(2, [entry(true, { mobileEnabled: true }), entry(false, { email: 'desk@example.com' })]))!.entries).toHaveLength(1);
    expect(rebasedDraft(draft, shown(2, [entry(true), entry(false, { email: 'other@example.com' })]))!.entries).toHaveLength(2);
  });
});
