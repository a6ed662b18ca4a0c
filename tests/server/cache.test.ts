/**
 * What a process keeps between calls (docs/decisions/0021): verified tokens only, until their
 * `exp`. Everything else is read from PostgreSQL on every call, so a change written by another
 * session or replica is in the very next answer, a revoked grant applies at once, expiry follows
 * the calendar, callers never share pages, and If-None-Match gets a 304 (a strong tag of the
 * content, per encoding). RESPONSE_CACHE=off (no token cache) answers the same.
 * The first block holds the rules themselves, without a database.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { Caches, cachedBody, matchesIfNoneMatch } from '../../server/cache';
import { Lru } from '../../server/cache/lru';
import { loadConfig } from '../../server/config';
import { users } from '../../server/db/schema';
import { createLocalErpAdapter } from '../../server/erp/adapter';
import { MESSAGES } from '../../src/domain/constants';
import { bearer, createTestProduct, ENGINES, type TestProduct } from './harness';
import { trackingListQuery } from './list-params';

const LIST = '/parts/v1/users/me/tracking-status';

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

});

describe.each(ENGINES)('answers from the database on every call on %s', (engine) => {
  let product: TestProduct;
  const tokens = new Map<string, string>();
  const token = async (email: string) => {
    if (!tokens.has(email)) tokens.set(email, await product.token(email));
    return tokens.get(email)!;
  };
  const list = async (email: string, query = 'status=all&page=1', headers: Record<string, string> = {}) =>
    product.app.inject({ method: 'GET', url: `${LIST}?${trackingListQuery(query)}`, headers: { ...bearer(await token(email)), ...headers } });
  const userApi = async (method: 'GET' | 'PUT', email: string, url: string, payload?: unknown) =>
    product.app.inject({ method, url: `/user_api/v1${url}`, headers: bearer(await token(email)), payload: payload as never });
  const userId = async (email: string) => (await product.database.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]!.id;
  /** What the database says now (nothing is cached: the same call). */
  const truth = async (email: string, query?: string) => list(email, query);

  /**
   * Writes as another session (another replica) would: on PostgreSQL a client of its own; PGlite
   * has one connection, so there it is the app's, behind the API's back.
   */
  const writeElsewhere = async (statement: string, params: unknown[] = []) => {
    const connectionString = product.database.databaseUrl;
    if (connectionString) {
      const other = new pg.Client({ connectionString });
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
  });
  afterAll(async () => product?.close());
  afterEach(() => vi.useRealTimers());

  it('answers a repeated page with the same ETag and no shared caching, verifying the token once', async () => {
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
    expect(after.tokens.hits).toBeGreaterThan(before.tokens.hits);
    expect(after.tokens.verified).toBe(before.tokens.verified);
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
    expect((await list('manager@example.com', undefined, { 'if-none-match': etag })).statusCode).toBe(200);
    const changed = await list('manager@example.com');
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.body).toContain('ETAG-PROBE');
  });

  it('sends the page compressed as the client accepts, one strong tag per encoding', async () => {
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

  it('decides 400 and 403 on every call', async () => {
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

  it('answers changes written by another session (another replica) on the very next call', async () => {
    const page = await list('stock.admin@example.com');
    await list('stock.admin@example.com');
    const orderId = (page.json() as { trackingStatus: { orderId: string }[] }).trackingStatus[0]!.orderId;
    await writeElsewhere('update orders set equipment_description = $1 where id = $2', ['ELSEWHERE-PROBE', orderId]);
    expect((await list('stock.admin@example.com')).body).toContain('ELSEWHERE-PROBE');

    // A users change (no API call involved): the caller expires elsewhere and is refused.
    await list('cs.admin@example.com');
    await writeElsewhere("update users set expiration_date = '2000-01-01' where email = $1", ['cs.admin@example.com']);
    const expired = await list('cs.admin@example.com');
    expect(expired.statusCode).toBe(403);
    expect(expired.json()).toEqual({ message: MESSAGES.userExpired });
    await writeElsewhere('update users set expiration_date = null where email = $1', ['cs.admin@example.com']);
    expect((await list('cs.admin@example.com')).statusCode).toBe(200);
  });

  it('refuses a user whose last day ended on the next call', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    // The supervisor works in FI01: the last day ends at midnight in Helsinki (UTC+3 in June).
    vi.setSystemTime(new Date('2030-06-01T20:59:57Z'));
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
    const call = async () => product.app.inject({ method: 'GET', url: `${LIST}?query=&page=1&status=all&myOrders=false&maxResults=20`, headers: bearer(await freshToken('supervisor@example.com')) });
    expect((await call()).statusCode).toBe(200);
    expect((await call()).statusCode).toBe(200);

    vi.setSystemTime(new Date('2030-06-01T21:00:01Z'));
    const refused = await call();
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: MESSAGES.userExpired });

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
          const plain = await off.inject({ method: 'GET', url: `${LIST}?${trackingListQuery(query)}`, headers: bearer(await token(who)) });
          expect(plain.statusCode, `${who} ${query}`).toBe(on.statusCode);
          expect(plain.body, `${who} ${query}`).toBe(on.body);
          expect(plain.headers.etag).toBe(on.headers.etag);
          if (plain.statusCode === 200) {
            const again = await off.inject({ method: 'GET', url: `${LIST}?${trackingListQuery(query)}`, headers: { ...bearer(await token(who)), 'if-none-match': plain.headers.etag as string } });
            expect(again.statusCode).toBe(304);
          }
        }
      }
    } finally {
      await off.close();
    }
  });
});
