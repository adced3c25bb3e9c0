// /v1/orgs/{organizationId}/sites/{siteId}/redirects: paths of a published site that
// send readers elsewhere on it; /redirect?source= resolves one, as GitBook's renderer asks.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  createSiteRedirect,
  deleteSiteRedirect,
  listSiteRedirects,
  resolveSiteRedirect,
  updateSiteRedirect,
} from '../../services/siteRedirects.ts';
import { IdParam, NoContent, OrganizationIdParam, PageQuery, errors, listOf } from '../schemas.ts';
import { ReadCredentialsQuery, SiteParams } from '../sites/schemas.ts';

const RedirectParams = Type.Object({
  organizationId: OrganizationIdParam,
  siteId: IdParam('The unique id of the site'),
  siteRedirectId: IdParam('The unique id of the redirect'),
});

const Source = Type.String({
  maxLength: 512,
  pattern: '^\\/(?:[A-Za-z0-9\\-._~]|%[0-9A-Fa-f]{2})+(?:\\/(?:[A-Za-z0-9\\-._~]|%[0-9A-Fa-f]{2})+)*$',
  description: "A path under the site's published URL, such as /old/page: letters, digits, - . _ ~ and %-escapes",
});

const Destination = Type.Union([
  Type.Object({ kind: Type.Literal('site-section'), siteSectionId: IdParam('A section of the site') }),
  Type.Object({ kind: Type.Literal('site-space'), siteSpaceId: IdParam('A site space of the site') }),
  Type.Object({ kind: Type.Literal('site-page'), siteSpaceId: IdParam('A site space of the site'), pageId: IdParam('A page of its published content') }),
]);

const SiteRedirectSchema = Type.Object({
  object: Type.Literal('site-redirect'),
  id: Type.String(),
  source: Type.String(),
  draft: Type.Boolean({ description: 'Always false: a redirect is live as made' }),
  captureWildcard: Type.Boolean({ description: 'Always false: the source matches exactly' }),
  permanent: Type.Boolean({ description: 'Always false: readers are sent on with 307, as the redirect can change' }),
  destination: Destination,
  createdAt: Type.String({ format: 'date-time' }),
});

export const siteRedirectRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;

  app.get(
    '/orgs/:organizationId/sites/:siteId/redirects',
    {
      schema: {
        tags: ['sites'],
        operationId: 'listSiteRedirects',
        summary: "List a site's redirects, newest first",
        params: SiteParams,
        querystring: Type.Object({ ...PageQuery, search: Type.Optional(Type.String({ maxLength: 512, description: 'Only redirects whose source holds this text' })) }),
        response: { 200: listOf(SiteRedirectSchema), ...errors(403, 404) },
      },
    },
    (request) => listSiteRedirects(ctx, request.actor, request.params.organizationId, request.params.siteId, request.query),
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/redirects',
    {
      schema: {
        tags: ['sites'],
        operationId: 'createSiteRedirect',
        summary: 'Send readers of a path to a section, site space or page of the site',
        params: SiteParams,
        body: Type.Object({ source: Source, destination: Destination }),
        response: { 201: SiteRedirectSchema, ...errors(400, 403, 404, 409) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createSiteRedirect(ctx, request.actor, request.params.organizationId, request.params.siteId, request.body)),
  );

  app.patch(
    '/orgs/:organizationId/sites/:siteId/redirects/:siteRedirectId',
    {
      schema: {
        tags: ['sites'],
        operationId: 'updateSiteRedirectById',
        summary: "Change a redirect's source or destination",
        params: RedirectParams,
        body: Type.Object({ source: Type.Optional(Source), destination: Type.Optional(Destination) }),
        response: { 200: SiteRedirectSchema, ...errors(400, 403, 404, 409) },
      },
    },
    (request) => {
      const { organizationId, siteId, siteRedirectId } = request.params;
      return updateSiteRedirect(ctx, request.actor, organizationId, siteId, siteRedirectId, request.body);
    },
  );

  app.delete(
    '/orgs/:organizationId/sites/:siteId/redirects/:siteRedirectId',
    {
      schema: {
        tags: ['sites'],
        operationId: 'deleteSiteRedirectById',
        summary: 'Delete a redirect: 205 when it was deleted, 204 when there was none',
        params: RedirectParams,
        response: { 204: NoContent, 205: NoContent, ...errors(403, 404) },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteRedirectId } = request.params;
      const deleted = await deleteSiteRedirect(ctx, request.actor, organizationId, siteId, siteRedirectId);
      return reply.code(deleted ? 205 : 204).send();
    },
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId/redirect',
    {
      config: { siteToken: true },
      schema: {
        tags: ['sites'],
        operationId: 'getSiteRedirectBySource',
        summary: 'The redirect from a source path and the published URL it leads to',
        params: SiteParams,
        querystring: Type.Object({ source: Source, ...ReadCredentialsQuery }),
        response: { 200: Type.Object({ redirect: SiteRedirectSchema, target: Type.String() }), ...errors(400, 404) },
      },
    },
    (request) => {
      const { source, ...credentials } = request.query;
      return resolveSiteRedirect(ctx, request.actor, request.params.organizationId, request.params.siteId, source, credentials);
    },
  );
};
