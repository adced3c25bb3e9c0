// /auth/*: signing in to the app (issue 73). Outside /v1 and open to anyone: each
// operation proves who the caller is itself (a password, a one-time link, an invite)
// and answers with a session in the quire_session cookie. Sign-out needs the session's
// CSRF token, so no other site can end it.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { readCookie } from '../../lib/cookies.ts';
import { clearedSessionCookie, SESSION_COOKIE, sessionCookie, type SessionClient } from '../../services/sessions.ts';
import { acceptInvite, authState, previewInvite, setUp, signIn, signInWithLink, signOut, ssoChoices } from '../../services/signIn.ts';
import { IdParam, NoContent, OrganizationIdParam, errors } from '../schemas.ts';
import { OrganizationSchema } from '../organizations/schemas.ts';
import { AuthStateSchema, Email, InvitePreviewSchema, Password, PersonName, SignedInSchema, SsoChoicesSchema, SessionSchema } from './schemas.ts';

const TAGS = ['sign-in'];
/** These operations take no API token: each is its own proof. */
const OPEN: Array<Record<string, string[]>> = [];
const InviteParams = Type.Object({ organizationId: OrganizationIdParam, inviteId: IdParam('The invite id, which is its secret') });

function clientOf(request: FastifyRequest): SessionClient {
  return { userAgent: request.headers['user-agent'], address: request.ip };
}

function sessionSecretOf(request: FastifyRequest): string | undefined {
  return readCookie(request.headers.cookie, SESSION_COOKIE);
}

export const signInRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;
  // Sessions and CSRF tokens are never kept by a cache between the browser and Quire.
  app.addHook('onSend', async (_request, reply) => {
    void reply.header('cache-control', 'no-store');
  });
  const signedIn = (reply: FastifyReply, code: number, result: { secret: string; body: unknown }) =>
    reply.code(code).header('set-cookie', sessionCookie(ctx, result.secret)).send(result.body);

  app.get(
    '/auth/state',
    {
      schema: {
        tags: TAGS,
        security: OPEN,
        operationId: 'getSignInState',
        summary: "Whether the server needs setting up, and the session cookie's session (with its CSRF token)",
        response: { 200: AuthStateSchema, ...errors() },
      },
    },
    (request) => authState(ctx, sessionSecretOf(request)),
  );

  app.post(
    '/auth/setup',
    {
      schema: {
        tags: TAGS,
        security: OPEN,
        operationId: 'setUpServer',
        summary: 'Create the first organization and its administrator, signed in (only while the server has no organization)',
        body: Type.Object({
          organization: Type.String({ minLength: 2, maxLength: 255, description: 'The name of the organization' }),
          name: PersonName,
          email: Email,
          password: Password,
        }),
        response: { 201: Type.Object({ session: SessionSchema, organization: OrganizationSchema }), ...errors(409) },
      },
    },
    async (request, reply) => signedIn(reply, 201, await setUp(ctx, request.body, clientOf(request))),
  );

  app.post(
    '/auth/sign-in',
    {
      schema: {
        tags: TAGS,
        security: OPEN,
        operationId: 'signIn',
        summary: 'Sign in with e-mail and password (5 failures per account, 20 per address, in 15 minutes)',
        body: Type.Object({ email: Email, password: Password }),
        response: { 200: SignedInSchema, ...errors(403, 429) },
      },
    },
    async (request, reply) => signedIn(reply, 200, await signIn(ctx, request.body, clientOf(request))),
  );

  app.post(
    '/auth/sign-out',
    {
      schema: {
        tags: TAGS,
        security: OPEN,
        operationId: 'signOut',
        summary: "End the cookie's session (with its X-CSRF-Token) and clear the cookie",
        response: { 204: NoContent, ...errors(403) },
      },
    },
    async (request, reply) => {
      const csrf = request.headers['x-csrf-token'];
      await signOut(ctx, sessionSecretOf(request), Array.isArray(csrf) ? csrf[0] : csrf);
      return reply.code(204).header('set-cookie', clearedSessionCookie(ctx)).send();
    },
  );

  app.post(
    '/auth/sign-in-link',
    {
      schema: {
        tags: TAGS,
        security: OPEN,
        operationId: 'signInWithLink',
        summary: 'Sign in with a one-time link (an hour, one use); with a password, set it (a reset)',
        body: Type.Object({
          token: Type.String({ minLength: 1, maxLength: 200, description: 'The last part of the link /sign-in/link/<token>' }),
          password: Type.Optional(Password),
        }),
        response: { 200: SignedInSchema, ...errors() },
      },
    },
    async (request, reply) => signedIn(reply, 200, await signInWithLink(ctx, request.body, clientOf(request))),
  );

  app.get(
    '/auth/invites/:organizationId/:inviteId',
    {
      schema: {
        tags: TAGS,
        security: OPEN,
        operationId: 'getInvitePreview',
        summary: 'What an invite joins, for its page: 404 when unknown, revoked or expired',
        params: InviteParams,
        response: { 200: InvitePreviewSchema, ...errors(403, 404) },
      },
    },
    (request) => previewInvite(ctx, request.params.organizationId, request.params.inviteId),
  );

  app.post(
    '/auth/invites/:organizationId/:inviteId/accept',
    {
      schema: {
        tags: TAGS,
        security: OPEN,
        operationId: 'acceptInviteAsNewPerson',
        summary: "Join with an invite as a new person, signed in; an address with an account signs in and joins with joinOrganizationWithInvite",
        params: InviteParams,
        body: Type.Object({ name: PersonName, email: Email, password: Password }),
        response: { 201: SignedInSchema, ...errors(403, 404, 409) },
      },
    },
    async (request, reply) =>
      signedIn(reply, 201, await acceptInvite(ctx, request.params.organizationId, request.params.inviteId, request.body, clientOf(request))),
  );

  app.get(
    '/auth/sso',
    {
      schema: {
        tags: TAGS,
        security: OPEN,
        operationId: 'listSsoChoices',
        summary: "The single sign-on providers of organizations whose e-mail domains include the address's",
        querystring: Type.Object({ email: Email }),
        response: { 200: SsoChoicesSchema, ...errors() },
      },
    },
    (request) => ssoChoices(ctx, request.query.email),
  );
};
