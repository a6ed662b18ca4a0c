/**
 * The caches (server/cache, docs/decisions/0014) never widen what a caller sees and never outlive
 * a change: a revocation through the API holds on the very next call, a change written by another
 * connection reaches the answers as soon as its NOTIFY arrives, expiry is checked on cached users,
 * callers never share pages, If-None-Match gets a 304, and RESPONSE_CACHE=off answers the same.
 * The first block holds the cache rules themselves, without a database.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { Caches, cachedBody, matchesIfNoneMatch } from '../../server/cache';
import { CacheGenerations } from '../../server/cache/generations';
import { Lru } from '../../server/cache/lru';
import { VersionedCache } from '../../server/cache/versioned-cache';
import { loadConfig } from '../../server/config';
import { users } from '../../server/db/schema';
import { createLocalErpAdapter } from '../../server/erp/adapter';
import { MESSAGES } from '../../src/domain/constants';
import { bearer, createTestProduct, ENGINES, type TestProduct } from './harness';

const LIST = '/parts/v1/users/me/tracking-status';

/**
 * Polls until `check` holds. The deadline is generous for a notification (milliseconds) and
 * shorter than the caches' time limits (10 s, 30 s), so passing proves the NOTIFY, not the expiry.
 */
async function eventually(check: () => Promise<boolean>, what: string, deadlineMs = 5_000): Promise<void> {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`not within ${deadlineMs} ms: ${what}`);
}

