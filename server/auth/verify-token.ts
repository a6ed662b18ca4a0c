/**
 * Bearer id-token verification against the configured issuers ONLY: the local demo issuer,
 * one Microsoft Entra tenant, one Firebase project. The unverified `iss` claim merely picks
 * which issuer's keys, algorithms and audience to verify with; everything is then checked by
 * jose (signature, algorithm allow-list, iss, aud, exp). Anything else is a 401.
 */
import { createRemoteJWKSet, decodeJwt, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey, type CryptoKey } from 'jose';
import type { Config } from '../config';
import { LOCAL_ALGORITHM, LOCAL_AUDIENCE, LOCAL_ISSUER } from './local-issuer';

export interface VerifiedIdentity {
  issuer: string;
  subject: string;
  email: string;
  name: string | null;
}

export class AuthError extends Error {
  readonly statusCode = 401;
}

interface TrustedIssuer {
  issuer: string;
  audience: string;
  algorithms: string[];
  key: CryptoKey | JWTVerifyGetKey;
  emailOf(payload: JWTPayload): string | undefined;
}

const stringClaim = (payload: JWTPayload, name: string): string | undefined => {
  const value = payload[name];
  return typeof value === 'string' ? value : undefined;
};

export function buildTrustedIssuers(config: Config, localKey: CryptoKey | null): TrustedIssuer[] {
  const issuers: TrustedIssuer[] = [];
  if (config.localAuth && localKey) {
    issuers.push({
      issuer: LOCAL_ISSUER,
      audience: LOCAL_AUDIENCE,
      algorithms: [LOCAL_ALGORITHM],
      key: localKey,
      emailOf: (p) => stringClaim(p, 'email'),
    });
  }
  if (config.microsoft) {
    const { tenantId, clientId, jwksUrl } = config.microsoft;
    issuers.push({
      issuer: `https://login.microsoftonline.com/${tenantId}/v2.0`,
      audience: clientId,
      algorithms: ['RS256'],
      key: createRemoteJWKSet(new URL(jwksUrl ?? `https://login.microsoftonline.com/${tenantId}/discovery/v2.0/keys`)),
      // Entra id tokens carry the sign-in address in preferred_username; `email` only when configured.
      emailOf: (p) => stringClaim(p, 'email') ?? stringClaim(p, 'preferred_username'),
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
      emailOf: (p) => (p.email_verified === true ? stringClaim(p, 'email') : undefined),
    });
  }
  return issuers;
}

export function createTokenVerifier(issuers: TrustedIssuer[]) {
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
      const options = { issuer: trusted.issuer, audience: trusted.audience, algorithms: trusted.algorithms };
      payload =
        typeof trusted.key === 'function'
          ? (await jwtVerify(token, trusted.key, options)).payload
          : (await jwtVerify(token, trusted.key, options)).payload;
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw new AuthError('Id token expired');
      throw new AuthError('Id token is not valid');
    }
    const email = trusted.emailOf(payload);
    if (!payload.sub || !email) throw new AuthError('Id token has no subject or verified e-mail');
    return { issuer: trusted.issuer, subject: payload.sub, email: email.toLowerCase(), name: stringClaim(payload, 'name') ?? null };
  };
}

export type VerifyIdToken = ReturnType<typeof createTokenVerifier>;
