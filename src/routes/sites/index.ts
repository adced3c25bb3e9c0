// /v1/orgs/{organizationId}/sites: sites, publishing, customization, adaptive
// content, structure and share links.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  SITE_TYPES,
  createShareLink,
  createSite,
  getAdaptiveSchema,
  getCustomization,
  getPublished,
  getPublishingAuth,
  regeneratePublishingAuth,
  updatePublishingAuth,
  getSite,
  getStructure,
  listShareLinks,
  listSites,
  patchShareLink,
  patchSite,
  putAdaptiveSchema,
  putCustomization,
  removeShareLink,
  removeSite,
  setPublished,
} from '../../services/sites.ts';
import { IdParam, NoContent, OrganizationIdParam, OrganizationParams, PageQuery, errors, listOf } from '../schemas.ts';
import {
  AdaptiveSchemaSchema,
  AnyObject,
  CustomizationBody,
  PublishingAuthSchema,
  PublishingAuthUpdateBody,
  ReadCredentialsQuery,
  ShareLinkSchema,
  SiteParams,
  SiteSchema,
  SiteTitle,
  SiteVisibilitySchema,
  StructureSchema,
} from './schemas.ts';

const SiteType = Type.Unsafe<string>({ type: 'string', enum: [...SITE_TYPES], description: 'The kind of site; basic by default' });
const ShareLinkParams = Type.Object({
  organizationId: OrganizationIdParam,
  siteId: IdParam('The unique id of the site'),
  shareLinkId: IdParam('The unique id of the share link'),
});
const ShareLinkName = Type.String({ minLength: 1, maxLength: 100 });

