/**
 * Who is calling, and may they? Every route under the three service prefixes is authenticated
 * (bearer id token → user), refused for expired users (403 "User expired") and, unless the route
 * says `allowUnapproved`, for users whose access request is not approved. Each route declares
 * the §6 capability it needs in its config; the check is the same `can()` the browser uses.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { can, type Capability } from '../../src/domain/permissions';
import { MESSAGES } from '../../src/domain/constants';
import { emailDomain } from '../../src/domain/email';
import type { VerifyIdToken } from '../auth/verify-token';
import type { Caches } from '../cache';
import type { Db } from '../db/client';
import { isExpired, resolveUser, type CurrentUser } from '../repositories/users';
import { HttpError, permissionDenied } from './errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The §6 capability a caller needs; routes without one only need an approved user. */
    capability?: Capability;
    /** Pending users may call it (the profile call, so the app can route them); rejected users never. */
    allowUnapproved?: boolean;
  }
  interface FastifyRequest {
    currentUser: CurrentUser | null;
    /** When the caller signed in (seconds; the token's auth_time or iat): their "last login". */
    signedInAt: number | null;
  }
}

export function requireUser(request: FastifyRequest): CurrentUser {
  if (!request.currentUser) throw new HttpError(401, MESSAGES.missingToken);
  return request.currentUser;
}

export interface AuthOptions {
  db: Db;
  verifyIdToken: VerifyIdToken;
  allowedDomains: string[];
  supportEmail: string;
  /** Verified tokens, kept until they expire (docs/decisions/0021). */
  caches: Caches;
}

/** Registers the hooks on a scoped instance: call inside each service's plugin. */
export function authenticateAll(app: FastifyInstance, options: AuthOptions): void {
  app.addHook('onRequest', async (request) => {
    const header = request.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
    if (!match?.[1]) throw new HttpError(401, MESSAGES.missingToken);
    const { caches } = options;
    const identity = await caches.identity(match[1], options.verifyIdToken).catch((error: unknown) => {
      throw new HttpError(401, error instanceof Error ? error.message : 'Id token is not valid');
    });
    const domain = emailDomain(identity.email);
    if (!options.allowedDomains.includes(domain)) {
      throw new HttpError(403, MESSAGES.emailDomainNotSupported(domain));
    }
    // The caller is read from the database on every call (docs/decisions/0021).
    const user = await resolveUser(options.db, identity, options.supportEmail);
    if (isExpired(user)) throw new HttpError(403, MESSAGES.userExpired);
    const config = request.routeOptions.config;
    // A rejected request closes every call, the profile included: the welcome page reads the 403.
    if (user.approvalStatus === 'Rejected' || (user.approvalStatus !== 'Approved' && !config.allowUnapproved)) {
      throw new HttpError(403, user.approvalStatus === 'Rejected' ? MESSAGES.approvalRejected : MESSAGES.pendingApproval);
    }
    if (config.capability && !can(user.grants, config.capability)) {
      throw permissionDenied(config.capability);
    }
    request.currentUser = user;
    request.signedInAt = identity.signedInAt ?? null;
  });
}
