/**
 * The process's caches (docs/decisions/0014): what the busy read path would otherwise recompute
 * on every call, each kept only as long as it is certainly what the database would answer.
 *
 * - Verified tokens: token → identity until the token's `exp` (at most 5 minutes, so a key taken
 *   out of an issuer's set stops being trusted soon). Only successful verifications are kept.
 * - The caller: (issuer, subject) → CurrentUser for 10 s at most, under the 'users' generation.
 * - Tracking pages: (user, normalized query) → serialized body + ETag for 30 s at most (the icons
 *   follow the clock), under every generation (the page depends on its rows and on its caller).
 *
 * Generations move on every change heard (changes.ts), on every write through this process's API
 * (app.ts, before the answer leaves) and on invalidate(). While changes are not heard, only the
 * token cache (which does not depend on the database) serves. RESPONSE_CACHE=off turns all off.
 */
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import { decodeJwt } from 'jose';
import type { FastifyBaseLogger } from 'fastify';
import type { VerifiedIdentity } from '../auth/verify-token';
import type { ChangeSource } from '../db/client';
import type { CurrentUser } from '../repositories/users';
import { listenForChanges, type ChangeListener } from './changes';
import { CacheGenerations } from './generations';
import { Lru } from './lru';
import { VersionedCache, type CacheStats } from './versioned-cache';

export interface CachesStats {
  tokens: { hits: number; verified: number };
  users: CacheStats & { bypassed: number };
  trackingPages: CacheStats & { bypassed: number };
}

export type BodyEncoding = 'br' | 'gzip';

export interface CachedBody {
  /** The JSON text exactly as the route's serializer would write it. */
  body: string;
  /** A strong validator: the body's hash. Equal tags mean byte-equal bodies, whoever asks. */
  etag: string;
  /** The body compressed once per encoding, on the first request that accepts it. */
  encoded: Partial<Record<BodyEncoding, Buffer>>;
}

export function cachedBody(body: string): CachedBody {
  return { body, etag: `"${createHash('sha1').update(body).digest('base64url')}"`, encoded: {} };
}

/** What one answer sends: the bytes, their Content-Encoding (none: the JSON text) and their ETag. */
export interface Representation {
  payload: string | Buffer;
  encoding: BodyEncoding | null;
  etag: string;
}

// Brotli first (smaller), then gzip, as the client accepts them (q-values honoured).
const encodings = new Negotiator<BodyEncoding | 'identity'>({ supportedValues: ['br', 'gzip', 'identity'] });
/** Pages below this size are not worth compressing (the app's compression threshold). */
const MIN_COMPRESSED_BYTES = 1024;

/**
 * The representation of a cached body for a request's Accept-Encoding. A compressed body is made
 * once and kept with the entry, so a page served from the cache costs no compression. Each
 * encoding has its own strong ETag (RFC 9110 §8.8.3: different bytes, different tag).
 */
export function representationOf(cached: CachedBody, acceptEncoding: string | undefined): Representation {
  const chosen = acceptEncoding && cached.body.length >= MIN_COMPRESSED_BYTES ? encodings.negotiate(acceptEncoding.toLowerCase()) : null;
  if (chosen !== 'br' && chosen !== 'gzip') return { payload: cached.body, encoding: null, etag: cached.etag };
  let bytes = cached.encoded[chosen];
  if (!bytes) {
    bytes =
      chosen === 'br'
        ? brotliCompressSync(cached.body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: cached.body.length } })
        : gzipSync(cached.body, { level: 6 });
    cached.encoded[chosen] = bytes;
  }
  return { payload: bytes, encoding: chosen, etag: `${cached.etag.slice(0, -1)}-${chosen}"` };
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
const USER_TTL_MS = 10_000;
const PAGE_TTL_MS = 30_000;

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

export class Caches {
  readonly enabled: boolean;
  readonly generations = new CacheGenerations();
  readonly #tokens = new Lru<string, VerifiedIdentity>({ maxEntries: 5_000 });
  readonly #users = new VersionedCache<CurrentUser>({ maxEntries: 5_000, ttlMs: USER_TTL_MS });
  readonly #trackingPages = new VersionedCache<CachedBody>({
    maxEntries: 5_000,
    maxWeight: 64 * 1024 * 1024,
    ttlMs: PAGE_TTL_MS,
    // The text and, once asked for, its compressed forms (about a tenth of it each).
    weigh: (page) => Math.ceil(page.body.length * 1.25),
  });
  #listener: ChangeListener | null = null;
  readonly #tokenStats = { hits: 0, verified: 0 };
  readonly #bypassed = { users: 0, trackingPages: 0 };

  constructor(options: { enabled: boolean }) {
    this.enabled = options.enabled;
  }

  /** Starts hearing changes; until then (and whenever the listener is down) nothing stale can be served. */
  async listen(source: ChangeSource, log: Pick<FastifyBaseLogger, 'warn' | 'info'>): Promise<void> {
    if (!this.enabled || this.#listener) return;
    this.#listener = await listenForChanges(source, this.generations, log);
  }

  async close(): Promise<void> {
    await this.#listener?.close();
    this.#listener = null;
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

  /**
   * The generation a request's cached answers belong to. The auth hook reads it before resolving
   * the caller, so a page is never stored under a generation newer than the caller it was built for.
   */
  get generation(): number {
    return this.generations.all;
  }

  /** The user behind a verified identity (read only: the object is shared and frozen). */
  currentUser(identity: VerifiedIdentity, resolve: () => Promise<CurrentUser>): Promise<CurrentUser> {
    if (!this.enabled || !this.generations.listening) {
      this.#bypassed.users += 1;
      return resolve();
    }
    const generations = this.generations;
    return this.#users.get(
      `${identity.issuer}\u0000${identity.subject}`,
      generations.users,
      async () => deepFreeze(await resolve()),
      (generation) => generations.listening && generation === generations.users,
    );
  }

  /**
   * One tracking page. `requestGeneration` is the request's (see `generation`); when anything
   * moved since, the caller itself may be outdated and the page is built without the cache.
   */
  trackingPage(requestGeneration: number, key: string, build: () => Promise<CachedBody>): Promise<CachedBody> {
    const generations = this.generations;
    if (!this.enabled || !generations.listening || requestGeneration !== generations.all) {
      this.#bypassed.trackingPages += 1;
      return build();
    }
    return this.#trackingPages.get(key, requestGeneration, build, (generation) => generations.listening && generation === generations.all);
  }

  /** Counters since start (tests, benchmarks): how the answers were found. */
  stats(): CachesStats {
    return {
      tokens: { ...this.#tokenStats },
      users: { ...this.#users.stats, bypassed: this.#bypassed.users },
      trackingPages: { ...this.#trackingPages.stats, bypassed: this.#bypassed.trackingPages },
    };
  }

  /** A write went through this process: nothing cached before it may be served after it. */
  changedHere(): void {
    this.generations.bump('all');
  }

  /** Forgets everything (tests that write to the database behind the API's back). */
  invalidate(): void {
    this.generations.bump('all');
    this.#tokens.clear();
    this.#users.clear();
    this.#trackingPages.clear();
  }
}
