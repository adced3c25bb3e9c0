// /v1/orgs/{organizationId}/saml and /sso: an organization's SAML identity providers.
// The browser endpoints of each provider (start, ACS, metadata) are in samlService.ts.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  changeSamlProvider,
  createSamlProvider,
  getSamlProvider,
  listSamlProviders,
  listSsoLogins,
  removeSamlProvider,
} from '../../services/saml.ts';
import { IdParam, NoContent, OrganizationIdParam, OrganizationParams, PageQuery, errors, listOf } from '../schemas.ts';
import { CreateSamlProviderBody, SamlProviderSchema, SsoLoginsSchema, UpdateSamlProviderBody } from './schemas.ts';

const ProviderParams = Type.Object({
  organizationId: OrganizationIdParam,
  samlProviderId: IdParam('The unique id of the SAML provider'),
});

export const samlRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;

  app.get(
    '/orgs/:organizationId/saml',
    {
      schema: {
        tags: ['sso'],
        operationId: 'listSAMLProvidersInOrganizationById',
        summary: 'List the SAML providers of an organization (administrators)',
        params: OrganizationParams,
        querystring: Type.Object(PageQuery),
        response: { 200: listOf(SamlProviderSchema), ...errors(403, 404) },
      },
    },
    (request) => listSamlProviders(ctx, request.actor, request.params.organizationId, request.query),
  );

  app.post(
    '/orgs/:organizationId/saml',
    {
      schema: {
        tags: ['sso'],
        operationId: 'createOrganizationSAMLProvider',
        summary: 'Add a SAML provider (administrators)',
        params: OrganizationParams,
        body: CreateSamlProviderBody,
        response: { 201: SamlProviderSchema, ...errors(403, 404) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createSamlProvider(ctx, request.actor, request.params.organizationId, request.body)),
  );

  app.get(
    '/orgs/:organizationId/saml/:samlProviderId',
    {
      schema: {
        tags: ['sso'],
        operationId: 'getOrganizationSAMLProviderById',
        summary: 'Get a SAML provider (administrators)',
        params: ProviderParams,
        response: { 200: SamlProviderSchema, ...errors(403, 404) },
      },
    },
    (request) => getSamlProvider(ctx, request.actor, request.params.organizationId, request.params.samlProviderId),
  );

  app.patch(
    '/orgs/:organizationId/saml/:samlProviderId',
    {
      schema: {
        tags: ['sso'],
        operationId: 'updateOrganizationSAMLProvider',
        summary: 'Change a SAML provider (administrators)',
        params: ProviderParams,
        body: UpdateSamlProviderBody,
        response: { 200: SamlProviderSchema, ...errors(403, 404) },
      },
    },
    (request) =>
      changeSamlProvider(ctx, request.actor, request.params.organizationId, request.params.samlProviderId, request.body),
  );

  app.delete(
    '/orgs/:organizationId/saml/:samlProviderId',
    {
      schema: {
        tags: ['sso'],
        operationId: 'deleteOrganizationSAMLProvider',
        summary: 'Remove a SAML provider and revoke the tokens it issued (administrators)',
        params: ProviderParams,
        response: { 204: NoContent, ...errors(403, 404) },
      },
    },
    async (request, reply) => {
      await removeSamlProvider(ctx, request.actor, request.params.organizationId, request.params.samlProviderId);
      return reply.code(204).send();
    },
  );

  app.get(
    '/orgs/:organizationId/sso',
    {
      schema: {
        tags: ['sso'],
        operationId: 'listSSOProviderLoginsInOrganization',
        summary: 'The sign-in choices of an organization, for a login page',
        params: OrganizationParams,
        response: { 200: SsoLoginsSchema, ...errors(404) },
      },
    },
    (request) => listSsoLogins(ctx, request.actor, request.params.organizationId),
  );
};
