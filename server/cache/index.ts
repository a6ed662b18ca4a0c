/**
 * What the server keeps between calls in a process (docs/decisions/0021): only verified tokens,
 * token → identity until the token's `exp` and at most 5 minutes (so a key taken out of an
 * issuer's set stops being trusted soon). Only successful verifications are kept. It depends on
 * no data, so replicas cannot disagree through it. Everything else is read from PostgreSQL on
 * every call. RESPONSE_CACHE=off turns it off.
 *
 * Also here: the strong ETag of a list page and its compressed forms for one answer (stateless).
 */
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import { decodeJwt } from 'jose';
import type { VerifiedIdentity } from '../auth/verify-token';
import { Lru } from './lru';

export interface CachesStats {
  tokens: { hits: number; verified: number };
}

export type BodyEncoding = 'br' | 'gzip';

export interface CachedBody {
  /**
   * The JSON text exactly as the route's serializer would write it, in UTF-8. Encoded once: the
   * hash and each compression read these bytes (a page's text with any non-ASCII letter took
   * ~0.85 ms to encode at scale, and was encoded again by every consumer of the string).
   */
  body: Buffer;
  /** A strong validator: the body's hash. Equal tags mean byte-equal bodies, whoever asks. */
  etag: string;
  /** The body compressed once per encoding, on the first request that accepts it. */
  encoded: Partial<Record<BodyEncoding, Buffer>>;
}

export function cachedBody(text: string): CachedBody {
  const body = Buffer.from(text, 'utf8');
  return { body, etag: `"${createHash('sha1').update(body).digest('base64url')}"`, encoded: {} };
}

// Brotli first (smaller), then gzip, as the client accepts them (q-values honoured).
const encodings = new Negotiator<BodyEncoding | 'identity'>({ supportedValues: ['br', 'gzip', 'identity'] });
/** Pages below this size are not worth compressing (the app's compression threshold). */
const MIN_COMPRESSED_BYTES = 1024;

/** The encoding a request gets and its ETag, without compressing (a 304 sends no body). */
export function encodingOf(cached: CachedBody, acceptEncoding: string | undefined): { encoding: BodyEncoding | null; etag: string } {
  const chosen = acceptEncoding && cached.body.length >= MIN_COMPRESSED_BYTES ? encodings.negotiate(acceptEncoding.toLowerCase()) : null;
  if (chosen !== 'br' && chosen !== 'gzip') return { encoding: null, etag: cached.etag };
  return { encoding: chosen, etag: `${cached.etag.slice(0, -1)}-${chosen}"` };
}

/**
 * The body in an encoding (none: the JSON text), compressed once per encoding and kept with the
 * body. Each encoding has its own strong ETag (encodingOf; RFC 9110 §8.8.3: different bytes,
 * different tag).
 */
export function payloadOf(cached: CachedBody, chosen: BodyEncoding | null): Buffer {
  if (!chosen) return cached.body;
  let bytes = cached.encoded[chosen];
  if (!bytes) {
    // Brotli quality 4, as @fastify/compress answers every other call: a mechanic's page of 20
    // orders (79 KB of JSON) in 0.30 ms and 7.4 KB, where quality 5 took 0.58 ms for 6.6 KB. Under
    // the load mix, 4 answered 3-21 % more requests in each of four alternations (decision 0050).
    bytes =
      chosen === 'br'
        ? brotliCompressSync(cached.body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 4, [zlib.BROTLI_PARAM_SIZE_HINT]: cached.body.length } })
        : gzipSync(cached.body, { level: 6 });
    cached.encoded[chosen] = bytes;
  }
  return bytes;
}

/**
 * RFC 9110 If-None-Match (weak comparison): does the client already hold this content? A tag of
 * another encoding of the same body counts: the content is the same, only its bytes differ.
 */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const content = (tag: string) => tag.replace(/^W\//, '').replace(/-(br|gzip)"$/, '"');
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || content(tag) === content(etag);
  });
}

const TOKEN_MAX_MS = 5 * 60_000;

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

export class Caches {
  readonly enabled: boolean;
  readonly #tokens = new Lru<string, VerifiedIdentity>({ maxEntries: 5_000 });
  readonly #tokenStats = { hits: 0, verified: 0 };

  constructor(options: { enabled: boolean }) {
    this.enabled = options.enabled;
  }

  /** The identity behind a bearer token, verified once per token while it is valid. */
  async identity(token: string, verify: (token: string) => Promise<VerifiedIdentity>): Promise<VerifiedIdentity> {
    if (!this.enabled) return verify(token);
    const known = this.#tokens.get(token);
    if (known) {
      this.#tokenStats.hits += 1;
      return known;
    }
    this.#tokenStats.verified += 1;
    const identity = deepFreeze(await verify(token));
    // Verified just now, so the claims are the issuer's: keep it until the token expires.
    const { exp } = decodeJwt(token);
    if (typeof exp === 'number') this.#tokens.set(token, identity, Math.min(exp * 1000, Date.now() + TOKEN_MAX_MS));
    return identity;
  }

  /** Counters since start (tests, benchmarks). */
  stats(): CachesStats {
    return { tokens: { ...this.#tokenStats } };
  }

  /** Forgets the verified tokens (tests). */
  invalidate(): void {
    this.#tokens.clear();
  }
}
