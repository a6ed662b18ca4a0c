/**
 * Issue #16: with REDIS_URL, replicas keep their rate-limit counters in Redis, so a client is held
 * to one limit however the load balancer spreads its calls; without it, each process counts alone.
 * The shared-limit tests need a Redis on 127.0.0.1:6379 (this machine and CI have one) and are
 * skipped without it.
 */
import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { buildApp } from '../../server/app';
import { ConfigError, loadConfig } from '../../server/config';
import { createLocalErpAdapter } from '../../server/erp/adapter';
import { createTestProduct, type TestProduct } from './harness';

const REDIS_URL = 'redis://127.0.0.1:6379';

async function redisAnswers(): Promise<boolean> {
  const probe = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 500, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => {});
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

const withRedis = await redisAnswers();

describe('rate limit shared through Redis', () => {
  let product: TestProduct;
  const apps: FastifyInstance[] = [];

  /** Another app (a replica) on the same database, with its own configuration and process state. */
  async function replica(env: Record<string, string>) {
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_DIR: './no-such-dir', ...env });
    const app = await buildApp({ config, db: product.database.db, localIssuer: product.issuer, erp: createLocalErpAdapter(), logger: false });
    await app.ready();
    apps.push(app);
    return app;
  }

  /** Statuses of calls (without a token: 401) from one client address, the i-th through `replicas[i % n]`. */
  async function statuses(replicas: FastifyInstance[], calls: number, remoteAddress: string) {
    const result: number[] = [];
    for (let i = 0; i < calls; i++) {
      const res = await replicas[i % replicas.length]!.inject({ method: 'GET', url: '/user_api/v1/user/profile', remoteAddress });
      result.push(res.statusCode);
    }
    return result;
  }

  // A client address of its own per run: other runs may share this Redis at the same time.
  const clientAddress = () => `198.18.${randomInt(256)}.${randomInt(1, 255)}`;

  beforeAll(async () => {
    product = await createTestProduct('pglite');
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await product?.close();
  });

  it('refuses a REDIS_URL that is not a redis:// URL', () => {
    expect(() => loadConfig({ REDIS_URL: '127.0.0.1:6379' })).toThrow(ConfigError);
    expect(loadConfig({ REDIS_URL: 'rediss://cache.example.com:6380/0' }).redisUrl).toBe('rediss://cache.example.com:6380/0');
    expect(loadConfig({}).redisUrl).toBeUndefined();
  });

  it('without REDIS_URL, each process counts alone: two replicas let a client through twice as often', async () => {
    const pair = [await replica({ RATE_LIMIT_PER_MINUTE: '3' }), await replica({ RATE_LIMIT_PER_MINUTE: '3' })];
    expect(await statuses(pair, 8, clientAddress())).toEqual([401, 401, 401, 401, 401, 401, 429, 429]);
  });

  it.runIf(withRedis)('with REDIS_URL, two replicas hold a client to one limit between them', async () => {
    const env = { RATE_LIMIT_PER_MINUTE: '3', REDIS_URL };
    const pair = [await replica(env), await replica(env)];
    const client = clientAddress();
    expect(await statuses(pair, 6, client)).toEqual([401, 401, 401, 429, 429, 429]);
    // Another client has its own count, on either replica.
    expect(await statuses(pair.reverse(), 2, clientAddress())).toEqual([401, 401]);
  });

  it('a refused call says how long to wait, readable by an app served from another origin', async () => {
    const app = await replica({ RATE_LIMIT_PER_MINUTE: '1', CORS_ORIGINS: 'https://parts.example.com' });
    const remoteAddress = clientAddress();
    const call = () => app.inject({ method: 'GET', url: '/user_api/v1/user/profile', remoteAddress, headers: { origin: 'https://parts.example.com' } });
    expect((await call()).statusCode).toBe(401);
    const refused = await call();
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['access-control-allow-origin']).toBe('https://parts.example.com');
    // Retry-After for the wait; ETag for the version of what is read to change (If-Match, decision
    // 0057); X-Has-More for a capped list (pending approvals).
    expect(refused.headers['access-control-expose-headers']).toBe('Retry-After, ETag, X-Has-More');
    expect(refused.headers['access-control-allow-headers']).toContain('If-Match');
  });

  it('with REDIS_URL but no Redis answering, calls go through uncounted rather than failing', async () => {
    const app = await replica({ RATE_LIMIT_PER_MINUTE: '1', REDIS_URL: 'redis://127.0.0.1:9' });
    expect(await statuses([app], 3, clientAddress())).toEqual([401, 401, 401]);
  });
});
