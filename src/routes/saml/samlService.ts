// /sso/saml/{samlProviderId}/…: what a browser and an identity provider speak to, with
// no API token: start (redirects to the identity provider), acs (receives its signed
// response and answers with an API token) and metadata (Quire's service description).
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { finishSamlSignIn, samlServiceMetadata, startSamlSignIn } from '../../services/saml.ts';
import { IdParam } from '../schemas.ts';

const ServiceParams = Type.Object({ samlProviderId: IdParam('The unique id of the SAML provider') });
/** An HTML form post carries the SAML response and at most a little state. */
const FORM_LIMIT = 1024 * 1024;

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
        querystring: Type.Object({ RelayState: Type.Optional(Type.String({ maxLength: 80 })) }),
      },
    },
    async (request, reply) =>
      reply.redirect(await startSamlSignIn(ctx, request.params.samlProviderId, request.query.RelayState), 302),
  );

  app.post(
    '/sso/saml/:samlProviderId/acs',
    { schema: { hide: true, params: ServiceParams, body: Type.Record(Type.String(), Type.String()) } },
    async (request, reply) =>
      reply.header('cache-control', 'no-store').send(await finishSamlSignIn(ctx, request.params.samlProviderId, request.body)),
  );

  app.get('/sso/saml/:samlProviderId/metadata', { schema: { hide: true, params: ServiceParams } }, async (request, reply) =>
    reply.header('content-type', 'application/samlmetadata+xml').send(await samlServiceMetadata(ctx, request.params.samlProviderId)),
  );
};