export const siteRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;

  app.get(
    '/orgs/:organizationId/sites',
    {
      schema: {
        tags: ['sites'],
        operationId: 'listSites',
        summary: 'List the sites of an organization, newest first',
        params: OrganizationParams,
        querystring: Type.Object({
          ...PageQuery,
          space: Type.Optional(IdParam('Only sites showing this space')),
          title: Type.Optional(Type.String({ maxLength: 128, description: 'Case-insensitive part of the title' })),
          published: Type.Optional(Type.Boolean()),
          type: Type.Optional(Type.Array(SiteType, { maxItems: 10 })),
        }),
        response: { 200: listOf(SiteSchema), ...errors(404) },
      },
    },
    (request) => listSites(ctx, request.actor, request.params.organizationId, request.query),
  );

  app.post(
    '/orgs/:organizationId/sites',
    {
      schema: {
        tags: ['sites'],
        operationId: 'createSite',
        summary: 'Create a site (members with the create role or higher)',
        params: OrganizationParams,
        body: Type.Object({
          type: Type.Optional(SiteType),
          title: SiteTitle,
          visibility: Type.Optional(SiteVisibilitySchema),
          spaces: Type.Optional(
            Type.Array(
              Type.Union([
                IdParam('A space of the organization to add'),
                Type.Object({ title: Type.Optional(Type.String({ maxLength: 50 })) }, { description: 'Create a new space for the site' }),
              ]),
              { maxItems: 100 },
            ),
          ),
        }),
        response: { 201: SiteSchema, ...errors(403, 404) },
      },
    },
    async (request, reply) => {
      const site = await createSite(ctx, request.actor, request.params.organizationId, request.body);
      return reply.code(201).header('location', site.urls.location).send(site);
    },
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId',
    {
      schema: { tags: ['sites'], operationId: 'getSiteById', summary: 'Get a site', params: SiteParams, response: { 200: SiteSchema, ...errors(404) } },
    },
    (request) => getSite(ctx, request.actor, request.params.organizationId, request.params.siteId),
  );

  app.patch(
    '/orgs/:organizationId/sites/:siteId',
    {
      schema: {
        tags: ['sites'],
        operationId: 'updateSiteById',
        summary: 'Change a site',
        params: SiteParams,
        body: Type.Object({
          title: Type.Optional(SiteTitle),
          visibility: Type.Optional(SiteVisibilitySchema),
          basename: Type.Optional(Type.Unsafe<string | null>({ type: 'string', minLength: 1, maxLength: 100, nullable: true })),
          hostname: Type.Optional(
            Type.Unsafe<string | null>({
              type: 'string',
              maxLength: 512,
              pattern: '^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$',
              nullable: true,
              description: 'A custom hostname such as docs.example.com',
            }),
          ),
          adaptiveContent: Type.Optional(Type.Object({ enabled: Type.Boolean() })),
          defaultSiteSpace: Type.Optional(IdParam('The site space to make default')),
          defaultSiteSection: Type.Optional(IdParam('The section to make default')),
          proxy: Type.Optional(
            Type.Unsafe<string | null>({ type: 'string', minLength: 1, maxLength: 2048, nullable: true, description: 'The URL the site is served at through a proxy, or null' }),
          ),
        }),
        response: { 200: SiteSchema, ...errors(403, 404, 409) },
      },
    },
    (request) => patchSite(ctx, request.actor, request.params.organizationId, request.params.siteId, request.body),
  );

  app.delete(
    '/orgs/:organizationId/sites/:siteId',
    {
      schema: {
        tags: ['sites'],
        operationId: 'deleteSiteById',
        summary: 'Delete a site with its sections, groups, site spaces and share links (never the spaces)',
        params: SiteParams,
        response: { 204: NoContent, ...errors(403, 404) },
      },
    },
    async (request, reply) => {
      await removeSite(ctx, request.actor, request.params.organizationId, request.params.siteId);
      return reply.code(204).send();
    },
  );

  for (const [action, published] of [['publish', true], ['unpublish', false]] as const) {
    app.post(
      `/orgs/:organizationId/sites/:siteId/${action}`,
      {
        schema: {
          tags: ['sites'],
          operationId: `${action}Site`,
          summary: published ? 'Publish a site to the audience its visibility defines' : 'Take a site offline',
          params: SiteParams,
          response: { 200: SiteSchema, ...errors(403, 404) },
        },
      },
      (request) => setPublished(ctx, request.actor, request.params.organizationId, request.params.siteId, published),
    );
  }

  app.get(
    '/orgs/:organizationId/sites/:siteId/structure',
    {
      schema: {
        tags: ['sites'],
        operationId: 'getSiteStructure',
        summary: 'The sections (or site spaces) of a site, in order',
        params: SiteParams,
        querystring: Type.Object(ReadCredentialsQuery),
        response: { 200: StructureSchema, ...errors(404) },
      },
    },
    (request) => getStructure(ctx, request.actor, request.params.organizationId, request.params.siteId, request.query),
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId/published',
    {
      config: { siteToken: true },
      schema: {
        tags: ['sites'],
        operationId: 'getPublishedContentSite',
        summary: 'The published profile of a site: site, structure and customizations',
        params: SiteParams,
        querystring: Type.Object(ReadCredentialsQuery),
        response: {
          200: Type.Object({
            object: Type.Literal('published-content-site'),
            site: SiteSchema,
            structure: StructureSchema,
            customizations: Type.Object({ site: AnyObject, siteSpaces: Type.Record(Type.String(), AnyObject, { description: 'By site-space id' }) }),
            scripts: Type.Array(Type.Object({ script: Type.String(), contentSecurityPolicy: Type.Optional(Type.String()), cookies: Type.Boolean() })),
          }),
          ...errors(404),
        },
      },
    },
    (request) => getPublished(ctx, request.actor, request.params.organizationId, request.params.siteId, request.query),
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId/customization',
    {
      schema: {
        tags: ['sites'],
        operationId: 'getSiteCustomizationById',
        summary: "A site's customization, with defaults for every field",
        params: SiteParams,
        response: { 200: AnyObject, ...errors(404) },
      },
    },
    (request) => getCustomization(ctx, request.actor, request.params.organizationId, request.params.siteId),
  );

  app.put(
    '/orgs/:organizationId/sites/:siteId/customization',
    {
      schema: {
        tags: ['sites'],
        operationId: 'updateSiteCustomizationById',
        summary: "Replace a site's customization settings",
        params: SiteParams,
        body: CustomizationBody,
        response: { 200: AnyObject, ...errors(403, 404) },
      },
    },
    (request) => putCustomization(ctx, request.actor, request.params.organizationId, request.params.siteId, request.body),
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId/adaptive-schema',
    {
      schema: {
        tags: ['sites'],
        operationId: 'getSiteAdaptiveSchema',
        summary: 'The JSON Schema of the visitor claims adaptive content reads',
        params: SiteParams,
        response: { 200: AdaptiveSchemaSchema, ...errors(404) },
      },
    },
    (request) => getAdaptiveSchema(ctx, request.actor, request.params.organizationId, request.params.siteId),
  );

  app.put(
    '/orgs/:organizationId/sites/:siteId/adaptive-schema',
    {
      schema: {
        tags: ['sites'],
        operationId: 'updateSiteAdaptiveSchema',
        summary: 'Set the adaptive schema: a draft-07 object schema whose properties are described booleans',
        params: SiteParams,
        body: Type.Object({ jsonSchema: AnyObject }),
        response: { 200: AdaptiveSchemaSchema, ...errors(403, 404) },
      },
    },
    (request) =>
      putAdaptiveSchema(ctx, request.actor, request.params.organizationId, request.params.siteId, request.body.jsonSchema),
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId/publishing/auth',
    {
      schema: {
        tags: ['sites'],
        operationId: 'getSitePublishingAuthById',
        summary: 'The key that signs visitor-authentication tokens (HS256) for this site, and where visitors are sent',
        params: SiteParams,
        response: { 200: PublishingAuthSchema, ...errors(403, 404) },
      },
    },
    (request) => getPublishingAuth(ctx, request.actor, request.params.organizationId, request.params.siteId),
  );

  app.patch(
    '/orgs/:organizationId/sites/:siteId/publishing/auth',
    {
      schema: {
        tags: ['sites'],
        operationId: 'updateSitePublishingAuthById',
        summary: 'Set where visitors without a valid token are sent, and the sign-out the site links to',
        params: SiteParams,
        body: PublishingAuthUpdateBody,
        response: { 200: PublishingAuthSchema, ...errors(400, 403, 404) },
      },
    },
    (request) => updatePublishingAuth(ctx, request.actor, request.params.organizationId, request.params.siteId, request.body),
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/publishing/auth/regenerate',
    {
      schema: {
        tags: ['sites'],
        operationId: 'regenerateSitePublishingAuthById',
        summary: 'Make a new key for visitor tokens: every token signed with the old one is refused from now on',
        params: SiteParams,
        response: { 200: PublishingAuthSchema, ...errors(403, 404) },
      },
    },
    (request) => regeneratePublishingAuth(ctx, request.actor, request.params.organizationId, request.params.siteId),
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId/share-links',
    {
      schema: {
        tags: ['sites'],
        operationId: 'listSiteShareLinks',
        summary: 'List the share links of a site',
        params: SiteParams,
        querystring: Type.Object(PageQuery),
        response: { 200: listOf(ShareLinkSchema), ...errors(403, 404) },
      },
    },
    (request) => listShareLinks(ctx, request.actor, request.params.organizationId, request.params.siteId, request.query),
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/share-links',
    {
      schema: {
        tags: ['sites'],
        operationId: 'createSiteShareLink',
        summary: 'Create a share link: its key opens a published share-link site',
        params: SiteParams,
        body: Type.Object({ name: ShareLinkName }),
        response: { 201: ShareLinkSchema, ...errors(403, 404) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createShareLink(ctx, request.actor, request.params.organizationId, request.params.siteId, request.body.name)),
  );

  app.patch(
    '/orgs/:organizationId/sites/:siteId/share-links/:shareLinkId',
    {
      schema: {
        tags: ['sites'],
        operationId: 'updateSiteShareLinkById',
        summary: 'Rename a share link, or turn it off and on',
        params: ShareLinkParams,
        body: Type.Object({ name: Type.Optional(ShareLinkName), active: Type.Optional(Type.Boolean()) }, { minProperties: 1 }),
        response: { 200: ShareLinkSchema, ...errors(403, 404) },
      },
    },
    (request) =>
      patchShareLink(ctx, request.actor, request.params.organizationId, request.params.siteId, request.params.shareLinkId, request.body),
  );

  app.delete(
    '/orgs/:organizationId/sites/:siteId/share-links/:shareLinkId',
    {
      schema: {
        tags: ['sites'],
        operationId: 'deleteSiteShareLinkById',
        summary: 'Delete a share link; its key stops working at once',
        params: ShareLinkParams,
        response: { 204: NoContent, ...errors(403, 404) },
      },
    },
    async (request, reply) => {
      await removeShareLink(ctx, request.actor, request.params.organizationId, request.params.siteId, request.params.shareLinkId);
      return reply.code(204).send();
    },
  );
};
