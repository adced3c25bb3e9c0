// /v1/orgs and /v1/email-domains: organizations of the caller.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  createOrganization,
  getOrganization,
  listOrganizations,
  listOrganizationsForEmailDomain,
  patchOrganization,
} from '../../services/organizations.ts';
import { DOMAIN_NAME_PATTERN } from '../../lib/domains.ts';
import { OrganizationParams, PageQuery, errors, listOf } from '../schemas.ts';
import { CreateOrganizationBody, OrganizationSchema, UpdateOrganizationBody } from './schemas.ts';


export const organizationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;

  app.get(
    '/orgs',
    {
      schema: {
        tags: ['organizations'],
        operationId: 'listOrganizationsForAuthenticatedUser',
        summary: 'List the organizations of the caller',
        querystring: Type.Object(PageQuery),
        response: { 200: listOf(OrganizationSchema), ...errors() },
      },
    },
    (request) => listOrganizations(ctx, request.actor, request.query),
  );

  app.post(
    '/orgs',
    {
      schema: {
        tags: ['organizations'],
        operationId: 'createOrganization',
        summary: 'Create an organization; the caller becomes its administrator',
        body: CreateOrganizationBody,
        response: { 201: OrganizationSchema, ...errors() },
      },
    },
    async (request, reply) => {
      const organization = await createOrganization(ctx, request.actor, request.body);
      return reply.code(201).header('location', organization.urls.location).send(organization);
    },
  );

  app.get(
    '/orgs/:organizationId',
    {
      schema: {
        tags: ['organizations'],
        operationId: 'getOrganizationById',
        summary: 'Get an organization',
        params: OrganizationParams,
        response: { 200: OrganizationSchema, ...errors(404) },
      },
    },
    (request) => getOrganization(ctx, request.actor, request.params.organizationId),
  );

  app.patch(
    '/orgs/:organizationId',
    {
      schema: {
        tags: ['organizations'],
        operationId: 'updateOrganizationById',
        summary: 'Change an organization (administrators)',
        params: OrganizationParams,
        body: UpdateOrganizationBody,
        response: { 200: OrganizationSchema, ...errors(403, 404, 409) },
      },
    },
    (request) => patchOrganization(ctx, request.actor, request.params.organizationId, request.body),
  );

  app.get(
    '/email-domains/:emailDomain/orgs',
    {
      schema: {
        tags: ['organizations'],
        operationId: 'getOrganizationsForEmailDomain',
        summary: 'Organizations claiming an e-mail domain that the caller may join or is in',
        params: Type.Object({
          emailDomain: Type.String({ pattern: DOMAIN_NAME_PATTERN, description: 'A domain name such as example.com' }),
        }),
        response: { 200: Type.Object({ organizations: Type.Array(OrganizationSchema) }), ...errors() },
      },
    },
    (request) => listOrganizationsForEmailDomain(ctx, request.actor, request.params.emailDomain),
  );
};
