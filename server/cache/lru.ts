/**
 * A bounded map with an expiry per entry, evicting the least recently used entry first. Bounded
 * by a number of entries and, optionally, by a total weight (e.g. the bytes of cached bodies).
 * A Map keeps insertion order: reading an entry moves it to the end, eviction takes the front.
 */
export interface LruLimits {
  maxEntries: number;
  /** Sum of the entries' weights; an entry heavier than this alone is not kept. */
  maxWeight?: number;
}

interface Entry<V> {
  value: V;
  expiresAt: number;
  weight: number;
}

export class Lru<K, V> {
  readonly #entries = new Map<K, Entry<V>>();
  readonly #maxEntries: number;
  readonly #maxWeight: number;
  #weight = 0;

  constructor(limits: LruLimits) {
    this.#maxEntries = limits.maxEntries;
    this.#maxWeight = limits.maxWeight ?? Number.POSITIVE_INFINITY;
  }

  get(key: K, now = Date.now()): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    if (entry.expiresAt <= now) {
      this.#weight -= entry.weight;
      return undefined;
    }
    this.#entries.set(key, entry);
    return entry.value;
  }

  set(key: K, value: V, expiresAt: number, weight = 1): void {
    this.delete(key);
    if (weight > this.#maxWeight) return;
    this.#entries.set(key, { value, expiresAt, weight });
    this.#weight += weight;
    for (const [oldest, entry] of this.#entries) {
      if (this.#entries.size <= this.#maxEntries && this.#weight <= this.#maxWeight) break;
      this.#entries.delete(oldest);
      this.#weight -= entry.weight;
    }
  }

  delete(key: K): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#weight -= entry.weight;
  }

  clear(): void {
    this.#entries.clear();
    this.#weight = 0;
  }

  get size(): number {
    return this.#entries.size;
  }

  get weight(): number {
    return this.#weight;
  }
}
