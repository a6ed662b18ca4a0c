/**
 * Bearer id-token verification against the configured issuers ONLY: the local demo issuer,
 * one Microsoft Entra tenant, one Firebase project. The unverified `iss` claim merely picks
 * which issuer's keys, algorithms and audience to verify with; jose then checks the signature,
 * algorithm allow-list, iss, aud and exp, and this module the token's age (#20, for every
 * issuer): `exp` and `iat` required, `iat` not in the future beyond the clock skew, and no token
 * living longer than MAX_TOKEN_LIFETIME_SECONDS. Anything else is a 401.
 *
 * Each issuer also says who the account is (its stable subject) and whether it vouches for the
 * e-mail address; only a vouched address may bind a first sign-in to an existing user
 * (docs/decisions/0018).
 */
import { createRemoteJWKSet, decodeJwt, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey, type CryptoKey } from 'jose';
import type { Config } from '../config';
import { LOCAL_ALGORITHM, LOCAL_AUDIENCE, LOCAL_ISSUER } from './local-issuer';

/** Clocks of issuers and this server may differ by this much (exp, nbf, iat). */
export const CLOCK_SKEW_SECONDS = 60;
/** The longest an id token may live from `iat` to `exp`: Entra and Firebase issue 1 hour, the local issuer at most 24. */
export const MAX_TOKEN_LIFETIME_SECONDS = 24 * 60 * 60;

export interface VerifiedIdentity {
  issuer: string;
  /** The account at the issuer: `sub` (local, Firebase) or `oid` (Entra: one person across the tenant's apps). */
  subject: string;
  /** Subjects this server bound the same account under before (Entra: `sub`, before #20); found, they are re-bound to `subject`. */
  formerSubjects?: string[];
  /** The address the token names: checked against the allowed domains; the address of a new user. */
  email: string;
  /** The issuer vouches that the account owns `email`: only then may a first sign-in be bound to the existing user of that address. */
  emailVerified: boolean;
  name: string | null;
  /** When the person signed in, in seconds: the token's `auth_time` (Firebase, OIDC), else its `iat`. */
  signedInAt?: number;
}

export class AuthError extends Error {
  readonly statusCode = 401;
}

interface AccountClaims {
  subject: string;
  formerSubjects?: string[];
  email: string;
  emailVerified: boolean;
}

interface TrustedIssuer {
  issuer: string;
  audience: string;
  algorithms: string[];
  key: CryptoKey | JWTVerifyGetKey;
  /** Who the account is and which address it has; a string says what is missing (401). */
  accountOf(payload: JWTPayload): AccountClaims | string;
}

const stringClaim = (payload: JWTPayload, name: string): string | undefined => {
  const value = payload[name];
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
};

const isTrue = (value: unknown) => value === true || value === 'true' || value === 1 || value === '1';

/**
 * Entra: the subject is `oid` in the configured tenant (`tid`). `email` is an address any user or
 * admin can type and `preferred_username` is mutable, so neither is vouched for ("nOAuth"); an
 * address counts as verified only with the `xms_edov` optional claim (the tenant owns the
 * address's domain) or as a `verified_primary_email` entry. Otherwise the address may only open
 * a new, pending account.
 */
function entraAccount(payload: JWTPayload, tenantId: string): AccountClaims | string {
  const oid = stringClaim(payload, 'oid');
  if (!oid || stringClaim(payload, 'tid') !== tenantId) return 'Id token has no object id (oid) of the configured tenant (tid)';
  const formerSubjects = payload.sub ? [payload.sub] : [];
  const email = stringClaim(payload, 'email');
  if (email && isTrue(payload.xms_edov)) return { subject: oid, formerSubjects, email, emailVerified: true };
  const primary = payload.verified_primary_email;
  const vouched = (Array.isArray(primary) ? primary : [primary]).find((value): value is string => typeof value === 'string' && value.includes('@'));
  if (vouched) return { subject: oid, formerSubjects, email: vouched, emailVerified: true };
  const claimed = email ?? stringClaim(payload, 'preferred_username');
  if (!claimed) return 'Id token has no e-mail address';
  return { subject: oid, formerSubjects, email: claimed, emailVerified: false };
}

