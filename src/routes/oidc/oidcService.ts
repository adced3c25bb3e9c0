// /sso/oidc/{providerId}/…: what a browser speaks to when signing in through an OpenID
// Connect provider, with no token yet: start (redirects to the provider) and callback
// (the provider's answer: opens a session and redirects into the app). Both answer the
// browser with redirects only; a failure goes to the app's sign-in page, which shows it.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { readCookie } from '../../lib/cookies.ts';
import { finishOidcSignIn, OIDC_REQUEST_LIFETIME_MS, signInFailure, startOidcSignIn } from '../../services/oidcSignIn.ts';
import { SESSION_COOKIE, sessionCookie } from '../../services/sessions.ts';
import type { ServiceContext } from '../../services/context.ts';
import { IdParam, LinkParam } from '../schemas.ts';

const ServiceParams = Type.Object({ providerId: IdParam('The unique id of the OpenID Connect provider') });
/** Binds a sign-in to the browser that started it, so nobody can finish their own sign-in in another's browser. */
const STATE_COOKIE = 'quire_oidc_state';

function stateCookie(ctx: ServiceContext, providerId: string, state: string | undefined): string {
  const secure = ctx.config.publicUrl.startsWith('https:') ? '; Secure' : '';
  const age = state === undefined ? 0 : OIDC_REQUEST_LIFETIME_MS / 1000;
  return `${STATE_COOKIE}=${state ?? ''}; Path=/sso/oidc/${providerId}/; Max-Age=${age}; HttpOnly; SameSite=Lax${secure}`;
}

function toSignInPage(ctx: ServiceContext, request: FastifyRequest, reply: FastifyReply, error: unknown) {
  const { message, unexpected } = signInFailure(error);
  if (unexpected) request.log.error({ err: error }, 'OpenID Connect sign-in failed');
  return reply.header('cache-control', 'no-store').redirect(`${ctx.config.publicUrl}/sign-in?error=${encodeURIComponent(message)}`, 303);
}

export const oidcServiceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;

  app.get('/sso/oidc/:providerId/start', { schema: { hide: true, params: ServiceParams, querystring: Type.Object({ link: LinkParam }) } }, async (request, reply) => {
    try {
      const linking = { secret: readCookie(request.headers.cookie, SESSION_COOKIE), proof: request.query.link };
      const { url, state } = await startOidcSignIn(ctx, request.params.providerId, linking);
      return reply
        .header('cache-control', 'no-store')
        .header('set-cookie', stateCookie(ctx, request.params.providerId, state))
        .redirect(url, 302);
    } catch (error) {
      return toSignInPage(ctx, request, reply, error);
    }
  });

  app.get(
    '/sso/oidc/:providerId/callback',
    // The query is read as it comes rather than validated by a schema, whose refusal would show the browser JSON.
    { schema: { hide: true, params: ServiceParams } },
    async (request, reply) => {
      const { providerId } = request.params;
      const query = Object.fromEntries(
        Object.entries(request.query as Record<string, unknown>).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
      );
      // The state cookie has served once it arrives, whatever the outcome.
      void reply.header('set-cookie', stateCookie(ctx, providerId, undefined));
      try {
        const { secret, organizationId } = await finishOidcSignIn(
          ctx,
          providerId,
          query,
          readCookie(request.headers.cookie, STATE_COOKIE),
          { userAgent: request.headers['user-agent'], address: request.ip },
        );
        return reply
          .header('cache-control', 'no-store')
          .header('set-cookie', sessionCookie(ctx, secret))
          .redirect(`${ctx.config.publicUrl}/o/${organizationId}/`, 303);
      } catch (error) {
        return toSignInPage(ctx, request, reply, error);
      }
    },
  );
};
