/**
 * An LRU whose entries carry the generation they were computed under (see generations.ts), with
 * single-flight: concurrent misses of one key under one generation share one computation. A
 * result is stored only if its generation is still current when it arrives, so a computation that
 * overlapped a change is answered once and then forgotten. Failures are never stored.
 */
import { Lru, type LruLimits } from './lru';

export interface VersionedCacheOptions<V> extends LruLimits {
  ttlMs: number;
  weigh?: (value: V) => number;
}

export interface CacheStats {
  /** Answered from a stored entry. */
  hits: number;
  /** Joined a computation already running for the same key and generation. */
  joined: number;
  /** Computed (a miss). */
  computed: number;
}

export class VersionedCache<V> {
  readonly stats: CacheStats = { hits: 0, joined: 0, computed: 0 };
  readonly #lru: Lru<string, { value: V; generation: number }>;
  readonly #flights = new Map<string, Promise<V>>();
  readonly #ttlMs: number;
  readonly #weigh: (value: V) => number;

  constructor(options: VersionedCacheOptions<V>) {
    this.#lru = new Lru(options);
    this.#ttlMs = options.ttlMs;
    this.#weigh = options.weigh ?? (() => 1);
  }

  /**
   * The value of `key` under `generation`: a stored one, the one a concurrent caller is already
   * computing, or a new computation. `isCurrent(generation)` says whether it may be stored.
   */
  get(key: string, generation: number, compute: () => Promise<V>, isCurrent: (generation: number) => boolean): Promise<V> {
    const hit = this.#lru.get(key);
    if (hit && hit.generation === generation) {
      this.stats.hits += 1;
      return Promise.resolve(hit.value);
    }
    const flightKey = `${generation}\u0000${key}`;
    const running = this.#flights.get(flightKey);
    if (running) {
      this.stats.joined += 1;
      return running;
    }
    this.stats.computed += 1;
    const flight = Promise.resolve()
      .then(compute)
      .then((value) => {
        if (isCurrent(generation)) this.#lru.set(key, { value, generation }, Date.now() + this.#ttlMs, this.#weigh(value));
        return value;
      });
    const settled = () => {
      if (this.#flights.get(flightKey) === flight) this.#flights.delete(flightKey);
    };
    flight.then(settled, settled);
    this.#flights.set(flightKey, flight);
    return flight;
  }

  clear(): void {
    this.#lru.clear();
  }

  get size(): number {
    return this.#lru.size;
  }
}
