/**
 * Loading the app's chunks (§8, §9): a chunk that does not arrive within 120,000 ms fails as a
 * `timeout`, one whose request fails (404 after an update, no network) as `missing`; the screen
 * then says which, and offers to reload (src/app/route-error.tsx). `lazyScreen` is React.lazy
 * with that rule and a `preload()` the route table calls together with the screen's data (#22).
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/** §9: script chunk load timeout. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

export type ChunkFailure = 'timeout' | 'missing';

export class ChunkLoadError extends Error {
  constructor(
    readonly kind: ChunkFailure,
    readonly detail: string,
  ) {
    super(`Loading chunk failed. (${kind}: ${detail})`);
    this.name = 'ChunkLoadError';
  }
}

export const isChunkLoadError = (error: unknown): error is ChunkLoadError => error instanceof ChunkLoadError;

/** The address a failed dynamic import names, or its message. */
function detailOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return /https?:\/\/\S+/.exec(message)?.[0] ?? message;
}

export function loadChunk<T>(load: () => Promise<T>, timeoutMs = CHUNK_LOAD_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError('timeout', `${timeoutMs} ms`)), timeoutMs);
    load().then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(isChunkLoadError(error) ? error : new ChunkLoadError('missing', detailOf(error)));
      },
    );
  });
}

export type LazyScreen<T extends ComponentType> = LazyExoticComponent<T> & {
  /** Starts loading the chunk (once); rendering the screen later uses the same load. */
  preload(): Promise<unknown>;
};

export function lazyScreen<T extends ComponentType>(load: () => Promise<{ default: T }>): LazyScreen<T> {
  let pending: Promise<{ default: T }> | null = null;
  const start = () => {
    pending ??= loadChunk(load);
    // A failed load may be tried again by the next navigation (after a reconnect, say).
    pending.catch(() => {
      pending = null;
    });
    return pending;
  };
  const component = lazy(start) as LazyScreen<T>;
  component.preload = () => start().catch(() => undefined);
  return component;
}
