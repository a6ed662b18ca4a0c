import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { approvalRequests } from '../../server/db/schema';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { LOCAL_AUDIENCE, LOCAL_ISSUER } from '../../server/auth/local-issuer';
import { bearer, createTestProduct, ENGINES, type TestProduct } from './harness';

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe.each(ENGINES)('authentication on %s', (engine) => {
  let product: TestProduct;
  let jwks: Server;
  let msKey: CryptoKey;
  const tenant = 'test-tenant';
  const clientId = 'client-123';

  beforeAll(async () => {
    // A stand-in for Microsoft's key endpoint, on loopback: real RS256 verification, no internet.
    const pair = await generateKeyPair('RS256');
    msKey = pair.privateKey;
    const publicJwk = { ...(await exportJWK(pair.publicKey)), kid: 'ms-1', alg: 'RS256', use: 'sig' };
    jwks = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: [publicJwk] }));
    });
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    const { port } = jwks.address() as AddressInfo;
    product = await createTestProduct(engine, {
      MS_TENANT_ID: tenant,
      MS_CLIENT_ID: clientId,
      MS_JWKS_URL: `http://127.0.0.1:${port}/keys`,
    });
  });
  afterAll(async () => {
    await product?.close();
    jwks?.close();
  });

  const profile = (headers: Record<string, string> = {}) =>
    product.app.inject({ method: 'GET', url: '/user_api/v1/user/profile', headers });

  const microsoftToken = (claims: Record<string, unknown>, audience = clientId, issuer = `https://login.microsoftonline.com/${tenant}/v2.0`) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: 'ms-1' })
      .setIssuer(issuer)
      .setAudience(audience)
      .setSubject('ms-subject-1')
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(msKey);

  it('sends the security headers on every answer, refusals included', async () => {
    for (const res of [await profile(), await product.app.inject({ method: 'GET', url: '/healthz' })]) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("frame-src 'self' https://login.microsoftonline.com");
      expect(csp).toContain("object-src 'none'");
    }
  });

  it('issues a local token for an allowed domain and the token opens the profile', async () => {
    const res = await product.app.inject({ method: 'POST', url: '/auth/local/token', payload: { email: ' Mechanic@Example.com ' } });
    expect(res.statusCode).toBe(200);
    const { idToken, expiresIn } = res.json();
    expect(expiresIn).toBeGreaterThan(0);
    const me = await profile(bearer(idToken));
    expect(me.statusCode).toBe(200);
    expect(me.json().email).toBe('mechanic@example.com');
  });

  it('refuses a local token outside the allowed domains with the spec message', async () => {
    const res = await product.app.inject({ method: 'POST', url: '/auth/local/token', payload: { email: 'someone@gmail.com' } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'Email domain gmail.com not supported' });
  });

  it('answers 400 with a message for a malformed address or body', async () => {
    const bad = await product.app.inject({ method: 'POST', url: '/auth/local/token', payload: { email: 'no-at-sign' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Email must have one @ character surrounded by non-@ characters.');
    const missing = await product.app.inject({ method: 'POST', url: '/auth/local/token', payload: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toMatch(/email/);
    const broken = await product.app.inject({
      method: 'POST',
      url: '/auth/local/token',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(broken.statusCode).toBe(400);
  });

  it('answers 401 without a token, with the spec message', async () => {
    const res = await profile();
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('User profile does not have an identity token.');
  });

  it('rejects a token signed by another key (forged)', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await new SignJWT({ email: 'manager@example.com', email_verified: true })
      .setProtectedHeader({ alg: 'ES256', kid: product.issuer.kid })
      .setIssuer(LOCAL_ISSUER)
      .setAudience(LOCAL_AUDIENCE)
      .setSubject('manager@example.com')
      .setExpirationTime('10m')
      .sign(privateKey);
    expect((await profile(bearer(forged))).statusCode).toBe(401);
  });

  it('rejects alg "none"', async () => {
    const now = Math.floor(Date.now() / 1000);
    const unsigned = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({
      iss: LOCAL_ISSUER,
      aud: LOCAL_AUDIENCE,
      sub: 'manager@example.com',
      email: 'manager@example.com',
      exp: now + 600,
    })}.`;
    expect((await profile(bearer(unsigned))).statusCode).toBe(401);
  });

  it('rejects a tampered payload', async () => {
    const token = await product.token('mechanic@example.com');
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const tampered = `${header}.${b64({ ...claims, email: 'manager@example.com', sub: 'manager@example.com' })}.${signature}`;
    expect((await profile(bearer(tampered))).statusCode).toBe(401);
  });

  it('rejects an expired token', async () => {
    const past = Math.floor(Date.now() / 1000) - 3600;
    const expired = await new SignJWT({ email: 'mechanic@example.com', email_verified: true })
      .setProtectedHeader({ alg: 'ES256', kid: product.issuer.kid })
      .setIssuer(LOCAL_ISSUER)
      .setAudience(LOCAL_AUDIENCE)
      .setSubject('mechanic@example.com')
      .setIssuedAt(past - 600)
      .setExpirationTime(past)
      .sign(product.issuer.privateKey);
    const res = await profile(bearer(expired));
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('Id token expired');
  });

  it('verifies Microsoft tokens against the configured tenant keys, audience and issuer', async () => {
    const good = await microsoftToken({ preferred_username: 'manager@example.com', name: 'Maria Manager' });
    const ok = await profile(bearer(good));
    expect(ok.statusCode).toBe(200);
    expect(ok.json().email).toBe('manager@example.com');
    expect(ok.json().permissions).toContain('super_manager');

    const wrongAudience = await microsoftToken({ preferred_username: 'manager@example.com' }, 'another-app');
    expect((await profile(bearer(wrongAudience))).statusCode).toBe(401);
    const otherTenant = await microsoftToken(
      { preferred_username: 'manager@example.com' },
      clientId,
      'https://login.microsoftonline.com/other-tenant/v2.0',
    );
    expect((await profile(bearer(otherTenant))).statusCode).toBe(401);
  });

  it('enforces the allowed e-mail domains on tokens from a provider', async () => {
    const outsider = await microsoftToken({ preferred_username: 'someone@gmail.com' });
    const res = await profile(bearer(outsider));
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Email domain gmail.com not supported');
  });

  it('answers 403 "User expired" to an expired user on every call', async () => {
    const token = await product.token('expired@example.com');
    for (const url of ['/user_api/v1/user/profile', '/user_api/v1/constants/permissions', '/user_api/v1/system_parameters/allowed_plants']) {
      const res = await product.app.inject({ method: 'GET', url, headers: bearer(token) });
      expect(res.statusCode, url).toBe(403);
      expect(res.json().message).toBe('User expired');
    }
  });

  it('lets a pending user read the profile (with approvalRequestId) but refuses data calls', async () => {
    const token = await product.token('pending@example.com');
    const me = await profile(bearer(token));
    expect(me.statusCode).toBe(200);
    expect(me.json().approvalRequestId).toEqual(expect.any(String));
    const data = await product.app.inject({ method: 'GET', url: '/user_api/v1/constants/permissions', headers: bearer(token) });
    expect(data.statusCode).toBe(403);
  });

  it('creates a pending approval request on the first sign-in of a new address', async () => {
    const token = await product.token('new.mechanic@lift.example');
    const first = await profile(bearer(token));
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body.approvalRequestId).toEqual(expect.any(String));
    expect(body.permissions).toEqual([]);
    expect(body.displayName).toBe('New Mechanic');
    // The same identity again finds the same user and the same request.
    const again = await profile(bearer(token));
    expect(again.json().uid).toBe(body.uid);
    expect(again.json().approvalRequestId).toBe(body.approvalRequestId);
    const rows = await product.database.db
      .select({ managerEmail: approvalRequests.managerEmail, approvalStatus: approvalRequests.approvalStatus })
      .from(approvalRequests)
      .where(eq(approvalRequests.requestingUserEmail, 'new.mechanic@lift.example'));
    expect(rows).toEqual([{ managerEmail: 'support@example.com', approvalStatus: 'Pending' }]);
  });
});
