/**
 * Issue #20, points 3 and 8: the rate limit counts per client address, and a caller cannot pick
 * its own address with X-Forwarded-For unless TRUST_PROXY names the proxy in front; /docs is
 * served in development and switched off in production unless DOCS_ENABLED says otherwise.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { createLocalErpAdapter } from '../../server/erp/adapter';
import { bearer, createTestProduct, ENGINES, type TestProduct } from './harness';

describe.each(ENGINES)('client address and /docs on %s', (engine) => {
  let product: TestProduct;
  const apps: FastifyInstance[] = [];

  /** Another app on the same database, with its own configuration (and its own rate-limit counters). */
  async function appWith(env: Record<string, string>) {
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_DIR: './no-such-dir', ...env });
    const app = await buildApp({ config, db: product.database.db, localIssuer: product.issuer, erp: createLocalErpAdapter(), logger: false });
    await app.ready();
    apps.push(app);
    return app;
  }

  beforeAll(async () => {
    product = await createTestProduct(engine);
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await product?.close();
  });

  /** Statuses of `n` calls to a service route, each from `remoteAddress` claiming `forwardedFor(i)` (without a token: 401). */
  async function statuses(app: FastifyInstance, n: number, remoteAddress: string, forwardedFor: (i: number) => string, headers: Record<string, string> = {}) {
    const result: number[] = [];
    for (let i = 0; i < n; i++) {
      const res = await app.inject({ method: 'GET', url: '/user_api/v1/user/profile', remoteAddress, headers: { ...headers, 'x-forwarded-for': forwardedFor(i) } });
      result.push(res.statusCode);
    }
    return result;
  }

  it('by default ignores X-Forwarded-For: a new address on every call does not escape the limit', async () => {
    const app = await appWith({ RATE_LIMIT_PER_MINUTE: '3' });
    const signedIn = bearer(await product.token('mechanic@example.com'));
    expect(await statuses(app, 5, '192.0.2.10', (i) => `203.0.113.${i + 1}`, signedIn)).toEqual([200, 200, 200, 429, 429]);
  });

  it('counts calls refused for want of a token too (the limit runs before authentication)', async () => {
    const app = await appWith({ RATE_LIMIT_PER_MINUTE: '3' });
    expect(await statuses(app, 4, '192.0.2.11', () => '203.0.113.1')).toEqual([401, 401, 401, 429]);
    // The refusal keeps its English message, with a code and the seconds to wait the app words (decision 0055).
    const refused = await app.inject({ method: 'GET', url: '/user_api/v1/user/profile', remoteAddress: '192.0.2.11' });
    expect(refused.statusCode).toBe(429);
    const body = refused.json();
    expect(body).toMatchObject({ message: expect.stringMatching(/^Rate limit exceeded, retry in /), code: 'tooManyRequests' });
    expect(body.params.count).toBeGreaterThan(0);
    expect(body.params.count).toBe(Number(refused.headers['retry-after']));
  });

  it('with TRUST_PROXY as addresses, believes X-Forwarded-For only from those proxies', async () => {
    const app = await appWith({ RATE_LIMIT_PER_MINUTE: '3', TRUST_PROXY: '10.0.0.0/8, 192.168.1.1' });
    // Each client behind the proxy its own count...
    expect(await statuses(app, 4, '10.1.2.3', (i) => `203.0.113.${i + 1}`)).toEqual([401, 401, 401, 401]);
    // ...and one client is held to the limit, whatever it writes in front of the proxy's own entry.
    expect(await statuses(app, 4, '10.1.2.3', (i) => `198.51.100.${i + 1}, 203.0.113.77`)).toEqual([401, 401, 401, 429]);
    // A caller outside the trusted proxies is counted by its own address, whatever it forwards.
    expect(await statuses(app, 4, '192.0.2.99', (i) => `203.0.113.${i + 50}`)).toEqual([401, 401, 401, 429]);
  });

  it('serves /docs in development and test, not in production unless DOCS_ENABLED=true', async () => {
    const docs = async (app: FastifyInstance) =>
      [(await app.inject({ method: 'GET', url: '/docs/json' })).statusCode, (await app.inject({ method: 'GET', url: '/docs' })).statusCode];
    const production = { NODE_ENV: 'production', ALLOW_LOCAL_AUTH_IN_PRODUCTION: 'true' };
    expect((await docs(product.app))[0]).toBe(200);
    expect(await docs(await appWith(production))).toEqual([404, 404]);
    expect((await docs(await appWith({ ...production, DOCS_ENABLED: 'true' })))[0]).toBe(200);
    expect(await docs(await appWith({ DOCS_ENABLED: 'false' }))).toEqual([404, 404]);
  });
});
