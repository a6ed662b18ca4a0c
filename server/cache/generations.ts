/**
 * What the caches may trust. Each topic has a generation number that moves on every change
 * anyone reports (a NOTIFY from the database, a write through this process's API, a test's
 * invalidateCaches): an entry is only served while the generation it was computed under is still
 * the current one. While this process is not listening for changes (not connected yet, connection
 * lost) nothing that depends on the database is served or stored: fail safe, never stale.
 */
export type Topic = 'tracking' | 'users';

/** The topic a notification names; anything unknown moves every generation. */
export function topicOf(payload: string): Topic | 'all' {
  return payload === 'tracking' || payload === 'users' ? payload : 'all';
}

export class CacheGenerations {
  #users = 0;
  #all = 0;
  #listening = false;

  /** Moves when the caller behind a token may have changed (users, identities, grants, attachments). */
  get users(): number {
    return this.#users;
  }

  /** Moves on every change of any topic: what a tracking page depends on (its rows and its caller). */
  get all(): number {
    return this.#all;
  }

  /** True while changes made elsewhere are heard. */
  get listening(): boolean {
    return this.#listening;
  }

  bump(topic: Topic | 'all'): void {
    if (topic !== 'tracking') this.#users += 1;
    this.#all += 1;
  }

  /** Any change may have been missed while not listening: both edges start a new generation. */
  setListening(listening: boolean): void {
    this.bump('all');
    this.#listening = listening;
  }
}