/** Local and Firebase: the subject is `sub`; only an address the issuer verified identifies a user at all. */
function verifiedEmailAccount(payload: JWTPayload): AccountClaims | string {
  const email = stringClaim(payload, 'email');
  if (!payload.sub || !email || payload.email_verified !== true) return 'Id token has no subject or verified e-mail';
  return { subject: payload.sub, email, emailVerified: true };
}

export function buildTrustedIssuers(config: Config, localKey: CryptoKey | null): TrustedIssuer[] {
  const issuers: TrustedIssuer[] = [];
  if (config.localAuth && localKey) {
    issuers.push({
      issuer: LOCAL_ISSUER,
      audience: LOCAL_AUDIENCE,
      algorithms: [LOCAL_ALGORITHM],
      key: localKey,
      accountOf: verifiedEmailAccount,
    });
  }
  if (config.microsoft) {
    const { tenantId, clientId, jwksUrl } = config.microsoft;
    issuers.push({
      issuer: `https://login.microsoftonline.com/${tenantId}/v2.0`,
      audience: clientId,
      algorithms: ['RS256'],
      key: createRemoteJWKSet(new URL(jwksUrl ?? `https://login.microsoftonline.com/${tenantId}/discovery/v2.0/keys`)),
      accountOf: (p) => entraAccount(p, tenantId),
    });
  }
  if (config.firebase) {
    const { projectId, jwksUrl } = config.firebase;
    issuers.push({
      issuer: `https://securetoken.google.com/${projectId}`,
      audience: projectId,
      algorithms: ['RS256'],
      key: createRemoteJWKSet(
        new URL(jwksUrl ?? 'https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com'),
      ),
      // Only addresses Google has verified may identify a user.
      accountOf: verifiedEmailAccount,
    });
  }
  return issuers;
}

/** Why a verified token is too old, too long-lived or from the future; null when its age is fine. */
export function tokenAgeProblem(payload: JWTPayload, nowSeconds: number): string | null {
  const { exp, iat } = payload;
  if (typeof exp !== 'number') return 'Id token has no expiry (exp)';
  if (typeof iat !== 'number') return 'Id token has no issue time (iat)';
  if (iat > nowSeconds + CLOCK_SKEW_SECONDS) return 'Id token is issued in the future';
  if (exp - iat > MAX_TOKEN_LIFETIME_SECONDS) return `Id token lives longer than ${MAX_TOKEN_LIFETIME_SECONDS / 3600} hours`;
  return null;
}

export function createTokenVerifier(issuers: TrustedIssuer[], now: () => number = () => Date.now()) {
  return async function verifyIdToken(token: string): Promise<VerifiedIdentity> {
    let claimedIssuer: string | undefined;
    try {
      claimedIssuer = decodeJwt(token).iss;
    } catch {
      throw new AuthError('Malformed id token');
    }
    const trusted = issuers.find((candidate) => candidate.issuer === claimedIssuer);
    if (!trusted) throw new AuthError('Id token issuer is not trusted');
    let payload: JWTPayload;
    try {
      const options = {
        issuer: trusted.issuer,
        audience: trusted.audience,
        algorithms: trusted.algorithms,
        clockTolerance: CLOCK_SKEW_SECONDS,
        currentDate: new Date(now()),
      };
      payload =
        typeof trusted.key === 'function'
          ? (await jwtVerify(token, trusted.key, options)).payload
          : (await jwtVerify(token, trusted.key, options)).payload;
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw new AuthError('Id token expired');
      throw new AuthError('Id token is not valid');
    }
    const ageProblem = tokenAgeProblem(payload, Math.floor(now() / 1000));
    if (ageProblem) throw new AuthError(ageProblem);
    const account = trusted.accountOf(payload);
    if (typeof account === 'string') throw new AuthError(account);
    return {
      issuer: trusted.issuer,
      subject: account.subject,
      ...(account.formerSubjects?.length ? { formerSubjects: account.formerSubjects } : {}),
      email: account.email.trim().toLowerCase(),
      emailVerified: account.emailVerified,
      name: stringClaim(payload, 'name') ?? null,
      signedInAt: typeof payload.auth_time === 'number' && payload.auth_time <= payload.iat! ? payload.auth_time : payload.iat!,
    };
  };
}

export type VerifyIdToken = ReturnType<typeof createTokenVerifier>;
