import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHUNK_LOAD_TIMEOUT_MS, ChunkLoadError, loadChunk } from './chunk-load';

describe('loadChunk (§8, §9)', () => {
  afterEach(() => vi.useRealTimers());

  it('fails as a timeout when the chunk has not arrived after 120,000 ms', async () => {
    vi.useFakeTimers();
    const loading = loadChunk(() => new Promise(() => undefined));
    const outcome = loading.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(CHUNK_LOAD_TIMEOUT_MS - 1);
    let settled = false;
    void loading.catch(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await outcome;
    expect(error).toBeInstanceOf(ChunkLoadError);
    expect((error as ChunkLoadError).kind).toBe('timeout');
    expect(CHUNK_LOAD_TIMEOUT_MS).toBe(120_000);
  });

  it('fails as missing, naming the file, when the request for it fails', async () => {
    const error = await loadChunk(() =>
      Promise.reject(new TypeError('Failed to fetch dynamically imported module: https://example.test/assets/stock-page-x1.js')),
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ChunkLoadError);
    expect((error as ChunkLoadError).kind).toBe('missing');
    expect((error as ChunkLoadError).detail).toBe('https://example.test/assets/stock-page-x1.js');
  });

  it('passes a chunk that arrives in time through', async () => {
    await expect(loadChunk(() => Promise.resolve({ default: 42 }))).resolves.toEqual({ default: 42 });
  });
});
