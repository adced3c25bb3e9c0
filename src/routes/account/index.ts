// /v1/user/sessions, /v1/user/tokens and /v1/user/password: the caller's own sign-ins,
// personal API tokens and password (the app's account page), by cookie or token.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { changePassword, createToken, listSessions, listTokens, revokeSession, revokeToken } from '../../services/account.ts';
import { IdParam, NoContent, errors } from '../schemas.ts';
import { ApiTokenSchema, CreatedApiTokenSchema, Password, SessionListSchema, TokenScope } from '../auth/schemas.ts';

const TAGS = ['users'];

export const accountRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;

  app.get(
    '/user/sessions',
    {
      schema: {
        tags: TAGS,
        operationId: 'listOwnSessions',
        summary: "The caller's signed-in browsers",
        response: { 200: SessionListSchema, ...errors() },
      },
    },
    (request) => listSessions(ctx, request.actor),
  );

  app.delete(
    '/user/sessions/:sessionId',
    {
      schema: {
        tags: TAGS,
        operationId: 'revokeOwnSession',
        summary: 'Sign one of your browsers out',
        params: Type.Object({ sessionId: IdParam('The session id') }),
        response: { 204: NoContent, ...errors(404) },
      },
    },
    async (request, reply) => {
      await revokeSession(ctx, request.actor, request.params.sessionId);
      return reply.code(204).send();
    },
  );

  app.get(
    '/user/tokens',
    {
      schema: {
        tags: TAGS,
        operationId: 'listOwnApiTokens',
        summary: "The caller's personal API tokens (never their secrets)",
        response: { 200: Type.Object({ items: Type.Array(ApiTokenSchema) }), ...errors() },
      },
    },
    (request) => listTokens(ctx, request.actor),
  );

  app.post(
    '/user/tokens',
    {
      schema: {
        tags: TAGS,
        operationId: 'createOwnApiToken',
        summary: 'Create a personal API token: its secret is in this answer only',
        body: Type.Object({
          label: Type.String({ minLength: 1, maxLength: 100, description: 'A name, to know the token by' }),
          scope: TokenScope,
        }),
        response: { 201: CreatedApiTokenSchema, ...errors() },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createToken(ctx, request.actor, { label: request.body.label, scope: request.body.scope as 'read' | 'write' })),
  );

  app.delete(
    '/user/tokens/:tokenId',
    {
      schema: {
        tags: TAGS,
        operationId: 'revokeOwnApiToken',
        summary: 'Revoke one of your API tokens: it stops working at once',
        params: Type.Object({ tokenId: IdParam('The API token id') }),
        response: { 204: NoContent, ...errors(404) },
      },
    },
    async (request, reply) => {
      await revokeToken(ctx, request.actor, request.params.tokenId);
      return reply.code(204).send();
    },
  );

  app.put(
    '/user/password',
    {
      schema: {
        tags: TAGS,
        operationId: 'setOwnPassword',
        summary: "Set the caller's password (the current one is needed when one is set); other sessions end",
        body: Type.Object({
          currentPassword: Type.Optional(Password),
          password: Password,
        }),
        response: { 204: NoContent, ...errors(403) },
      },
    },
    async (request, reply) => {
      await changePassword(ctx, request.actor, request.body);
      return reply.code(204).send();
    },
  );
};
