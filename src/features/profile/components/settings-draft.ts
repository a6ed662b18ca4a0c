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
  /** The settings as they were when the edit started: what tells the user's changes from the rest. */
  base: NotificationSettingsEntry[];
}

/** The draft after a change to `entries`: the first change takes the revision and settings shown, later ones keep them. */
export function changedDraft(
  draft: SettingsDraft | null,
  shown: Pick<NotificationSettingsResponse, 'revision' | 'notification_settings'>,
  entries: NotificationSettingsEntry[],
): SettingsDraft {
  return draft ? { ...draft, entries } : { entries, revision: shown.revision, base: shown.notification_settings };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => same(item, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((key) => same(a[key], b[key]));
  }
  return false;
}

/** A list of devices merged by `deviceId`: theirs, with the switches the user flipped. */
function mergeDevices(mine: unknown[], base: unknown[], theirs: unknown[]): unknown[] {
  const byId = (list: unknown[]) => new Map(list.filter(isPlainObject).map((device) => [String(device.deviceId), device]));
  const mineById = byId(mine);
  const baseById = byId(base);
  return theirs.map((device) => {
    if (!isPlainObject(device)) return device;
    const id = String(device.deviceId);
    const own = mineById.get(id);
    const before = baseById.get(id);
    return own && before ? (merged(own, before, device) as Record<string, unknown>) : device;
  });
}

/** Three-way: where the user changed a value (mine differs from base) mine, else theirs. */
function merged(mine: unknown, base: unknown, theirs: unknown): unknown {
  if (same(mine, base)) return theirs;
  if (isPlainObject(mine) && isPlainObject(base) && isPlainObject(theirs)) {
    const keys = new Set([...Object.keys(theirs), ...Object.keys(mine)]);
    return Object.fromEntries([...keys].map((key) => [key, merged(mine[key], base[key], theirs[key])]));
  }
  if (Array.isArray(mine) && Array.isArray(base) && Array.isArray(theirs) && [...mine, ...base, ...theirs].every((d) => isPlainObject(d) && 'deviceId' in d)) {
    return mergeDevices(mine, base, theirs);
  }
  return mine;
}

/**
 * The edit carried onto the settings as they are now, after a save elsewhere refused it (409
 * notificationSettingsChangedMeanwhile): the values the user changed stay theirs, the rest is
 * what the other save wrote; its revision is the one the next save names. Null when nothing of
 * the user's remains different (the other save made the same change).
 */
export function rebasedDraft(draft: SettingsDraft, now: Pick<NotificationSettingsResponse, 'revision' | 'notification_settings'>): SettingsDraft | null {
  const of = (list: NotificationSettingsEntry[], primary: boolean) => list.find((entry) => entry.primary === primary);
  const entries: NotificationSettingsEntry[] = [];
  for (const primary of [true, false]) {
    const mine = of(draft.entries, primary);
    const base = of(draft.base, primary);
    const theirs = of(now.notification_settings, primary);
    if (theirs && mine && base) entries.push(merged(mine, base, theirs) as NotificationSettingsEntry);
    // Added by the user (theirs has none, or had none to start from): the user's.
    else if (mine && (!base || !theirs)) {
      if (!base || !same(mine, base)) entries.push(mine);
    }
    // Removed by the user: gone, unless the other save changed it meanwhile.
    else if (theirs && base && !mine) {
      if (!same(theirs, base)) entries.push(theirs);
    } else if (theirs) entries.push(theirs);
  }
  if (same(entries, now.notification_settings)) return null;
  return { entries, revision: now.revision, base: now.notification_settings };
}
