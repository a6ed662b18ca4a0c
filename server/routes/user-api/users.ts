/**
 * /user_api/v1/users: the three lists of the users-management screen (all, approved, my plant
 * users), a user's permissions and attachments (§6 grant matrix), expiration date and removal.
 * The spec names these screens but not their paths; they are ours and in the OpenAPI document.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBody } from '../../../src/contract/common';
import {
  expirationTag,
  grantOptions,
  plantOptions,
  plantOptionsQuery,
  removedUser,
  updateExpirationBody,
  updatePermissionsBody,
  userByEmailQuery,
  userIdParams,
  userPermissions,
  userRow,
  usersPage,
  usersQuery,
  type UserList,
} from '../../../src/contract/users';
import type { Capability } from '../../../src/domain/permissions';
import type { Db } from '../../db/client';
import { requireUser } from '../../plugins/auth';
import { runMutation } from '../../plugins/idempotency';
import {
  findUserByEmail,
  grantOptionsFor,
  listUsers,
  plantOptionsFor,
  permissionsTag,
  readPermissions,
  removeUser,
  updateExpiration,
  updatePermissions,
} from '../../repositories/user-admin';

const tags = ['users management'];

const LISTS: { path: string; list: UserList; capability: Capability; summary: string }[] = [
  { path: '/users', list: 'all', capability: 'users.listAll', summary: 'All users (tab All users), searchable by e-mail or name' },
  { path: '/users/approved', list: 'approved', capability: 'users.listApproved', summary: 'Approved users (tab Approved users)' },
  { path: '/users/my_plant', list: 'my_plant', capability: 'users.listMyPlant', summary: 'Users of the caller’s plants (tab My plant users)' },
];

export const usersRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  for (const { path, list, capability, summary } of LISTS) {
    app.get(
      path,
      {
        config: { capability },
        schema: { tags, summary, querystring: usersQuery, response: { 200: usersPage, 400: errorBody, 403: errorBody } },
      },
      async (request) => listUsers(db, requireUser(request), list, request.query),
    );
  }

  app.get(
    '/users/grant_options',
    {
      config: { capability: 'users.readPermissions' },
      schema: {
        tags,
        summary: 'What the caller may grant (§6) and the plants and ship-to-party numbers to choose from',
        response: { 200: grantOptions, 403: errorBody },
      },
    },
    async (request) => grantOptionsFor(db, requireUser(request)),
  );

  app.get(
    '/users/plant_options',
    {
      config: { capability: 'users.readPermissions' },
      schema: {
        tags,
        summary: 'Planner groups, work centers and storage locations of one plant, for the permission editor',
        querystring: plantOptionsQuery,
        response: { 200: plantOptions, 400: errorBody, 403: errorBody, 404: errorBody },
      },
    },
    async (request) => plantOptionsFor(db, requireUser(request), request.query.plant),
  );

  app.get(
    '/users/by_email',
    {
      config: { capability: 'users.readPermissions' },
      schema: {
        tags,
        summary: 'One user by e-mail address, for those who give PM rights to a colleague and list no users (§6)',
        querystring: userByEmailQuery,
        response: { 200: userRow, 400: errorBody, 403: errorBody, 404: errorBody },
      },
    },
    async (request) => findUserByEmail(db, requireUser(request), request.query.email),
  );

  app.get(
    '/users/:uid/permissions',
    {
      config: { capability: 'users.readPermissions' },
      schema: {
        tags,
        summary: 'A user’s grants and attachments, and what the caller may change of them',
        params: userIdParams,
        response: { 200: userPermissions, 400: errorBody, 403: errorBody, 404: errorBody },
      },
    },
    async (request, reply) => {
      const permissions = await readPermissions(db, requireUser(request), request.params.uid);
      // Their version: a PUT sending it back (If-Match) is refused if someone changed them since.
      reply.header('etag', permissionsTag(permissions));
      return permissions;
    },
  );

  app.put(
    '/users/:uid/permissions',
    {
      config: { capability: 'users.updatePermissions' },
      schema: {
        tags,
        summary:
          'Set a user’s grants and attachments (the whole wanted state); only the changes are checked against §6 — 403 names what is not allowed. With If-Match (the ETag of GET …/permissions), 412 when they changed since',
        params: userIdParams,
        body: updatePermissionsBody,
        response: { 200: userPermissions, 400: errorBody, 403: errorBody, 404: errorBody, 409: errorBody, 412: errorBody, 422: errorBody },
      },
    },
    async (request, reply) =>
      runMutation(db, request, reply, async (tx) => {
        const ifMatch = request.headers['if-match'];
        const body = await updatePermissions(tx, requireUser(request), request.params.uid, request.body, typeof ifMatch === 'string' ? ifMatch : undefined);
        reply.header('etag', permissionsTag(body));
        return { body };
      }),
  );

  app.put(
    '/users/:uid/expiration_date',
    {
      config: { capability: 'users.updateExpiration' },
      schema: {
        tags,
        summary:
          'Set (or clear with null) the last day a user’s account is valid. With If-Match (the date the form was opened with, as "YYYY-MM-DD" or "never"), 412 when it changed since',
        params: userIdParams,
        body: updateExpirationBody,
        response: { 200: userRow, 400: errorBody, 403: errorBody, 404: errorBody, 409: errorBody, 412: errorBody, 422: errorBody },
      },
    },
    async (request, reply) =>
      runMutation(db, request, reply, async (tx) => {
        const ifMatch = request.headers['if-match'];
        const body = await updateExpiration(tx, requireUser(request), request.params.uid, request.body.expirationDate, typeof ifMatch === 'string' ? ifMatch : undefined);
        reply.header('etag', expirationTag(body.expirationDate));
        return { body };
      }),
  );

  app.delete(
    '/users/:uid',
    {
      config: { capability: 'users.delete' },
      schema: {
        tags,
        summary: 'Remove a user (the browser asks for confirmation first)',
        params: userIdParams,
        response: { 200: removedUser, 400: errorBody, 403: errorBody, 404: errorBody, 409: errorBody, 422: errorBody },
      },
    },
    async (request, reply) =>
      runMutation(db, request, reply, async (tx) => ({ body: await removeUser(tx, requireUser(request), request.params.uid) })),
  );
};
