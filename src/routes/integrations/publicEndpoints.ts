// /v1/integrations/{name}/fetch/*, …/installations/{installationId}/fetch/* and
// …/installations/{installationId}/sites/{siteId}/fetch/*: the public endpoints of an
// integration, of its installations and of their site installations, as GitBook exposes
// them for webhooks and sign-in callbacks from other services. Any method, any body, no
// token: the request goes into the script as a `fetch` event and the script's answer
// (a redirect included) comes back. And under …/sites/{siteId}/: script.js, the script
// a published site's pages load, and visitor-auth, where a visitor of a site its
// integration signs in starts; a reader's browser asks for both without a token.
// Outside the token-checked /v1 routes on purpose.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { fetchIntoIntegration, fetchPublishedScript, fetchVisitorAuthentication, PUBLISHED_SCRIPT_SECONDS } from '../../services/integrationEvents.ts';
import type { ScriptAnswer } from '../../sandbox/sandbox.ts';
import { SandboxRefused } from '../../sandbox/sandbox.ts';
import { AppError } from '../../errors.ts';
import { IdParam } from '../schemas.ts';
import { IntegrationName } from './schemas.ts';

/** A script that cannot run, or that fails, is the failure of the service behind Quire: 502, as a gateway answers. */
async function fromScript<Answer>(run: () => Promise<Answer>): Promise<Answer> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof SandboxRefused) throw new AppError(502, error.message);
    throw error;
  }
}

/** The script's answer as the reader's: its status, type, body and, for a redirect, where it sends them. */
function sendAnswer(reply: FastifyReply, answer: ScriptAnswer) {
  if (answer.contentType) void reply.header('content-type', answer.contentType);
  if (answer.location) void reply.header('location', answer.location);
  return reply.code(answer.status).send(answer.body);
}

export const integrationFetchRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;
  // The body goes to the script as it came: no parsing here.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  const endpoints = [
    '/v1/integrations/:integrationName/fetch',
    '/v1/integrations/:integrationName/installations/:installationId/fetch',
    '/v1/integrations/:integrationName/installations/:installationId/sites/:siteId/fetch',
  ];
  for (const url of endpoints.flatMap((endpoint) => [endpoint, `${endpoint}/*`])) app.route({
    method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url,
    schema: {
      hide: true,
      params: Type.Object({ integrationName: IntegrationName, installationId: Type.Optional(IdParam('The installation')), siteId: Type.Optional(IdParam('The site')), '*': Type.Optional(Type.String()) }),
    },
    handler: async (request, reply) => {
      const headers = Object.fromEntries(Object.entries(request.headers).flatMap(([name, value]) => (value === undefined || name === 'authorization' ? [] : [[name, String(value)]])));
      const answer = await fromScript(() =>
        fetchIntoIntegration(ctx, request.params.integrationName, request.params.installationId, {
          method: request.method,
          url: `${ctx.config.publicUrl}${request.url}`,
          headers,
          body: Buffer.isBuffer(request.body) ? request.body : undefined,
        }, request.params.siteId),
      );
      return sendAnswer(reply, answer);
    },
  });

  app.get(
    '/v1/integrations/:integrationName/installations/:installationId/sites/:siteId/visitor-auth',
    {
      schema: {
        hide: true,
        params: Type.Object({ integrationName: IntegrationName, installationId: IdParam('The installation'), siteId: IdParam('The site') }),
        // The page the visitor asked for, which the sign-in comes back to.
        querystring: Type.Object({ location: Type.Optional(Type.String({ maxLength: 2048, pattern: '^/' })) }),
      },
    },
    async (request, reply) => {
      const { integrationName, installationId, siteId } = request.params;
      const answer = await fromScript(() => fetchVisitorAuthentication(ctx, integrationName, installationId, siteId, request.query.location ?? '/'));
      return sendAnswer(reply.header('cache-control', 'no-store'), answer);
    },
  );

  app.get(
    '/v1/integrations/:integrationName/installations/:installationId/sites/:siteId/script.js',
    {
      schema: {
        hide: true,
        params: Type.Object({ integrationName: IntegrationName, installationId: IdParam('The installation'), siteId: IdParam('The site') }),
        // The integration's version, which the script's URL carries so that browsers load a new publication anew.
        querystring: Type.Object({ v: Type.Optional(Type.String({ maxLength: 20 })) }),
      },
    },
    async (request, reply) => {
      const { integrationName, installationId, siteId } = request.params;
      const body = await fromScript(() => fetchPublishedScript(ctx, integrationName, installationId, siteId));
      return reply
        // Served as script whatever the integration's script said it was: opened as a page of Quire's origin, it neither renders nor runs.
        .header('content-type', 'text/javascript; charset=utf-8')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', `public, max-age=${PUBLISHED_SCRIPT_SECONDS}`)
        .send(body);
    },
  );
};
