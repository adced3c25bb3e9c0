// /v1/integrations: publishing integrations and installing them on organizations and
// spaces. Icons and preview images are served by integrationAssets.ts.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  changeInstallation,
  changeSpaceInstallation,
  getInstallation,
  getSpaceInstallation,
  installIntegration,
  installOnSpace,
  listInstallations,
  listOrganizationInstallations,
  listSpaceInstallations,
  uninstallFromSpace,
  uninstallIntegration,
  changeSiteInstallation,
  getSiteInstallation,
  installOnSite,
  listSiteInstallations,
  uninstallFromSite,
} from '../../services/integrationInstallations.ts';
import { getIntegration, listIntegrations, publishIntegration, unpublishIntegration } from '../../services/integrations.ts';
import { listIntegrationEvents, queueIntegrationTask } from '../../services/integrationEvents.ts';
import { IdParam, NoContent, OrganizationParams, PageQuery, errors, listOf } from '../schemas.ts';
import {
  Category,
  InstallationSchema,
  IntegrationEventSchema,
  IntegrationName,
  IntegrationSchema,
  PublishIntegrationBody,
  SiteInstallationSchema,
  SpaceInstallationSchema,
  UpdateInstallationBody,
  UpdateContentInstallationBody,
} from './schemas.ts';

const NameParams = Type.Object({ integrationName: IntegrationName });
const InstallationParams = Type.Object({ integrationName: IntegrationName, installationId: IdParam('The unique id of the installation') });
const SpaceInstallationParams = Type.Object({
  integrationName: IntegrationName,
  installationId: IdParam('The unique id of the installation'),
  spaceId: IdParam('The unique id of the space'),
});
const SiteInstallationParams = Type.Object({
  integrationName: IntegrationName,
  installationId: IdParam('The unique id of the installation'),
  siteId: IdParam('The unique id of the site'),
});
const ExtendedQuery = Type.Object({
  extended: Type.Optional(Type.Boolean({ default: false, description: 'Answer the space (or site) object instead of its id' })),
});
/** Three preview images and an icon of 2 MB each, in base64, and the script. */
const PUBLISH_BODY_LIMIT = 20 * 1024 * 1024;

