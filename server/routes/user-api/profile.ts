import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBody } from '../../../src/contract/common';
import { profile, updateProfileBody } from '../../../src/contract/user-api';
import type { Db } from '../../db/client';
import { buildProfile, recordLogin, updateProfile } from '../../repositories/users';
import { requireUser } from '../../plugins/auth';
import { HttpError } from '../../plugins/errors';

export const profileRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/user/profile',
    {
      // Pending users get their profile (with approvalRequestId) so the app can show the welcome page.
      config: { allowUnapproved: true },
      schema: { tags: ['user'], summary: 'The caller’s profile (§3)', response: { 200: profile, 401: errorBody, 403: errorBody } },
    },
    async (request) => {
      const user = requireUser(request);
      // The user's last login is when this session signed in (the token says), however often the
      // app reads the profile meanwhile.
      await recordLogin(db, user.id, request.signedInAt);
      return buildProfile(db, user);
    },
  );

  app.put(
    '/user/profile',
    {
      config: { allowUnapproved: true },
      schema: {
        tags: ['user'],
        summary: 'Change the caller’s language, or confirm the first-login screen',
        body: updateProfileBody,
        response: { 200: profile, 400: errorBody, 409: errorBody },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const current = await buildProfile(db, user);
      if (request.body.locale && current.isLocaleLocked && request.body.locale !== current.locale) {
        throw new HttpError(409, `The language of this account is locked to ${current.locale}`);
      }
      await updateProfile(db, user.id, request.body);
      return buildProfile(db, user);
    },
  );
};
