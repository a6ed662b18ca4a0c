/**
 * The local demo issuer: signs id tokens for the embedded default and the tests.
 * Its ES256 key pair is generated once into DATA_DIR so tokens survive a restart;
 * tests run with an in-memory pair. It never runs under NODE_ENV=production unless allowed (config.ts).
 */
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK, type CryptoKey } from 'jose';

export const LOCAL_ISSUER = 'urn:partstrack:local-demo-issuer';
export const LOCAL_AUDIENCE = 'partstrack';
export const LOCAL_ALGORITHM = 'ES256';

export interface LocalIssuer {
  publicKey: CryptoKey;
  /** Exposed for the tests that forge expired and tampered tokens with the real key. */
  privateKey: CryptoKey;
  kid: string;
  /** A display name goes into the `name` claim; without one the server derives it from the address. */
  issue(email: string, displayName?: string): Promise<{ idToken: string; expiresIn: number }>;
}

interface StoredKey {
  kid: string;
  privateJwk: JWK;
  publicJwk: JWK;
}

async function loadOrCreateKey(dataDir: string | null): Promise<StoredKey> {
  const file = dataDir ? join(dataDir, 'local-issuer-key.json') : null;
  if (file && existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as StoredKey;
  const { privateKey, publicKey } = await generateKeyPair(LOCAL_ALGORITHM, { extractable: true });
  const stored: StoredKey = { kid: randomUUID(), privateJwk: await exportJWK(privateKey), publicJwk: await exportJWK(publicKey) };
  if (file && dataDir) {
    mkdirSync(dataDir, { recursive: true });
    // Replicas sharing DATA_DIR may start together: the key is written whole to a file of its own,
    // then linked into place, which fails when another process got there first — then theirs is
    // the key, read whole. Every process signs and verifies with the same one.
    const draft = `${file}.${process.pid}.${randomUUID()}`;
    writeFileSync(draft, JSON.stringify(stored), { mode: 0o600 });
    try {
      linkSync(draft, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      return JSON.parse(readFileSync(file, 'utf8')) as StoredKey;
    } finally {
      rmSync(draft, { force: true });
    }
  }
  return stored;
}

export async function createLocalIssuer(dataDir: string | null, ttlSeconds: number): Promise<LocalIssuer> {
  const stored = await loadOrCreateKey(dataDir);
  const privateKey = (await importJWK(stored.privateJwk, LOCAL_ALGORITHM)) as CryptoKey;
  const publicKey = (await importJWK(stored.publicJwk, LOCAL_ALGORITHM)) as CryptoKey;
  return {
    publicKey,
    privateKey,
    kid: stored.kid,
    async issue(email, displayName) {
      const claims = displayName ? { email, name: displayName, email_verified: true } : { email, email_verified: true };
      const idToken = await new SignJWT(claims)
        .setProtectedHeader({ alg: LOCAL_ALGORITHM, kid: stored.kid, typ: 'JWT' })
        .setIssuer(LOCAL_ISSUER)
        .setAudience(LOCAL_AUDIENCE)
        .setSubject(email)
        .setIssuedAt()
        .setExpirationTime(`${ttlSeconds}s`)
        .sign(privateKey);
      return { idToken, expiresIn: ttlSeconds };
    },
  };
}
