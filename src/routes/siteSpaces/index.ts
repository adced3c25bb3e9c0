// /v1/orgs/{organizationId}/sites/{siteId}/site-spaces: the spaces a site shows.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { addSiteSpace, listSiteSpaces, moveSiteSpace, patchSiteSpace, removeSiteSpace } from '../../services/siteSpaces.ts';
import { IdParam, NoContent, OrganizationIdParam, PageQuery, errors, listOf } from '../schemas.ts';
import { NullableCondition, ReadCredentialsQuery, SiteParams, SiteSpaceSchema } from '../sites/schemas.ts';

const SiteSpaceParams = Type.Object({
  organizationId: OrganizationIdParam,
  siteId: IdParam('The unique id of the site'),
  siteSpaceId: IdParam('The unique id of the site space'),
});
const Pointer = Type.Object({ type: Type.Literal('site-space'), siteSpace: IdParam('A site space beside this one') });

export const siteSpaceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;

  app.get(
    '/orgs/:organizationId/sites/:siteId/site-spaces',
    {
      schema: {
        tags: ['sites'],
        operationId: 'listSiteSpaces',
        summary: 'List the site spaces of a site in reading order',
        params: SiteParams,
        querystring: Type.Object({
          ...PageQuery,
          ...ReadCredentialsQuery,
          default: Type.Optional(Type.Boolean({ description: 'true: only defaults; false: only the others' })),
        }),
        response: { 200: listOf(SiteSpaceSchema), ...errors(404) },
      },
    },
    (request) => listSiteSpaces(ctx, request.actor, request.params.organizationId, request.params.siteId, request.query),
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/site-spaces',
    {
      schema: {
        tags: ['sites'],
        operationId: 'addSpaceToSite',
        summary: 'Show a space on a site: in the given section, else the default section, else at the root',
        params: SiteParams,
        body: Type.Object({ spaceId: IdParam('A space of the organization'), sectionId: Type.Optional(IdParam('A section of the site')) }),
        response: { 201: SiteSpaceSchema, ...errors(403, 404) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await addSiteSpace(ctx, request.actor, request.params.organizationId, request.params.siteId, request.body)),
  );

  app.patch(
    '/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId',
    {
      schema: {
        tags: ['sites'],
        operationId: 'updateSiteSpaceById',
        summary: "Change a site space's path or condition",
        params: SiteSpaceParams,
        body: Type.Object({ path: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })), condition: Type.Optional(NullableCondition) }),
        response: { 200: SiteSpaceSchema, ...errors(403, 404, 409) },
      },
    },
    (request) => {
      const { organizationId, siteId, siteSpaceId } = request.params;
      return patchSiteSpace(ctx, request.actor, organizationId, siteId, siteSpaceId, request.body);
    },
  );

  app.delete(
    '/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId',
    {
      schema: {
        tags: ['sites'],
        operationId: 'deleteSiteSpaceById',
        summary: 'Stop showing a space on a site (the space stays)',
        params: SiteSpaceParams,
        response: { 204: NoContent, ...errors(403, 404) },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteSpaceId } = request.params;
      await removeSiteSpace(ctx, request.actor, organizationId, siteId, siteSpaceId);
      return reply.code(204).send();
    },
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId/move',
    {
      schema: {
        tags: ['sites'],
        operationId: 'moveSiteSpace',
        summary: 'Move a site space beside another of its section (or the root)',
        params: SiteSpaceParams,
        body: Type.Optional(
          Type.Object({ position: Type.Optional(Type.Object({ before: Type.Optional(Pointer), after: Type.Optional(Pointer) })) }),
        ),
        response: { 200: SiteSpaceSchema, ...errors(403, 404) },
      },
    },
    (request) => {
      const { organizationId, siteId, siteSpaceId } = request.params;
      return moveSiteSpace(ctx, request.actor, organizationId, siteId, siteSpaceId, request.body?.position);
    },
  );
};
