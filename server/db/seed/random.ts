/** Seeded randomness for the demo seed: one stream per section, and SAP-like document numbers. */

/** A seeded mulberry32 stream with the few helpers the builders need. */
export class Random {
  private state: number;

  constructor(label: string) {
    // FNV-1a of the label: each section gets its own independent, stable stream.
    let hash = 0x811c9dc5;
    for (const char of `partstrack-demo:${label}`) {
      hash ^= char.charCodeAt(0);
      hash = Math.imul(hash, 0x01000193);
    }
    this.state = hash >>> 0;
  }

  /** The stream's position, to read the same numbers again later (Random.at). */
  position(): number {
    return this.state;
  }

  /** A stream that goes on from a position another stream reported (position()). */
  static at(position: number): Random {
    const rng = new Random('');
    rng.state = position;
    return rng;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  float(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return item(items, Math.floor(this.next() * items.length));
  }

  weighted<T>(entries: ReadonlyArray<readonly [T, number]>): T {
    const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
    let roll = this.next() * total;
    for (const [value, weight] of entries) {
      roll -= weight;
      if (roll < 0) return value;
    }
    return item(entries, entries.length - 1)[0];
  }

  /** n distinct items, in random order (partial Fisher–Yates on a copy). */
  sample<T>(items: readonly T[], n: number): T[] {
    const copy = [...items];
    const count = Math.min(n, copy.length);
    for (let i = 0; i < count; i++) {
      const j = i + Math.floor(this.next() * (copy.length - i));
      [copy[i], copy[j]] = [item(copy, j), item(copy, i)];
    }
    return copy.slice(0, count);
  }

  digits(length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += String(Math.floor(this.next() * 10));
    return out;
  }

  uuid(): string {
    const hex = Array.from({ length: 32 }, () => Math.floor(this.next() * 16).toString(16));
    hex[12] = '4';
    hex[16] = (8 + Math.floor(this.next() * 4)).toString(16); // RFC 4122 variant bits
    const s = hex.join('');
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  }
}

/** Indexed access that fails loudly instead of yielding undefined (noUncheckedIndexedAccess). */
export function item<T>(items: readonly T[], index: number): T {
  const value = items[index];
  if (value === undefined) throw new Error(`seed: index ${index} out of range (${items.length})`);
  return value;
}

export const pad = (value: number, length: number): string => String(value).padStart(length, '0');

/** Increasing SAP-like document numbers: zero-padded, with random gaps like a busy ERP. */
export class DocNumbers {
  private value: number;
  constructor(
    private readonly rng: Random,
    start: number,
    private readonly length = 10,
  ) {
    this.value = start + rng.int(0, 9_999);
  }
  next(): string {
    this.value += this.rng.int(1, 29);
    return pad(this.value, this.length);
  }
}
