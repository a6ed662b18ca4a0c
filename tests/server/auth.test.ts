import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, sql } from 'drizzle-orm';
import { openDatabase } from '../../server/db/client';
import { resolveUser } from '../../server/repositories/users';
import { approvalRequests, auditLog, userIdentities, users } from '../../server/db/schema';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { LOCAL_ALGORITHM, LOCAL_AUDIENCE, LOCAL_ISSUER } from '../../server/auth/local-issuer';
import { loadConfig } from '../../server/config';
import { startProduct } from '../../server/start';
import { bearer, createScratchDatabase, createTestProduct, ENGINES, type TestProduct } from './harness';
import { providedTemplates } from './template';

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe.each(ENGINES)('authentication on %s', (engine) => {
  let product: TestProduct;
  let jwks: Server;
  let msKey: CryptoKey;
  let firebaseKey: CryptoKey;
  const tenant = 'test-tenant';
  const clientId = 'client-123';
  const firebaseProject = 'partstrack-test';
  const MS_ISSUER = `https://login.microsoftonline.com/${tenant}/v2.0`;
  const FIREBASE_ISSUER = `https://securetoken.google.com/${firebaseProject}`;

  beforeAll(async () => {
    // A stand-in for Microsoft's and Google's key endpoints, on loopback: real RS256 verification, no internet.
    const pair = await generateKeyPair('RS256');
    msKey = pair.privateKey;
    const firebasePair = await generateKeyPair('RS256');
    firebaseKey = firebasePair.privateKey;
    const publicJwks = [
      { ...(await exportJWK(pair.publicKey)), kid: 'ms-1', alg: 'RS256', use: 'sig' },
      { ...(await exportJWK(firebasePair.publicKey)), kid: 'fb-1', alg: 'RS256', use: 'sig' },
    ];
    jwks = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: publicJwks }));
    });
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    const { port } = jwks.address() as AddressInfo;
    product = await createTestProduct(engine, {
      MS_TENANT_ID: tenant,
      MS_CLIENT_ID: clientId,
      MS_JWKS_URL: `http://127.0.0.1:${port}/keys`,
      FIREBASE_PROJECT_ID: firebaseProject,
      FIREBASE_JWKS_URL: `http://127.0.0.1:${port}/keys`,
      // With real providers configured the demo sign-in is off unless asked for; these tests use all three.
      AUTH_LOCAL_ENABLED: 'true',
    });
  });
  afterAll(async () => {
    await product?.close();
    jwks?.close();
  });

  const profile = (headers: Record<string, string> = {}) =>
    product.app.inject({ method: 'GET', url: '/user_api/v1/user/profile', headers });

  const now = () => Math.floor(Date.now() / 1000);
  /** An Entra id token of the configured tenant: `tid` and `oid` (the account), `sub` (pairwise per app). */
  const microsoftToken = (claims: Record<string, unknown>, audience = clientId, issuer = MS_ISSUER) =>
    new SignJWT({ tid: tenant, oid: 'oid-ms-1', ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: 'ms-1' })
      .setIssuer(issuer)
      .setAudience(audience)
      .setSubject('ms-subject-1')
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(msKey);

  type Issuer = 'local' | 'microsoft' | 'firebase';
  /** A token of one of the three configured issuers with exactly these claims (iat, exp included or not). */
  function rawToken(issuer: Issuer, claims: JWTPayload): Promise<string> {
    const signer = {
      local: { key: product.issuer.privateKey, alg: LOCAL_ALGORITHM, kid: product.issuer.kid, iss: LOCAL_ISSUER, aud: LOCAL_AUDIENCE },
      microsoft: { key: msKey, alg: 'RS256', kid: 'ms-1', iss: MS_ISSUER, aud: clientId },
      firebase: { key: firebaseKey, alg: 'RS256', kid: 'fb-1', iss: FIREBASE_ISSUER, aud: firebaseProject },
    }[issuer];
    return new SignJWT({ iss: signer.iss, aud: signer.aud, ...claims }).setProtectedHeader({ alg: signer.alg, kid: signer.kid }).sign(signer.key);
  }
  /** Who each issuer's token is about: an existing user with a verified address. */
  const ACCOUNT: Record<Issuer, JWTPayload> = {
    local: { sub: 'mechanic@example.com', email: 'mechanic@example.com', email_verified: true },
    microsoft: { sub: 'ms-age', tid: tenant, oid: 'oid-age', email: 'mechanic@example.com', xms_edov: true },
    firebase: { sub: 'fb-age', email: 'mechanic@example.com', email_verified: true },
  };
  const linksOf = (userId: string) =>
    product.database.db
      .select({ actorEmail: auditLog.actorEmail, after: auditLog.after })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'user.linkIdentity'), eq(auditLog.targetId, userId)))
      .orderBy(asc(auditLog.id));
  const userIdOf = async (email: string) => (await product.database.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]?.id;

  it('sends the security headers on every answer, refusals included', async () => {
    for (const res of [await profile(), await product.app.inject({ method: 'GET', url: '/healthz' })]) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("frame-src 'self' https://login.microsoftonline.com");
      expect(csp).toContain("object-src 'none'");
      // Sign-in pop-ups report back to the page that opened them.
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
    }
  });

  it('answers the Microsoft sign-in pop-up\'s return address with a passive page (no script, not cached)', async () => {
    const res = await product.app.inject({ method: 'GET', url: '/auth/msal-callback?code=x&state=y' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).not.toContain('<script');
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

  it('finds the caller of every call through one prepared statement (PostgreSQL: parsed once per connection)', async () => {
    expect((await profile(bearer(await product.token('mechanic@example.com')))).statusCode).toBe(200);
    const [bound] = await product.database.db
      .select({ issuer: userIdentities.issuer, subject: userIdentities.subject })
      .from(userIdentities)
      .innerJoin(users, eq(users.id, userIdentities.userId))
      .where(eq(users.email, 'mechanic@example.com'));
    const identity = { issuer: bound!.issuer, subject: bound!.subject, email: 'mechanic@example.com', emailVerified: true, name: null };
    // A handle of its own: its pool holds one connection here, so the check below reads that connection's statements.
    const own = engine === 'postgres' ? await openDatabase({ databaseUrl: product.database.databaseUrl! }) : product.database;
    try {
      for (let i = 0; i < 2; i += 1) {
        const user = await resolveUser(own.db, identity, 'support@example.com');
        expect(user.email).toBe('mechanic@example.com');
        expect(user.grants.length).toBeGreaterThan(0);
      }
      if (engine === 'postgres') {
        const prepared = await own.db.execute(sql`select name from pg_prepared_statements where name like 'bound_user%'`);
        expect((prepared as unknown as { rows: unknown[] }).rows).toHaveLength(1);
      }
    } finally {
      if (own !== product.database) await own.close();
    }
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
    // The tenant vouches for the address (xms_edov): the first sign-in is bound to the existing user.
    const good = await microsoftToken({ email: 'manager@example.com', xms_edov: true, name: 'Maria Manager' });
    const ok = await profile(bearer(good));
    expect(ok.statusCode).toBe(200);
    expect(ok.json().email).toBe('manager@example.com');
    expect(ok.json().permissions).toContain('super_manager');

    const wrongAudience = await microsoftToken({ email: 'manager@example.com', xms_edov: true }, 'another-app');
    expect((await profile(bearer(wrongAudience))).statusCode).toBe(401);
    const otherTenant = await microsoftToken({ email: 'manager@example.com', xms_edov: true }, clientId, 'https://login.microsoftonline.com/other-tenant/v2.0');
    expect((await profile(bearer(otherTenant))).statusCode).toBe(401);
    for (const claims of [{ oid: undefined }, { tid: 'other-tenant' }]) {
      const res = await profile(bearer(await microsoftToken({ email: 'manager@example.com', xms_edov: true, ...claims })));
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBe('Id token has no object id (oid) of the configured tenant (tid)');
    }
  });

  describe('identity binding (#20: issuer + subject; a first sign-in takes over a user only through a vouched address)', () => {
    it('refuses a Microsoft token whose unverified email or preferred_username names an existing user (nOAuth)', async () => {
      const manager = (await userIdOf('manager@example.com'))!;
      const bindingsBefore = await product.database.db.select().from(userIdentities).where(eq(userIdentities.userId, manager));
      for (const claims of [
        { oid: 'attacker-1', email: 'manager@example.com' },
        { oid: 'attacker-2', email: 'manager@example.com', xms_edov: false },
        { oid: 'attacker-3', preferred_username: 'manager@example.com' },
        { oid: 'attacker-4', email: 'Manager@Example.com', verified_primary_email: [] },
      ]) {
        const res = await profile(bearer(await microsoftToken(claims)));
        expect(res.statusCode, JSON.stringify(claims)).toBe(403);
        expect(res.json().message).toBe(
          'This sign-in does not prove that manager@example.com is yours: the identity provider does not vouch for the address. Sign in the way you did before, or ask support@example.com to have the address verified.',
        );
      }
      expect(await product.database.db.select().from(userIdentities).where(eq(userIdentities.userId, manager))).toEqual(bindingsBefore);
      const attackers = await product.database.db.select().from(userIdentities).where(eq(userIdentities.issuer, MS_ISSUER));
      expect(attackers.filter((row) => row.subject.startsWith('attacker-'))).toEqual([]);
    });

    it('binds a vouched Microsoft address (xms_edov, verified_primary_email) to the existing user, and records the link', async () => {
      const cases: Array<[string, Record<string, unknown>]> = [
        ['stock.admin@example.com', { oid: 'oid-edov', email: 'stock.admin@example.com', xms_edov: true }],
        ['cs.admin@example.com', { oid: 'oid-primary', email: 'someone.else@example.com', verified_primary_email: ['CS.Admin@example.com'] }],
      ];
      for (const [email, claims] of cases) {
        const res = await profile(bearer(await microsoftToken(claims)));
        expect(res.statusCode, email).toBe(200);
        expect(res.json()).toMatchObject({ email, uid: await userIdOf(email) });
        expect(await linksOf(res.json().uid)).toEqual([
          { actorEmail: email, after: { issuer: MS_ISSUER, subject: claims.oid, email, emailVerified: true, reason: 'verified_email' } },
        ]);
      }
    });

    it('opens a new pending account for an unvouched address nobody has, and keeps the account by oid when the address changes', async () => {
      const first = await profile(bearer(await microsoftToken({ oid: 'oid-newcomer', preferred_username: 'new.engineer@lift.example' })));
      expect(first.statusCode).toBe(200);
      expect(first.json()).toMatchObject({ email: 'new.engineer@lift.example', permissions: [], approvalRequestId: expect.any(String) });
      expect(await linksOf(first.json().uid)).toEqual([
        {
          actorEmail: 'new.engineer@lift.example',
          after: { issuer: MS_ISSUER, subject: 'oid-newcomer', email: 'new.engineer@lift.example', emailVerified: false, reason: 'new_user' },
        },
      ]);
      // The same account (oid) now naming the manager's address is still the newcomer: e-mail never picks the user.
      const again = await profile(bearer(await microsoftToken({ oid: 'oid-newcomer', email: 'manager@example.com' })));
      expect(again.json()).toMatchObject({ uid: first.json().uid, email: 'new.engineer@lift.example', permissions: [] });
      expect(await linksOf(first.json().uid)).toHaveLength(1);
    });

    it('re-binds an account bound by its Entra sub before #20 to its oid, and records it', async () => {
      const viewer = (await userIdOf('viewer@example.com'))!;
      await product.database.db.insert(userIdentities).values({ issuer: MS_ISSUER, subject: 'pairwise-sub-of-viewer', userId: viewer });
      const token = await new SignJWT({ tid: tenant, oid: 'oid-viewer', preferred_username: 'viewer@example.com' })
        .setProtectedHeader({ alg: 'RS256', kid: 'ms-1' })
        .setIssuer(MS_ISSUER)
        .setAudience(clientId)
        .setSubject('pairwise-sub-of-viewer')
        .setIssuedAt()
        .setExpirationTime('10m')
        .sign(msKey);
      const res = await profile(bearer(token));
      expect(res.statusCode).toBe(200);
      expect(res.json().uid).toBe(viewer);
      expect(await linksOf(viewer)).toEqual([
        { actorEmail: 'viewer@example.com', after: { issuer: MS_ISSUER, subject: 'oid-viewer', email: 'viewer@example.com', emailVerified: false, reason: 'former_subject' } },
      ]);
    });

    it('binds Firebase sign-ins only with email_verified: true', async () => {
      const token = (claims: JWTPayload) => rawToken('firebase', { iat: now(), exp: now() + 600, ...claims });
      for (const verified of [false, 'true', undefined]) {
        const res = await profile(bearer(await token({ sub: 'fb-attacker', email: 'manager@example.com', email_verified: verified })));
        expect(res.statusCode, String(verified)).toBe(401);
        expect(res.json().message).toBe('Id token has no subject or verified e-mail');
      }
      const res = await profile(bearer(await token({ sub: 'fb-pm-reader', email: 'pm.reader@example.com', email_verified: true })));
      expect(res.statusCode).toBe(200);
      expect(res.json().email).toBe('pm.reader@example.com');
      expect(await linksOf(res.json().uid)).toEqual([
        {
          actorEmail: 'pm.reader@example.com',
          after: { issuer: FIREBASE_ISSUER, subject: 'fb-pm-reader', email: 'pm.reader@example.com', emailVerified: true, reason: 'verified_email' },
        },
      ]);
    });
  });

  describe.each(['local', 'microsoft', 'firebase'] as const)('token age on the %s issuer (#20)', (issuer) => {
    it.each([
      ['without exp', () => ({ iat: now() }), 'Id token has no expiry (exp)'],
      ['without iat', () => ({ exp: now() + 600 }), 'Id token has no issue time (iat)'],
      ['living 100 years', () => ({ iat: now(), exp: now() + 100 * 365 * 86_400 }), 'Id token lives longer than 24 hours'],
      ['living 24 hours and a minute', () => ({ iat: now() - 60, exp: now() + 86_400 }), 'Id token lives longer than 24 hours'],
      ['issued 5 minutes in the future', () => ({ iat: now() + 300, exp: now() + 900 }), 'Id token is issued in the future'],
    ])('refuses a token %s', async (_name, times, message) => {
      const res = await profile(bearer(await rawToken(issuer, { ...ACCOUNT[issuer], ...times() })));
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBe(message);
    });

    it('accepts a token issued within the clock skew, living up to 24 hours', async () => {
      const at = now(); // once: a second passing between two reads would make the lifetime 24 h + 1 s
      for (const times of [{ iat: at + 30, exp: at + 600 }, { iat: at - 3600, exp: at - 3600 + 86_400 }]) {
        const res = await profile(bearer(await rawToken(issuer, { ...ACCOUNT[issuer], ...times })));
        expect(res.statusCode, JSON.stringify(times)).toBe(200);
        expect(res.json().email).toBe('mechanic@example.com');
      }
    });
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
    // §1: no information before approval, the broadcasts included (an approved user reads them).
    expect(me.json().importantMessages).toEqual([]);
    expect((await profile(bearer(await product.token('mechanic@example.com')))).json().importantMessages.length).toBeGreaterThan(0);
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

/**
 * A server on PostgreSQL is a deployment, not the embedded demo: it gets the demo sign-in (anyone
 * signs in as any address) only with AUTH_LOCAL_ENABLED=true, whatever NODE_ENV says, and without
 * it or a real provider it starts but tells the operator nobody can sign in. Started as
 * server/main.ts starts it (startProduct), on a database of its own.
 */
describe.runIf(process.env.DATABASE_URL)('the demo sign-in of a server on PostgreSQL', () => {
  let scratch: { url: string; drop: () => Promise<void> };
  const dataDir = mkdtempSync(join(tmpdir(), 'partstrack-auth-pg-'));

  beforeAll(async () => {
    scratch = await createScratchDatabase(process.env.DATABASE_URL!, 'pt_auth', (await providedTemplates())?.postgres ?? undefined);
  });
  afterAll(async () => {
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** startProduct on the scratch database with `env` (NODE_ENV unset, as the defect had it); its warnings kept. */
  async function serverWith(env: Record<string, string>) {
    const config = loadConfig({ DATABASE_URL: scratch.url, DATA_DIR: dataDir, PUBLIC_DIR: './no-such-dir', SEED_ON_START: 'false', INGESTION_WORKER: 'false', ...env });
    const warnings: string[] = [];
    const product = await startProduct(config, { logger: { level: 'warn', stream: { write: (line: string) => warnings.push(JSON.parse(line).msg as string) } } });
    return { product, warnings };
  }

  it('is off by default: nobody gets a token, and the log says how to let people sign in', async () => {
    const { product, warnings } = await serverWith({});
    try {
      const token = await product.app.inject({ method: 'POST', url: '/auth/local/token', payload: { email: 'manager@example.com' } });
      expect(token.statusCode).toBe(404);
      expect((await product.app.inject({ method: 'GET', url: '/auth/config' })).json()).toMatchObject({ localSignIn: false, demoAccounts: [] });
      expect(warnings).toContainEqual(expect.stringMatching(/^Nobody can sign in: .*DATABASE_URL.*MS_TENANT_ID.*FIREBASE_PROJECT_ID.*AUTH_LOCAL_ENABLED=true/));
    } finally {
      await product.close();
    }
  });

  it('is on with AUTH_LOCAL_ENABLED=true, and then nothing is warned', async () => {
    const { product, warnings } = await serverWith({ AUTH_LOCAL_ENABLED: 'true' });
    try {
      const token = await product.app.inject({ method: 'POST', url: '/auth/local/token', payload: { email: 'manager@example.com' } });
      expect(token.statusCode).toBe(200);
      const me = await product.app.inject({ method: 'GET', url: '/user_api/v1/user/profile', headers: bearer(token.json().idToken) });
      expect(me.json().email).toBe('manager@example.com');
      expect(warnings.filter((message) => message.startsWith('Nobody can sign in'))).toEqual([]);
    } finally {
      await product.close();
    }
  });
});
