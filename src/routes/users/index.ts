// /v1/user and /v1/users/{userId}: people.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { getCurrentUser, getUser } from '../../services/users.ts';
import { IdParam, UserSchema, errors } from '../schemas.ts';

export const userRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;

  app.get(
    '/user',
    {
      schema: {
        tags: ['users'],
        operationId: 'getAuthenticatedUser',
        summary: 'Get the caller',
        response: { 200: UserSchema, ...errors() },
      },
    },
    (request) => getCurrentUser(ctx, request.actor),
  );

  app.get(
    '/users/:userId',
    {
      schema: {
        tags: ['users'],
        operationId: 'getUserById',
        summary: 'Get a user who shares an organization with the caller',
        params: Type.Object({ userId: IdParam('The unique id of the user') }),
        response: { 200: UserSchema, ...errors(404) },
      },
    },
    (request) => getUser(ctx, request.actor, request.params.userId),
  );
};