describe('cache rules', () => {
  it('evicts the least recently used entry and forgets expired ones', () => {
    const lru = new Lru<string, number>({ maxEntries: 2 });
    lru.set('a', 1, Date.now() + 1000);
    lru.set('b', 2, Date.now() + 1000);
    expect(lru.get('a')).toBe(1);
    lru.set('c', 3, Date.now() + 1000);
    expect([lru.get('a'), lru.get('b'), lru.get('c')]).toEqual([1, undefined, 3]);
    lru.set('old', 4, Date.now() - 1);
    expect(lru.get('old')).toBeUndefined();
    const heavy = new Lru<string, string>({ maxEntries: 10, maxWeight: 10 });
    heavy.set('x', 'x', Date.now() + 1000, 6);
    heavy.set('y', 'y', Date.now() + 1000, 6);
    expect([heavy.get('x'), heavy.get('y'), heavy.weight]).toEqual([undefined, 'y', 6]);
  });

  it('shares one computation between concurrent misses, stores only current generations, never failures', async () => {
    const cache = new VersionedCache<string>({ maxEntries: 10, ttlMs: 60_000 });
    let generation = 1;
    const isCurrent = (g: number) => g === generation;
    let runs = 0;
    let release!: (value: string) => void;
    const slow = () => {
      runs += 1;
      return new Promise<string>((resolve) => (release = resolve));
    };
    const first = cache.get('k', 1, slow, isCurrent);
    const second = cache.get('k', 1, slow, isCurrent);
    await Promise.resolve();
    release('v1');
    expect([await first, await second, runs]).toEqual(['v1', 'v1', 1]);
    expect(await cache.get('k', 1, slow, isCurrent)).toBe('v1');
    expect(runs).toBe(1);

    // A change while computing: the answer is given once, not kept.
    const during = cache.get('k', 2, slow, isCurrent);
    generation = 3;
    await Promise.resolve();
    release('v2');
    expect(await during).toBe('v2');
    const after = cache.get('k', 3, slow, isCurrent);
    await Promise.resolve();
    release('v3');
    expect(await after).toBe('v3');
    expect(runs).toBe(3);

    // A failure reaches every waiter and is not kept.
    const failing = () => Promise.reject(new Error('db down'));
    await expect(cache.get('f', 3, failing, isCurrent)).rejects.toThrow('db down');
    expect(await cache.get('f', 3, async () => 'ok', isCurrent)).toBe('ok');
  });

  it('serves nothing that depends on the database while not listening, and moves on both edges', async () => {
    const caches = new Caches({ enabled: true });
    let builds = 0;
    const build = async () => cachedBody(String(++builds));
    const g = caches.generation;
    expect((await caches.trackingPage(g, 'k', build)).body).toBe('1');
    expect((await caches.trackingPage(g, 'k', build)).body).toBe('2');
    caches.generations.setListening(true);
    const live = caches.generation;
    expect(live).not.toBe(g);
    expect((await caches.trackingPage(live, 'k', build)).body).toBe('3');
    expect((await caches.trackingPage(live, 'k', build)).body).toBe('3');
    caches.generations.bump('tracking');
    expect((await caches.trackingPage(live, 'k', build)).body).toBe('4'); // the request's generation is old
    caches.generations.setListening(false);
    const lost = caches.generation;
    expect((await caches.trackingPage(lost, 'k', build)).body).toBe('5');
    expect((await caches.trackingPage(lost, 'k', build)).body).toBe('6');
  });

  it('keeps verified tokens only, and not past their exp', async () => {
    const caches = new Caches({ enabled: true });
    const identity = { issuer: 'i', subject: 's', email: 'a@example.com', emailVerified: true, name: null };
    const token = (exp: number) => `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ exp })).toString('base64url')}.x`;
    const valid = token(Math.floor(Date.now() / 1000) + 600);
    let verifications = 0;
    const verify = async () => {
      verifications += 1;
      return identity;
    };
    await caches.identity(valid, verify);
    await caches.identity(valid, verify);
    expect(verifications).toBe(1);
    const expired = token(Math.floor(Date.now() / 1000) - 1);
    await caches.identity(expired, verify);
    await caches.identity(expired, verify);
    expect(verifications).toBe(3);
    const refuse = async () => {
      verifications += 1;
      throw new Error('Id token is not valid');
    };
    const bad = token(Math.floor(Date.now() / 1000) + 600).replace(/x$/, 'y');
    await expect(caches.identity(bad, refuse)).rejects.toThrow();
    await expect(caches.identity(bad, refuse)).rejects.toThrow();
    expect(verifications).toBe(5);
  });

  it('compares If-None-Match as RFC 9110 says', () => {
    const { etag } = cachedBody('{"a":1}');
    expect(matchesIfNoneMatch(etag, etag)).toBe(true);
    expect(matchesIfNoneMatch(`"other", ${etag}`, etag)).toBe(true);
    expect(matchesIfNoneMatch(`W/${etag}`, etag)).toBe(true);
    expect(matchesIfNoneMatch('*', etag)).toBe(true);
    expect(matchesIfNoneMatch('"other"', etag)).toBe(false);
    expect(matchesIfNoneMatch(undefined, etag)).toBe(false);
  });

  it('bumps the users generation for users changes and unknown topics, not for tracking ones', () => {
    const generations = new CacheGenerations();
    const { users: u0, all: a0 } = generations;
    generations.bump('tracking');
    expect([generations.users, generations.all]).toEqual([u0, a0 + 1]);
    generations.bump('users');
    generations.bump('all');
    expect([generations.users, generations.all]).toEqual([u0 + 2, a0 + 3]);
  });
});

