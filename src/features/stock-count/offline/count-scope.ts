/** Whose and which count's device-held notes (typed text, learned units): the user's email and the count id. */
export const countScope = (email: string, stockCountId: number) => `${email}:${stockCountId}`;

/**
 * Notes of one count kept on the device, by material code, in localStorage under `prefix` + scope
 * (the typed drafts of decision 0071, the learned units of 0076). When storage refuses a write
 * (full, blocked) this tab keeps the notes in memory instead, and reads them from there.
 */
export function scopedNotes<T>(prefix: string, isNote: (value: unknown) => value is T) {
  const memory = new Map<string, Record<string, T>>();
  return {
    read(scope: string): Record<string, T> {
      const held = memory.get(scope);
      if (held) return { ...held };
      try {
        const stored = JSON.parse(localStorage.getItem(prefix + scope) ?? 'null') as Record<string, unknown> | null;
        if (stored && typeof stored === 'object') return Object.fromEntries(Object.entries(stored).filter((entry): entry is [string, T] => isNote(entry[1])));
      } catch {
        // unreadable: nothing kept
      }
      return {};
    },
    write(scope: string, notes: Record<string, T>): void {
      try {
        if (Object.keys(notes).length === 0) localStorage.removeItem(prefix + scope);
        else localStorage.setItem(prefix + scope, JSON.stringify(notes));
        memory.delete(scope);
      } catch {
        memory.set(scope, notes);
      }
    },
    /** Every note of the scope gone (its count closed for good). */
    forget(scope: string): void {
      memory.delete(scope);
      try {
        localStorage.removeItem(prefix + scope);
      } catch {
        // storage unreadable: nothing kept there
      }
    },
  };
}
