// /v1/orgs/{organizationId}/oidc-providers: an organization's OpenID Connect providers.
// The browser endpoints of each provider (start, callback) are in oidcService.ts.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  changeOidcProvider,
  createOidcProvider,
  getOidcProvider,
  listOidcProviders,
  removeOidcProvider,
} from '../../services/oidcProviders.ts';
import { IdParam, NoContent, OrganizationIdParam, OrganizationParams, PageQuery, errors, listOf } from '../schemas.ts';
import { CreateOidcProviderBody, OidcProviderSchema, UpdateOidcProviderBody } from './schemas.ts';

const ProviderParams = Type.Object({
  organizationId: OrganizationIdParam,
  providerId: IdParam('The unique id of the OpenID Connect provider'),
});

export const oidcRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;

  app.get(
    '/orgs/:organizationId/oidc-providers',
    {
      schema: {
        tags: ['sso'],
        operationId: 'listOIDCProvidersInOrganizationById',
        summary: 'List the OpenID Connect providers of an organization (administrators)',
        params: OrganizationParams,
        querystring: Type.Object(PageQuery),
        response: { 200: listOf(OidcProviderSchema), ...errors(400, 403, 404) },
      },
    },
    (request) => listOidcProviders(ctx, request.actor, request.params.organizationId, request.query),
  );

  app.post(
    '/orgs/:organizationId/oidc-providers',
    {
      schema: {
        tags: ['sso'],
        operationId: 'createOrganizationOIDCProvider',
        summary: 'Add an OpenID Connect provider (administrators)',
        params: OrganizationParams,
        body: CreateOidcProviderBody,
        response: { 201: OidcProviderSchema, ...errors(400, 403, 404) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createOidcProvider(ctx, request.actor, request.params.organizationId, request.body)),
  );

  app.get(
    '/orgs/:organizationId/oidc-providers/:providerId',
    {
      schema: {
        tags: ['sso'],
        operationId: 'getOrganizationOIDCProviderById',
        summary: 'Get an OpenID Connect provider (administrators)',
        params: ProviderParams,
        response: { 200: OidcProviderSchema, ...errors(403, 404) },
      },
    },
    (request) => getOidcProvider(ctx, request.actor, request.params.organizationId, request.params.providerId),
  );

  app.patch(
    '/orgs/:organizationId/oidc-providers/:providerId',
    {
      schema: {
        tags: ['sso'],
        operationId: 'updateOrganizationOIDCProvider',
        summary: 'Change an OpenID Connect provider (administrators)',
        params: ProviderParams,
        body: UpdateOidcProviderBody,
        response: { 200: OidcProviderSchema, ...errors(400, 403, 404) },
      },
    },
    (request) =>
      changeOidcProvider(ctx, request.actor, request.params.organizationId, request.params.providerId, request.body),
  );

  app.delete(
    '/orgs/:organizationId/oidc-providers/:providerId',
    {
      schema: {
        tags: ['sso'],
        operationId: 'deleteOrganizationOIDCProvider',
        summary: 'Remove an OpenID Connect provider and end the sessions it opened (administrators)',
        params: ProviderParams,
        response: { 204: NoContent, ...errors(403, 404) },
      },
    },
    async (request, reply) => {
      await removeOidcProvider(ctx, request.actor, request.params.organizationId, request.params.providerId);
      return reply.code(204).send();
    },
  );
};