describe.each(ENGINES)('caches on %s', (engine) => {
  let product: TestProduct;
  const tokens = new Map<string, string>();
  const token = async (email: string) => {
    if (!tokens.has(email)) tokens.set(email, await product.token(email));
    return tokens.get(email)!;
  };
  const list = async (email: string, query = 'status=all&page=1', headers: Record<string, string> = {}) =>
    product.app.inject({ method: 'GET', url: `${LIST}?${query}`, headers: { ...bearer(await token(email)), ...headers } });
  const userApi = async (method: 'GET' | 'PUT', email: string, url: string, payload?: unknown) =>
    product.app.inject({ method, url: `/user_api/v1${url}`, headers: bearer(await token(email)), payload: payload as never });
  const userId = async (email: string) => (await product.database.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]!.id;
  /** What the database says now, bypassing every cached answer. */
  const truth = async (email: string, query?: string) => {
    product.invalidateCaches();
    return list(email, query);
  };

  /**
   * Writes as another session would: on PostgreSQL a client of its own (the app hears it only
   * through NOTIFY); PGlite has one connection, so there it is the app's, behind the API's back.
   */
  const writeElsewhere = async (statement: string, params: unknown[] = []) => {
    const changes = product.database.changes;
    if ('connectionString' in changes) {
      const other = new pg.Client({ connectionString: changes.connectionString });
      await other.connect();
      try {
        await other.query(statement, params);
      } finally {
        await other.end();
      }
    } else {
      const literal = (i: string) => `'${String(params[Number(i) - 1]).replaceAll("'", "''")}'`;
      await product.database.db.execute(sql.raw(statement.replace(/\$(\d+)/g, (_, i: string) => literal(i))));
    }
  };

  beforeAll(async () => {
    product = await createTestProduct(engine);
    await eventually(async () => product.caches.generations.listening, 'the app listens for changes');
  });
  afterAll(async () => product?.close());
  afterEach(() => vi.useRealTimers());

  it('answers a repeated page from the cache, with an ETag and no shared caching', async () => {
    // A first sign-in binds the identity (a users write): that call and the next one compute.
    await list('manager@example.com');
    const first = await list('manager@example.com');
    const before = product.caches.stats();
    const second = await list('manager@example.com');
    expect(first.statusCode).toBe(200);
    expect(second.body).toBe(first.body);
    expect(first.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    const after = product.caches.stats();
    expect(after.trackingPages.hits).toBeGreaterThan(before.trackingPages.hits);
    expect(after.tokens.hits).toBeGreaterThan(before.tokens.hits);
    expect(after.users.hits).toBeGreaterThan(before.users.hits);
  });

  it('answers 304 to a current If-None-Match, and 200 once the page changed', async () => {
    const first = await list('manager@example.com');
    const etag = first.headers.etag as string;
    const same = await list('manager@example.com', undefined, { 'if-none-match': etag });
    expect(same.statusCode).toBe(304);
    expect(same.body).toBe('');
    expect(same.headers.etag).toBe(etag);
    expect((await list('manager@example.com', undefined, { 'if-none-match': `"nope", W/${etag}` })).statusCode).toBe(304);
    expect((await list('manager@example.com', undefined, { 'if-none-match': '"nope"' })).statusCode).toBe(200);

    const orderId = (first.json() as { trackingStatus: { orderId: string }[] }).trackingStatus[0]!.orderId;
    await writeElsewhere('update orders set equipment_description = $1 where id = $2', ['ETAG-PROBE', orderId]);
    await eventually(async () => (await list('manager@example.com', undefined, { 'if-none-match': etag })).statusCode === 200, 'the old tag is refused');
    const changed = await list('manager@example.com');
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.body).toContain('ETAG-PROBE');
  });

  it('sends the cached page compressed as the client accepts, one strong tag per encoding', async () => {
    const plain = await list('manager@example.com');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    const decoders = { br: brotliDecompressSync, gzip: gunzipSync } as const;
    for (const [accept, encoding] of [['gzip, deflate, br', 'br'], ['gzip', 'gzip'], ['br;q=0.5, gzip;q=0.9', 'gzip'], ['identity', undefined], ['br;q=0', undefined], ['deflate', undefined]] as const) {
      const answer = await list('manager@example.com', undefined, { 'accept-encoding': accept });
      expect(answer.statusCode, accept).toBe(200);
      expect(answer.headers['content-encoding'], accept).toBe(encoding);
      expect(answer.headers.vary, accept).toBe('Accept-Encoding');
      if (encoding) {
        expect(decoders[encoding](answer.rawPayload).toString('utf8')).toBe(plain.body);
        expect(answer.rawPayload.length).toBeLessThan(plain.body.length / 4);
        expect(answer.headers.etag).toBe(`${(plain.headers.etag as string).slice(0, -1)}-${encoding}"`);
      } else {
        expect(answer.body).toBe(plain.body);
      }
    }
    // The same content under another encoding's tag is not sent again.
    const brTag = (await list('manager@example.com', undefined, { 'accept-encoding': 'br' })).headers.etag as string;
    expect((await list('manager@example.com', undefined, { 'if-none-match': brTag })).statusCode).toBe(304);
    expect((await list('manager@example.com', undefined, { 'if-none-match': plain.headers.etag as string, 'accept-encoding': 'gzip' })).statusCode).toBe(304);
  });

  it('never hands one caller’s page to another', async () => {
    const callers = ['manager@example.com', 'mechanic@example.com', 'cs.admin@example.com', 'stock.admin@example.com'];
    const truths = new Map<string, string>();
    for (const who of callers) truths.set(who, (await truth(who)).body);
    expect(new Set(truths.values()).size).toBe(callers.length);
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(callers.map((who) => list(who)));
      answers.forEach((answer, i) => expect(answer.body, callers[i]).toBe(truths.get(callers[i]!)));
    }
    // The mechanic's tag on the manager's call is not the manager's page: a full answer.
    const mechanicTag = (await list('mechanic@example.com')).headers.etag as string;
    const manager = await list('manager@example.com', undefined, { 'if-none-match': mechanicTag });
    expect(manager.statusCode).toBe(200);
    expect(manager.body).toBe(truths.get('manager@example.com'));
  });

  it('does not cache refusals: 400 and 403 are decided on every call', async () => {
    const bad = await list('manager@example.com', 'query=colour%3Dred');
    expect(bad.statusCode).toBe(400);
    expect((await list('manager@example.com', 'query=colour%3Dred')).statusCode).toBe(400);
    expect((await list('manager@example.com', 'myOrders=true')).statusCode).toBe(403);
    expect((await list('mechanic@example.com', 'myOrders=true')).statusCode).toBe(200);
  });

  it('applies a grant revoked through the API on the very next call', async () => {
    const mechanicId = await userId('mechanic@example.com');
    const before = await userApi('GET', 'manager@example.com', `/users/${mechanicId}/permissions`);
    const { grants, attachments } = before.json() as { grants: string[]; attachments: { kind: string; plant: string; code: string }[] };
    expect(grants).toContain('mechanic');
    const wide = await list('mechanic@example.com');
    expect((await list('mechanic@example.com', 'myOrders=true')).statusCode).toBe(200);
    expect((await list('mechanic@example.com', 'myOrders=true')).statusCode).toBe(200);
    expect((await list('mechanic@example.com')).body).toBe(wide.body);

    // The mechanic becomes a PM reader of its ship-to parties only: "My orders" and the route's orders go.
    const revoke = await userApi('PUT', 'manager@example.com', `/users/${mechanicId}/permissions`, {
      grants: ['PM_read'],
      attachments: attachments.filter((a) => a.kind === 'ship_to_party'),
    });
    expect(revoke.statusCode, revoke.body).toBe(200);
    const myOrders = await list('mechanic@example.com', 'myOrders=true');
    expect(myOrders.statusCode).toBe(403);
    const narrow = await list('mechanic@example.com');
    expect(narrow.statusCode).toBe(200);
    const counts = (body: string) => (JSON.parse(body) as { count_total: number }).count_total;
    expect(counts(narrow.body)).toBeLessThan(counts(wide.body));
    expect(narrow.body).toBe((await truth('mechanic@example.com')).body);

    // And back: the next call sees the grant again.
    const restore = await userApi('PUT', 'manager@example.com', `/users/${mechanicId}/permissions`, { grants, attachments });
    expect(restore.statusCode, restore.body).toBe(200);
    expect((await list('mechanic@example.com', 'myOrders=true')).statusCode).toBe(200);
    expect((await list('mechanic@example.com')).body).toBe(wide.body);
  });

  it('takes in changes written by another session as soon as they are announced', async () => {
    const page = await list('stock.admin@example.com');
    await list('stock.admin@example.com');
    const orderId = (page.json() as { trackingStatus: { orderId: string }[] }).trackingStatus[0]!.orderId;
    await writeElsewhere('update orders set equipment_description = $1 where id = $2', ['ELSEWHERE-PROBE', orderId]);
    await eventually(async () => (await list('stock.admin@example.com')).body.includes('ELSEWHERE-PROBE'), 'the tracking change reaches the page');

    // A users change (no API call involved): the caller expires elsewhere and is refused.
    await list('cs.admin@example.com');
    await writeElsewhere("update users set expiration_date = '2000-01-01' where email = $1", ['cs.admin@example.com']);
    await eventually(async () => (await list('cs.admin@example.com')).statusCode === 403, 'the expiry reaches the auth hook');
    expect((await list('cs.admin@example.com')).json()).toEqual({ message: MESSAGES.userExpired });
    await writeElsewhere('update users set expiration_date = null where email = $1', ['cs.admin@example.com']);
    await eventually(async () => (await list('cs.admin@example.com')).statusCode === 200, 'the cleared expiry is heard');
  });

  it('keeps the cached callers through sign-ins (last_login_at), not through a name change', async () => {
    const generations = product.caches.generations;
    const orderId = ((await list('manager@example.com')).json() as { trackingStatus: { orderId: string }[] }).trackingStatus[2]!.orderId;
    /** A tracking change written now: once it is heard, so is everything committed before it. */
    let probes = 0;
    const heardSoFar = async () => {
      const all = generations.all;
      await writeElsewhere('update orders set destination = $1 where id = $2', [`SIGN-IN-PROBE-${++probes}`, orderId]);
      await eventually(async () => generations.all > all, 'the tracking change is heard');
    };
    // The viewer's first call binds its identity (a users change): heard before counting.
    await list('viewer@example.com');
    await heardSoFar();
    const users0 = generations.users;
    const profile = await userApi('GET', 'viewer@example.com', '/user/profile');
    expect(profile.statusCode, profile.body).toBe(200);
    await heardSoFar();
    expect(generations.users).toBe(users0);
    await writeElsewhere("update users set display_name = display_name || ' ' where email = $1", ['viewer@example.com']);
    await eventually(async () => generations.users > users0, 'a change of the caller is heard');
  });

  it('refuses a user whose last day ended, even from the cached user', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-06-01T23:59:57Z'));
    const now = new Map<string, string>();
    const freshToken = async (email: string) => {
      if (!now.has(email)) now.set(email, await product.token(email));
      return now.get(email)!;
    };
    const uid = await userId('supervisor@example.com');
    const set = await product.app.inject({
      method: 'PUT',
      url: `/user_api/v1/users/${uid}/expiration_date`,
      headers: bearer(await freshToken('manager@example.com')),
      payload: { expirationDate: '2030-06-01' },
    });
    expect(set.statusCode, set.body).toBe(200);
    const call = async () => product.app.inject({ method: 'GET', url: LIST, headers: bearer(await freshToken('supervisor@example.com')) });
    expect((await call()).statusCode).toBe(200);
    expect((await call()).statusCode).toBe(200);
    const cached = product.caches.stats().users;

    vi.setSystemTime(new Date('2030-06-02T00:00:01Z'));
    const refused = await call();
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: MESSAGES.userExpired });
    // The user came from the cache (no new lookup): the expiry check ran on it all the same.
    const after = product.caches.stats().users;
    expect(after.hits).toBe(cached.hits + 1);
    expect(after.computed).toBe(cached.computed);

    vi.useRealTimers();
    product.invalidateCaches();
    const clear = await userApi('PUT', 'manager@example.com', `/users/${uid}/expiration_date`, { expirationDate: null });
    expect(clear.statusCode, clear.body).toBe(200);
  });

  it('answers the same with RESPONSE_CACHE=off', async () => {
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_DIR: './no-such-dir', RESPONSE_CACHE: 'off' });
    expect(config.responseCache).toBe(false);
    const off: FastifyInstance = await buildApp({ config, db: product.database.db, localIssuer: product.issuer, erp: createLocalErpAdapter(), logger: false });
    try {
      for (const who of ['manager@example.com', 'mechanic@example.com']) {
        for (const query of ['status=all&page=1', 'status=arrived&page=2&maxResults=7', 'status=incoming&query=rope', 'myOrders=true', 'query=colour%3Dred']) {
          const on = await list(who, query);
          const plain = await off.inject({ method: 'GET', url: `${LIST}?${query}`, headers: bearer(await token(who)) });
          expect(plain.statusCode, `${who} ${query}`).toBe(on.statusCode);
          expect(plain.body, `${who} ${query}`).toBe(on.body);
          expect(plain.headers.etag).toBe(on.headers.etag);
          if (plain.statusCode === 200) {
            const again = await off.inject({ method: 'GET', url: `${LIST}?${query}`, headers: { ...bearer(await token(who)), 'if-none-match': plain.headers.etag as string } });
            expect(again.statusCode).toBe(304);
          }
        }
      }
    } finally {
      await off.close();
    }
  });

  it.runIf(engine === 'postgres')('turns the caches off when the listener goes silent without a word', async () => {
    // The listener's connection through a loopback relay that can stop passing bytes without
    // closing anything: a dropped NAT entry or a frozen failover, as far as the app can tell.
    const target = new URL((product.database.changes as { connectionString: string }).connectionString);
    let frozen = false;
    const sockets = new Set<Socket>();
    const relay = createServer((inbound) => {
      const outbound = connect(Number(target.port || 5432), target.hostname);
      for (const socket of [inbound, outbound]) {
        sockets.add(socket);
        socket.on('error', () => undefined);
      }
      inbound.on('data', (chunk) => !frozen && outbound.write(chunk));
      outbound.on('data', (chunk) => !frozen && inbound.write(chunk));
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const relayed = new URL(target);
    relayed.hostname = '127.0.0.1';
    relayed.port = String((relay.address() as AddressInfo).port);
    const caches = new Caches({ enabled: true });
    const quiet = { warn: () => undefined, info: () => undefined };
    try {
      await caches.listen({ connectionString: relayed.toString() }, quiet);
      await eventually(async () => caches.generations.listening, 'listening through the relay');
      frozen = true;
      // Within a few heartbeats (1 s each), not after TCP's own minutes or a slow ping's timeout.
      await eventually(async () => !caches.generations.listening, 'the silence is noticed');
    } finally {
      await caches.close();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => relay.close(resolve));
    }
  });

  it.runIf(engine === 'postgres')('serves nothing while the listener is down, and listens again', async () => {
    const changes = product.database.changes as { connectionString: string };
    const admin = new pg.Client({ connectionString: changes.connectionString });
    await admin.connect();
    try {
      await list('manager@example.com');
      const killed = await admin.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'partstrack-cache-listener' and datname = current_database()",
      );
      expect(killed.rowCount).toBe(1);
      await eventually(async () => !product.caches.generations.listening, 'the app notices the lost listener');
      const bypassed = product.caches.stats().trackingPages.bypassed;
      await list('manager@example.com');
      expect(product.caches.stats().trackingPages.bypassed).toBeGreaterThan(bypassed);
      await eventually(async () => product.caches.generations.listening, 'the app listens again');
      const page = await list('manager@example.com');
      const orderId = (page.json() as { trackingStatus: { orderId: string }[] }).trackingStatus[1]!.orderId;
      await admin.query('update orders set equipment_description = $1 where id = $2', ['RELISTEN-PROBE', orderId]);
      await eventually(async () => (await list('manager@example.com')).body.includes('RELISTEN-PROBE'), 'changes are heard again');
    } finally {
      await admin.end();
    }
  });
});
