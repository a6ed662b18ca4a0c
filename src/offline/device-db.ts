/**
 * The device database for the code of the first screen, loaded on first use (#22, decision 0034).
 * Dexie and the database's schema are a chunk of their own (~30 KB gzip): online, the first
 * screen draws from the server's answers and saves their copies behind them (mirror.ts), so the
 * chunk need not arrive, nor run, before the first list; offline it comes from the service
 * worker's cache in a moment. Code that runs inside the database's transactions (the outbox, the
 * count sheet, sync) imports `./db` as before: it loads with the screens that need it.
 */
import { useEffect, useState } from 'react';
import { afterFirstScreen } from '../lib/after-first-screen';
import { loadChunk } from '../lib/chunk-load';
import type * as DbModule from './db';

type DeviceDbModule = typeof DbModule;
export type DeviceDb = DeviceDbModule['offlineDb'];

let loading: Promise<DeviceDbModule> | undefined;

/** The database module (one load; a failed load is tried again on the next use). */
export function deviceDbModule(): Promise<DeviceDbModule> {
  loading ??= loadChunk(() => import('./db')).catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

export const deviceDb = (): Promise<DeviceDb> => deviceDbModule().then((module) => module.offlineDb);

/**
 * A live query of the device database (Dexie's liveQuery) for a component of the first screen:
 * `initial` until the first screen is drawn and the database has loaded and answered (the
 * database is not fetched for it before: lib/after-first-screen.ts), then every change of what
 * `query` reads.
 * `deps` are the query's inputs, as for useEffect; new inputs start again from `initial`.
 */
export function useDeviceQuery<T>(query: (db: DeviceDb) => Promise<T>, deps: readonly unknown[], initial: T): T {
  const [state, setState] = useState<{ deps: readonly unknown[]; value: T }>({ deps, value: initial });
  useEffect(() => {
    let stopped = false;
    let subscription: { unsubscribe(): void } | undefined;
    void afterFirstScreen()
      .then(deviceDbModule)
      .then(
      ({ offlineDb, liveQuery }) => {
        if (stopped) return;
        subscription = liveQuery(() => query(offlineDb)).subscribe({
          next: (value) => setState({ deps, value }),
          error: (error: unknown) => console.warn('A live read of the device database failed', error),
        });
      },
      (error: unknown) => console.warn('The device database could not be loaded', error),
    );
    return () => {
      stopped = true;
      subscription?.unsubscribe();
    };
    // The query is the caller's; its inputs are `deps`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  const current = state.deps.length === deps.length && state.deps.every((value, index) => Object.is(value, deps[index]));
  return current ? state.value : initial;
}
