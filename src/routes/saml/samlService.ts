// /sso/saml/{samlProviderId}/…: what a browser and an identity provider speak to, with
// no API token: start (redirects to the identity provider), acs (receives its signed
// response and answers with an API token, or for a browser opens an app session and
// goes to the organization in the app, a refusal to the app's sign-in page, which shows
// it) and metadata (Quire's service description).
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { readCookie } from '../../lib/cookies.ts';
import { signInFailure } from '../../services/oidcSignIn.ts';
import { finishSamlSignIn, samlServiceMetadata, startSamlSignIn } from '../../services/saml.ts';
import { SESSION_COOKIE, sessionCookie } from '../../services/sessions.ts';
import { IdParam, LinkParam } from '../schemas.ts';

const ServiceParams = Type.Object({ samlProviderId: IdParam('The unique id of the SAML provider') });
/** An HTML form post carries the SAML response and at most a little state. */
const FORM_LIMIT = 1024 * 1024;

/** A browser names text/html in Accept; API clients name JSON or send any type. */
function asksForHtml(accept: string | undefined): boolean {
  return /(^|,)\s*text\/html\s*(;|,|$)/i.test(accept ?? '');
}

export const samlServiceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_LIMIT },
    (_request, body: string, done) => done(null, Object.fromEntries(new URLSearchParams(body))),
  );

  app.get(
    '/sso/saml/:samlProviderId/start',
    {
      schema: {
        hide: true,
        params: ServiceParams,
        querystring: Type.Object({ RelayState: Type.Optional(Type.String({ maxLength: 80 })), link: LinkParam }),
      },
    },
    async (request, reply) =>
      reply
        .header('cache-control', 'no-store')
        .redirect(await startSamlSignIn(ctx, request.params.samlProviderId, request.query.RelayState, { secret: readCookie(request.headers.cookie, SESSION_COOKIE), proof: request.query.link }), 302),
  );

  app.post(
    '/sso/saml/:samlProviderId/acs',
    { schema: { hide: true, params: ServiceParams, body: Type.Record(Type.String(), Type.String()) } },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      // A browser posting the identity provider's form signs in to the app; an API client gets a token.
      if (asksForHtml(request.headers.accept)) {
        const browser = { userAgent: request.headers['user-agent'], address: request.ip };
        try {
          const { organization, secret } = await finishSamlSignIn(ctx, request.params.samlProviderId, request.body, browser);
          return reply.header('set-cookie', sessionCookie(ctx, secret)).redirect(`/o/${organization}/`, 303);
        } catch (error) {
          const { message, unexpected } = signInFailure(error);
          if (unexpected) request.log.error({ err: error }, 'SAML sign-in failed');
          return reply.redirect(`${ctx.config.publicUrl}/sign-in?error=${encodeURIComponent(message)}`, 303);
        }
      }
      return reply.send(await finishSamlSignIn(ctx, request.params.samlProviderId, request.body));
    },
  );

  app.get('/sso/saml/:samlProviderId/metadata', { schema: { hide: true, params: ServiceParams } }, async (request, reply) =>
    reply.header('content-type', 'application/samlmetadata+xml').send(await samlServiceMetadata(ctx, request.params.samlProviderId)),
  );
};