export const integrationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;

  app.get(
    '/integrations',
    {
      schema: {
        tags: ['integrations'],
        operationId: 'listIntegrations',
        summary: 'List integrations: public ones, and those of your organizations',
        querystring: Type.Object({
          ...PageQuery,
          search: Type.Optional(Type.String({ maxLength: 256, description: 'Part of the name, title or description' })),
          category: Type.Optional(Category),
          blockDomain: Type.Optional(Type.String({ maxLength: 100, pattern: '^[a-zA-Z0-9-_.]+$', description: 'Only integrations whose blocks unfurl links of this domain' })),
          blocks: Type.Optional(Type.Boolean({ description: 'Only integrations with (true) or without (false) blocks' })),
          contentSources: Type.Optional(Type.Boolean({ description: 'Only integrations with (true) or without (false) content sources' })),
          owner: Type.Optional(IdParam('Only integrations of this organization')),
        }),
        response: { 200: listOf(IntegrationSchema) },
      },
    },
    (request) => listIntegrations(ctx, request.actor, request.query),
  );

  app.get(
    '/integrations/:integrationName',
    {
      schema: {
        tags: ['integrations'],
        operationId: 'getIntegrationByName',
        summary: 'Get an integration',
        params: NameParams,
        response: { 200: IntegrationSchema, ...errors(404) },
      },
    },
    (request) => getIntegration(ctx, request.actor, request.params.integrationName),
  );

  app.post(
    '/integrations/:integrationName',
    {
      bodyLimit: PUBLISH_BODY_LIMIT,
      schema: {
        tags: ['integrations'],
        operationId: 'publishIntegration',
        summary: "Publish an integration, or a new version of it (the organization's administrators)",
        params: NameParams,
        body: PublishIntegrationBody,
        response: { 200: IntegrationSchema, ...errors(403, 404, 409, 413) },
      },
    },
    (request) => publishIntegration(ctx, request.actor, request.params.integrationName, request.body),
  );

  app.delete(
    '/integrations/:integrationName',
    {
      schema: {
        tags: ['integrations'],
        operationId: 'unpublishIntegration',
        summary: 'Unpublish an integration and remove its installations (its administrators)',
        params: NameParams,
        response: { 204: NoContent, ...errors(403, 404) },
      },
    },
    async (request, reply) => {
      await unpublishIntegration(ctx, request.actor, request.params.integrationName);
      return reply.code(204).send();
    },
  );

  app.get(
    '/orgs/:organizationId/installations',
    {
      schema: {
        tags: ['integrations'],
        operationId: 'listOrganizationInstallations',
        summary: "List what is installed in an organization, each installation with its integration (the organization's administrators)",
        params: OrganizationParams,
        querystring: Type.Object(PageQuery),
        response: {
          200: listOf(
            Type.Object(
              { installation: InstallationSchema, integration: IntegrationSchema },
              { description: 'An installation in the organization, with the integration it installs' },
            ),
          ),
          ...errors(403, 404),
        },
      },
    },
    (request) => listOrganizationInstallations(ctx, request.actor, request.params.organizationId, request.query),
  );

  app.get(
    '/integrations/:integrationName/installations',
    {
      schema: {
        tags: ['integrations'],
        operationId: 'listIntegrationInstallations',
        summary: "List where an integration is installed (its owner's administrators)",
        params: NameParams,
        querystring: Type.Object({
          ...PageQuery,
          externalId: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'Only installations with this external id' })),
        }),
        response: { 200: listOf(InstallationSchema), ...errors(403, 404) },
      },
    },
    (request) => listInstallations(ctx, request.actor, request.params.integrationName, request.query),
  );

  app.post(
    '/integrations/:integrationName/tasks',
    {
      schema: {
        tags: ['integrations'],
        operationId: 'queueIntegrationTask',
        summary: "Queue work for an integration's own script, delivered back to it as a task event (its installation's token)",
        params: NameParams,
        body: Type.Object({
          task: Type.Record(Type.String(), Type.Unknown(), { description: 'Payload of the task, given back as it is' }),
          schedule: Type.Optional(Type.Number({ minimum: 0, maximum: 86_400, description: 'Seconds to wait before running it (default 0)' })),
        }),
        response: { 204: NoContent, ...errors(400, 404) },
      },
    },
    async (request, reply) => {
      await queueIntegrationTask(ctx, request.actor, request.params.integrationName, request.body);
      return reply.code(204).send();
    },
  );

  app.get(
    '/integrations/:integrationName/events',
    {
      schema: {
        tags: ['integrations'],
        operationId: 'listIntegrationEvents',
        summary: "An integration's event deliveries, newest first: all of them for its owner's administrators, an organization's own for that organization's administrators",
        params: NameParams,
        querystring: Type.Object({ ...PageQuery, installationId: Type.Optional(IdParam('Only the deliveries to this installation')) }),
        response: { 200: listOf(IntegrationEventSchema), ...errors(403, 404) },
      },
    },
    (request) => listIntegrationEvents(ctx, request.actor, request.params.integrationName, request.query),
  );

  app.post(
    '/integrations/:integrationName/installations',
    {
      schema: {
        tags: ['integrations'],
        operationId: 'installIntegration',
        summary: 'Install an integration on an organization (its administrators)',
        params: NameParams,
        body: Type.Object({ organization: Type.String({ minLength: 1, maxLength: 100, description: 'Organization id or subdomain' }) }),
        response: { 201: InstallationSchema, ...errors(403, 404, 409) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await installIntegration(ctx, request.actor, request.params.integrationName, request.body)),
  );

  app.get(
    '/integrations/:integrationName/installations/:installationId',
    {
      schema: {
        tags: ['integrations'],
        operationId: 'getIntegrationInstallationById',
        summary: 'Get an installation',
        params: InstallationParams,
        response: { 200: InstallationSchema, ...errors(403, 404) },
      },
    },
    (request) => getInstallation(ctx, request.actor, request.params.integrationName, request.params.installationId),
  );

  app.patch(
    '/integrations/:integrationName/installations/:installationId',
    {
      schema: {
        tags: ['integrations'],
        operationId: 'updateIntegrationInstallation',
        summary: 'Change the settings of an installation (administrators of its organization)',
        params: InstallationParams,
        body: UpdateInstallationBody,
        response: { 200: InstallationSchema, ...errors(403, 404) },
      },
    },
    (request) =>
      changeInstallation(ctx, request.actor, request.params.integrationName, request.params.installationId, request.body),
  );

  app.delete(
    '/integrations/:integrationName/installations/:installationId',
    {
      schema: {
        tags: ['integrations'],
        operationId: 'uninstallIntegration',
        summary: 'Uninstall an integration from an organization (its administrators)',
        params: InstallationParams,
        response: { 204: NoContent, ...errors(403, 404) },
      },
    },
    async (request, reply) => {
      await uninstallIntegration(ctx, request.actor, request.params.integrationName, request.params.installationId);
      return reply.code(204).send();
    },
  );

  app.get(
    '/integrations/:integrationName/installations/:installationId/spaces',
    {
      schema: {
        tags: ['integrations'],
        operationId: 'listIntegrationInstallationSpaces',
        summary: 'List the spaces an installation is installed on',
        params: InstallationParams,
        querystring: Type.Object({ ...PageQuery, ...ExtendedQuery.properties }),
        response: { 200: listOf(SpaceInstallationSchema), ...errors(403, 404) },
      },
    },
    (request) =>
      listSpaceInstallations(ctx, request.actor, request.params.integrationName, request.params.installationId, request.query),
  );

  app.post(
    '/integrations/:integrationName/installations/:installationId/spaces',
    {
      schema: {
        tags: ['integrations'],
        operationId: 'installIntegrationOnSpace',
        summary: "Install on one of the organization's spaces (administrators of the organization and the space)",
        params: InstallationParams,
        querystring: ExtendedQuery,
        body: Type.Object({ space: IdParam('The space to install on') }),
        response: { 201: SpaceInstallationSchema, ...errors(403, 404, 409) },
      },
    },
    async (request, reply) => {
      const { integrationName, installationId } = request.params;
      const installed = await installOnSpace(ctx, request.actor, integrationName, installationId, request.body.space, request.query.extended ?? false);
      return reply.code(201).send(installed);
    },
  );

  app.get(
    '/integrations/:integrationName/installations/:installationId/spaces/:spaceId',
    {
      schema: {
        tags: ['integrations'],
        operationId: 'getIntegrationSpaceInstallation',
        summary: 'Get the installation on one space',
        params: SpaceInstallationParams,
        querystring: ExtendedQuery,
        response: { 200: SpaceInstallationSchema, ...errors(403, 404) },
      },
    },
    (request) => {
      const { integrationName, installationId, spaceId } = request.params;
      return getSpaceInstallation(ctx, request.actor, integrationName, installationId, spaceId, request.query.extended ?? false);
    },
  );

  app.patch(
    '/integrations/:integrationName/installations/:installationId/spaces/:spaceId',
    {
      schema: {
        tags: ['integrations'],
        operationId: 'updateIntegrationSpaceInstallation',
        summary: 'Change the settings of the installation on one space',
        params: SpaceInstallationParams,
        querystring: ExtendedQuery,
        body: UpdateContentInstallationBody,
        response: { 200: SpaceInstallationSchema, ...errors(403, 404) },
      },
    },
    (request) => {
      const { integrationName, installationId, spaceId } = request.params;
      return changeSpaceInstallation(ctx, request.actor, integrationName, installationId, spaceId, {
        ...request.body,
        extended: request.query.extended ?? false,
      });
    },
  );

  app.delete(
    '/integrations/:integrationName/installations/:installationId/spaces/:spaceId',
    {
      schema: {
        tags: ['integrations'],
        operationId: 'uninstallIntegrationFromSpace',
        summary: 'Uninstall from one space',
        params: SpaceInstallationParams,
        response: { 204: NoContent, ...errors(403, 404) },
      },
    },
    async (request, reply) => {
      const { integrationName, installationId, spaceId } = request.params;
      await uninstallFromSpace(ctx, request.actor, integrationName, installationId, spaceId);
      return reply.code(204).send();
    },
  );

  app.get(
    '/integrations/:integrationName/installations/:installationId/sites',
    {
      schema: {
        tags: ['integrations'],
        operationId: 'listIntegrationInstallationSites',
        summary: 'List the sites an installation is installed on',
        params: InstallationParams,
        querystring: Type.Object({ ...PageQuery, ...ExtendedQuery.properties }),
        response: { 200: listOf(SiteInstallationSchema), ...errors(403, 404) },
      },
    },
    (request) => listSiteInstallations(ctx, request.actor, request.params.integrationName, request.params.installationId, request.query),
  );

  app.post(
    '/integrations/:integrationName/installations/:installationId/sites',
    {
      schema: {
        tags: ['integrations'],
        operationId: 'installIntegrationOnSite',
        summary: "Install on one of the organization's sites (administrators of the organization who may manage the site)",
        params: InstallationParams,
        querystring: ExtendedQuery,
        body: Type.Object({ siteId: IdParam('The site to install on') }),
        response: { 201: SiteInstallationSchema, ...errors(400, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const { integrationName, installationId } = request.params;
      const installed = await installOnSite(ctx, request.actor, integrationName, installationId, request.body.siteId, request.query.extended ?? false);
      return reply.code(201).send(installed);
    },
  );

  app.get(
    '/integrations/:integrationName/installations/:installationId/sites/:siteId',
    {
      schema: {
        tags: ['integrations'],
        operationId: 'getIntegrationSiteInstallation',
        summary: 'Get the installation on one site',
        params: SiteInstallationParams,
        querystring: ExtendedQuery,
        response: { 200: SiteInstallationSchema, ...errors(403, 404) },
      },
    },
    (request) => {
      const { integrationName, installationId, siteId } = request.params;
      return getSiteInstallation(ctx, request.actor, integrationName, installationId, siteId, request.query.extended ?? false);
    },
  );

  app.patch(
    '/integrations/:integrationName/installations/:installationId/sites/:siteId',
    {
      schema: {
        tags: ['integrations'],
        operationId: 'updateIntegrationSiteInstallation',
        summary: 'Change the settings of the installation on one site',
        params: SiteInstallationParams,
        querystring: ExtendedQuery,
        body: UpdateContentInstallationBody,
        response: { 200: SiteInstallationSchema, ...errors(400, 403, 404) },
      },
    },
    (request) => {
      const { integrationName, installationId, siteId } = request.params;
      return changeSiteInstallation(ctx, request.actor, integrationName, installationId, siteId, { ...request.body, extended: request.query.extended ?? false });
    },
  );

  app.delete(
    '/integrations/:integrationName/installations/:installationId/sites/:siteId',
    {
      schema: {
        tags: ['integrations'],
        operationId: 'uninstallIntegrationFromSite',
        summary: 'Uninstall from one site',
        params: SiteInstallationParams,
        response: { 204: NoContent, ...errors(403, 404) },
      },
    },
    async (request, reply) => {
      const { integrationName, installationId, siteId } = request.params;
      await uninstallFromSite(ctx, request.actor, integrationName, installationId, siteId);
      return reply.code(204).send();
    },
  );
};
