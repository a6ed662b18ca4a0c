/**
 * The rate limit counts a call by the route it reaches, not by how its URL is spelled: the router
 * decodes %xx before matching, so `/%75ser_api/v1/user/profile` is /user_api/v1/user/profile and
 * `/%61uth/local/%74oken` is the demo sign-in. Before, the limit tested the raw URL against the
 * services' prefixes and let such calls through uncounted. The demo sign-in's own limit (120 a
 * minute) applies too: it used to be shadowed by the general one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { createLocalErpAdapter } from '../../server/erp/adapter';
import { createTestProduct, type TestProduct } from './harness';

/** The demo sign-in's own limit per minute (server/routes/auth.ts). */
const SIGN_IN_LIMIT = 120;

describe('rate limit on percent-encoded paths', () => {
  let product: TestProduct;
  const apps: FastifyInstance[] = [];

  /** An app on the shared database with its own rate-limit counters and a limit of 3 a minute. */
  async function appLimitedTo3() {
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_DIR: './no-such-dir', RATE_LIMIT_PER_MINUTE: '3' });
    const app = await buildApp({ config, db: product.database.db, localIssuer: product.issuer, erp: createLocalErpAdapter(), logger: false });
    await app.ready();
    apps.push(app);
    return app;
  }

  async function statuses(app: FastifyInstance, calls: number, request: { method: 'GET' | 'POST'; url: string; payload?: object }, remoteAddress: string) {
    const result: number[] = [];
    for (let i = 0; i < calls; i++) result.push((await app.inject({ ...request, remoteAddress })).statusCode);
    return result;
  }

  beforeAll(async () => {
    product = await createTestProduct('pglite');
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await product?.close();
  });

  it('counts a service call whose path is percent-encoded like the plain one', async () => {
    const app = await appLimitedTo3();
    // Reaches the profile route (401 without a token), and is held to the limit all the same.
    expect(await statuses(app, 5, { method: 'GET', url: '/%75ser_api/v1/user/profile' }, '192.0.2.21')).toEqual([401, 401, 401, 429, 429]);
    // One count per client, however each call is spelled.
    const mixed = ['/user_api/v1/user/profile', '/%75ser_api/v1/user/profile', '/user_api/v1/user/%70rofile', '/%70arts/v1/users/me/tracking-status'];
    const results = [];
    for (const url of mixed) results.push((await app.inject({ method: 'GET', url, remoteAddress: '192.0.2.22' })).statusCode);
    expect(results).toEqual([401, 401, 401, 429]);
  });

  it('counts an encoded path under a service prefix that reaches no route', async () => {
    const app = await appLimitedTo3();
    expect(await statuses(app, 4, { method: 'GET', url: '/%61pi/v2/no-such-route' }, '192.0.2.23')).toEqual([404, 404, 404, 429]);
  });

  it('holds the demo sign-in to its own limit, encoded or not', async () => {
    const app = await appLimitedTo3();
    // A refused address (403) is cheap to ask for and counts like a granted one.
    const signIn = (url: string) => ({ method: 'POST' as const, url, payload: { email: 'someone@gmail.com' } });
    const encoded = await statuses(app, SIGN_IN_LIMIT + 2, signIn('/%61uth/local/%74oken'), '192.0.2.24');
    expect(encoded.slice(0, SIGN_IN_LIMIT).every((status) => status === 403)).toBe(true);
    expect(encoded.slice(SIGN_IN_LIMIT)).toEqual([429, 429]);
    // The plain path shares the count, and the sign-in's limit is its own: the general 3 a minute
    // neither cut it short above nor is spent by it.
    expect(await statuses(app, 1, signIn('/auth/local/token'), '192.0.2.24')).toEqual([429]);
    expect(await statuses(app, 1, { method: 'GET', url: '/user_api/v1/user/profile' }, '192.0.2.24')).toEqual([401]);
  });
});
