import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRANTS } from '../../src/domain/permissions';
import { bearer, createTestProduct, ENGINES, type TestProduct } from './harness';

describe.each(ENGINES)('user service basics on %s', (engine) => {
  let product: TestProduct;
  let mechanic: string;

  beforeAll(async () => {
    product = await createTestProduct(engine);
    mechanic = await product.token('mechanic@example.com');
  });
  afterAll(async () => product?.close());

  const call = (method: 'GET' | 'PUT', url: string, token: string, payload?: Record<string, unknown>) =>
    product.app.inject({ method, url: `/user_api/v1${url}`, headers: bearer(token), payload });

  it('returns every §3 profile field with the user’s grants and attachments', async () => {
    const res = await call('GET', '/user/profile', mechanic);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(
      [
        'approvalRequestId', 'displayName', 'email', 'expirationDate', 'firstLogin', 'importantMessages', 'isLocaleLocked',
        'lastLogin', 'licensed', 'locale', 'managedShipToPartyNumbers', 'organisation', 'permissions', 'phoneNumber', 'plannerGroups',
        'plants', 'shipToPartyNumbers', 'storageLocations', 'uid', 'workCenters',
      ].sort(),
    );
    expect(body.permissions).toEqual(['mechanic']);
    expect(body.plants.length).toBeGreaterThan(0);
    expect(body.workCenters.length).toBeGreaterThan(0);
    expect(body.approvalRequestId).toBeNull();
    expect(body.importantMessages.length).toBeGreaterThan(0);
  });

  it('records the last login when the profile is loaded', async () => {
    await call('GET', '/user/profile', mechanic);
    const { lastLogin } = (await call('GET', '/user/profile', mechanic)).json();
    expect(Date.now() - Date.parse(lastLogin)).toBeLessThan(60_000);
  });

  it('keeps the last login at the session’s sign-in however often the profile is read, and moves it at the next sign-in', async () => {
    const issuedAt = (token: string) => (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { iat: number }).iat;
    const session = await product.token('supervisor@example.com');
    const first = (await call('GET', '/user/profile', session)).json().lastLogin as string;
    expect(Date.parse(first)).toBe(issuedAt(session) * 1000);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await call('GET', '/user/profile', session)).json().lastLogin).toBe(first);
    const next = await product.token('supervisor@example.com');
    expect(issuedAt(next)).toBeGreaterThan(issuedAt(session));
    expect(Date.parse((await call('GET', '/user/profile', next)).json().lastLogin)).toBe(issuedAt(next) * 1000);
    // An older session's token read afterwards does not move it back.
    expect(Date.parse((await call('GET', '/user/profile', session)).json().lastLogin)).toBe(issuedAt(next) * 1000);
  });

  it('round-trips the language and refuses one outside the nine', async () => {
    const put = await call('PUT', '/user/profile', mechanic, { locale: 'fi-FI' });
    expect(put.statusCode).toBe(200);
    expect(put.json().locale).toBe('fi-FI');
    expect((await call('GET', '/user/profile', mechanic)).json().locale).toBe('fi-FI');

    const bad = await call('PUT', '/user/profile', mechanic, { locale: 'xx-XX' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('locale must be one of');
    expect((await call('GET', '/user/profile', mechanic)).json().locale).toBe('fi-FI');
  });

  it('refuses an empty or unknown update with a message', async () => {
    const empty = await call('PUT', '/user/profile', mechanic, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toContain('Nothing to update');
    const unknown = await call('PUT', '/user/profile', mechanic, { email: 'boss@example.com' });
    expect(unknown.statusCode).toBe(400);
  });

  it('clears firstLogin once the first-login screen confirms it', async () => {
    const newcomer = await product.token('first.timer@example.org');
    expect((await call('GET', '/user/profile', newcomer)).json().firstLogin).toBe(true);
    const put = await call('PUT', '/user/profile', newcomer, { firstLogin: false });
    expect(put.statusCode).toBe(200);
    expect(put.json().firstLogin).toBe(false);
  });

  it('lists every role and permission of §6 as {ID, LABEL, DESCRIPTION}', async () => {
    const res = await call('GET', '/constants/permissions', mechanic);
    expect(res.statusCode).toBe(200);
    const ids = res.json().map((entry: { ID: string }) => entry.ID).sort();
    expect(ids).toEqual([...GRANTS].sort());
    for (const entry of res.json()) {
      expect(entry.LABEL).not.toBe('');
      expect(entry.DESCRIPTION).not.toBe('');
    }
  });

  it('returns the four allowed-plant lists', async () => {
    const res = await call('GET', '/system_parameters/allowed_plants', mechanic);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    for (const key of ['notifications_allowed_plants', 'stock_count_allowed_plants', 'count_deadline_allowed_plants', 'show_zero_stock_material_plants']) {
      expect(Array.isArray(body[key]), key).toBe(true);
    }
    expect(body.stock_count_allowed_plants.length).toBeGreaterThan(0);
  });

  it('answers unknown API paths with a JSON 404, never the app', async () => {
    const res = await product.app.inject({ method: 'GET', url: '/user_api/v1/nope', headers: { accept: 'text/html', ...bearer(mechanic) } });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toContain('/user_api/v1/nope');
  });

  it('serves an OpenAPI document generated from the zod contract', async () => {
    const res = await product.app.inject({ method: 'GET', url: '/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.paths['/user_api/v1/user/profile'].get).toBeDefined();
    expect(doc.paths['/auth/local/token'].post).toBeDefined();
    expect(doc.components.schemas.Profile).toBeDefined();
  });
});
