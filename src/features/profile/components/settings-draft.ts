/**
 * The settings form's unsaved edit (decision 0068, a save names what it started from): the entries
 * as the user changed them and the revision of the settings the edit started from. The settings
 * are read again while a draft is open (a reconnection, this device's push registration, the
 * window coming back): the save still names the revision the edit was made on, so a save made
 * elsewhere meanwhile is refused (409 notificationSettingsChangedMeanwhile), not undone.
 */
import type { NotificationSettingsEntry, NotificationSettingsResponse } from '../../../contract/notifications';

export interface SettingsDraft {
  entries: NotificationSettingsEntry[];
  /** Undefined only for a copy saved on the device before revisions existed: the save then names none. */
  revision: number | undefined;
}

/** The draft after a change to `entries`: the first change takes the revision shown, later ones keep it. */
export function changedDraft(draft: SettingsDraft | null, shown: Pick<NotificationSettingsResponse, 'revision'>, entries: NotificationSettingsEntry[]): SettingsDraft {
  return { entries, revision: draft ? draft.revision : shown.revision };
}
