/** Sign-in helpers of this deployment: what the landing page offers, and the local demo issuer. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { authConfigResponse, localTokenBody, localTokenResponse } from '../../src/contract/auth';
import { errorBody } from '../../src/contract/common';
import { checkEmail } from '../../src/domain/email';
import { DEMO_ACCOUNTS } from '../auth/demo-accounts';
import type { LocalIssuer } from '../auth/local-issuer';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { HttpError } from '../plugins/errors';

export interface AuthRoutesOptions {
  db: Db;
  localIssuer: LocalIssuer | null;
  allowedDomains: string[];
}

export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (app, { db, localIssuer, allowedDomains }) => {
  app.get(
    '/auth/config',
    { schema: { tags: ['auth'], summary: 'Sign-in options of this deployment', response: { 200: authConfigResponse } } },
    async () => ({
      localSignIn: localIssuer !== null,
      demoAccounts: localIssuer ? DEMO_ACCOUNTS.map((a) => ({ ...a, grants: [...a.grants] })) : [],
      allowedDomains,
    }),
  );

  // Where Microsoft's sign-in pop-up (and MSAL's hidden renewal frame) comes back: a passive
  // same-origin page MSAL reads the answer from (src/lib/auth/microsoft.ts, enableLegacyPolling).
  // Under /auth/ the service worker does not answer it with the app, which would navigate away.
  app.get('/auth/msal-callback', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>PartsTrack</title></head><body></body></html>'),
  );

  if (!localIssuer) return;

  app.post(
    '/auth/local/token',
    {
      config: { rateLimit: { max: 120, timeWindow: '1 minute' } },
      schema: {
        tags: ['auth'],
        summary: 'Local demo sign-in: an id token for an address of an allowed domain',
        body: localTokenBody,
        response: { 200: localTokenResponse, 400: errorBody, 403: errorBody },
      },
    },
    async (request) => {
      const check = checkEmail(request.body.email, allowedDomains);
      if (!check.ok) throw new HttpError(check.message.startsWith('Email domain') ? 403 : 400, check.message);
      const [known] = await db.select({ displayName: users.displayName }).from(users).where(eq(users.email, check.email));
      return localIssuer.issue(check.email, known?.displayName);
    },
  );
};
