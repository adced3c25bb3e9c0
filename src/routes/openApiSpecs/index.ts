// /v1/orgs/{organizationId}/openapi: an organization's OpenAPI specs and their versions.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { BadRequest } from '../../errors.ts';
import {
  changeOpenApiSpecVisibility,
  getOpenApiSpec,
  getOpenApiSpecVersion,
  getOpenApiSpecVersionContent,
  listOpenApiSpecVersions,
  listOpenApiSpecs,
  OPENAPI_MAX_BYTES,
  removeOpenApiSpec,
  saveOpenApiSpec,
  type OpenApiSource,
} from '../../services/openApiSpecs.ts';
import { IdParam, NoContent, OrganizationIdParam, OrganizationParams, PageQuery, errors, listOf } from '../schemas.ts';
import { OpenApiSpecContentSchema, OpenApiSpecSchema, OpenApiSpecVersionSchema, SpecSlug, SpecSource } from './schemas.ts';

const SpecParams = Type.Object({ organizationId: OrganizationIdParam, specSlug: SpecSlug });
const VersionParams = Type.Object({
  organizationId: OrganizationIdParam,
  specSlug: SpecSlug,
  versionId: IdParam('The unique id of the version'),
});
/** A document of OPENAPI_MAX_BYTES, with room for its JSON escaping. */
const SOURCE_BODY_LIMIT = OPENAPI_MAX_BYTES * 2;

function exactlyOneSource(source: { url?: string; text?: string }): OpenApiSource {
  if (source.url !== undefined && source.text !== undefined) throw new BadRequest('source: give either url or text, not both');
  if (source.url !== undefined) return { url: source.url };
  if (source.text !== undefined) return { text: source.text };
  throw new BadRequest('source: give url (where Quire fetches the document) or text (the document itself)');
}

export const openApiSpecRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;

  app.get(
    '/orgs/:organizationId/openapi',
    {
      schema: {
        tags: ['openapi'],
        operationId: 'listOpenAPISpecs',
        summary: 'List the OpenAPI specs of an organization',
        params: OrganizationParams,
        querystring: Type.Object(PageQuery),
        response: { 200: listOf(OpenApiSpecSchema), ...errors(403, 404) },
      },
    },
    (request) => listOpenApiSpecs(ctx, request.actor, request.params.organizationId, request.query),
  );

  app.post(
    '/orgs/:organizationId/openapi',
    {
      bodyLimit: SOURCE_BODY_LIMIT,
      schema: {
        tags: ['openapi'],
        operationId: 'createOpenAPISpec',
        summary: 'Create an OpenAPI spec and start processing it (administrators)',
        params: OrganizationParams,
        body: Type.Object({ slug: SpecSlug, source: SpecSource }),
        response: { 201: OpenApiSpecSchema, ...errors(403, 404, 409, 413) },
      },
    },
    async (request, reply) => {
      const { slug, source } = request.body;
      const saved = await saveOpenApiSpec(ctx, request.actor, request.params.organizationId, slug, exactlyOneSource(source), 'create');
      return reply.code(201).send(saved.spec);
    },
  );

  app.get(
    '/orgs/:organizationId/openapi/:specSlug',
    {
      schema: {
        tags: ['openapi'],
        operationId: 'getOpenAPISpecBySlug',
        summary: 'Get an OpenAPI spec and the state of its processing',
        params: SpecParams,
        response: { 200: OpenApiSpecSchema, ...errors(403, 404) },
      },
    },
    (request) => getOpenApiSpec(ctx, request.actor, request.params.organizationId, request.params.specSlug),
  );

  app.put(
    '/orgs/:organizationId/openapi/:specSlug',
    {
      bodyLimit: SOURCE_BODY_LIMIT,
      schema: {
        tags: ['openapi'],
        operationId: 'createOrUpdateOpenAPISpecBySlug',
        summary: 'Create an OpenAPI spec or replace its source; the same source again changes nothing (administrators)',
        params: SpecParams,
        body: Type.Object({ source: SpecSource }),
        response: { 200: OpenApiSpecSchema, 201: OpenApiSpecSchema, ...errors(403, 404, 413) },
      },
    },
    async (request, reply) => {
      const { organizationId, specSlug } = request.params;
      const saved = await saveOpenApiSpec(ctx, request.actor, organizationId, specSlug, exactlyOneSource(request.body.source), 'upsert');
      return reply.code(saved.created ? 201 : 200).send(saved.spec);
    },
  );

  app.patch(
    '/orgs/:organizationId/openapi/:specSlug',
    {
      schema: {
        tags: ['openapi'],
        operationId: 'updateOpenAPISpecBySlug',
        summary: 'Change who may read an OpenAPI spec through its public URL (administrators)',
        params: SpecParams,
        body: Type.Object({ visibility: Type.Unsafe<'private' | 'public'>({ type: 'string', enum: ['private', 'public'] }) }),
        response: { 200: OpenApiSpecSchema, ...errors(403, 404) },
      },
    },
    (request) =>
      changeOpenApiSpecVisibility(ctx, request.actor, request.params.organizationId, request.params.specSlug, request.body.visibility),
  );

  app.delete(
    '/orgs/:organizationId/openapi/:specSlug',
    {
      schema: {
        tags: ['openapi'],
        operationId: 'deleteOpenAPISpecBySlug',
        summary: 'Delete an OpenAPI spec and its versions (administrators)',
        params: SpecParams,
        response: { 204: NoContent, ...errors(403, 404) },
      },
    },
    async (request, reply) => {
      await removeOpenApiSpec(ctx, request.actor, request.params.organizationId, request.params.specSlug);
      return reply.code(204).send();
    },
  );

  app.get(
    '/orgs/:organizationId/openapi/:specSlug/versions',
    {
      schema: {
        tags: ['openapi'],
        operationId: 'listOpenAPISpecVersions',
        summary: 'List the versions of an OpenAPI spec, newest first',
        params: SpecParams,
        querystring: Type.Object(PageQuery),
        response: { 200: listOf(OpenApiSpecVersionSchema), ...errors(403, 404) },
      },
    },
    (request) =>
      listOpenApiSpecVersions(ctx, request.actor, request.params.organizationId, request.params.specSlug, request.query),
  );

  app.get(
    '/orgs/:organizationId/openapi/:specSlug/versions/latest',
    {
      schema: {
        tags: ['openapi'],
        operationId: 'getLatestOpenAPISpecVersion',
        summary: 'Get the newest version of an OpenAPI spec',
        params: SpecParams,
        response: { 200: OpenApiSpecVersionSchema, ...errors(403, 404) },
      },
    },
    (request) => getOpenApiSpecVersion(ctx, request.actor, request.params.organizationId, request.params.specSlug, 'latest'),
  );

  app.get(
    '/orgs/:organizationId/openapi/:specSlug/versions/latest/content',
    {
      // GitBook's renderer reads the specs a published page's OpenAPI blocks show.
      config: { siteToken: true },
      schema: {
        tags: ['openapi'],
        operationId: 'getLatestOpenAPISpecVersionContent',
        summary: 'Get the document of the newest version',
        params: SpecParams,
        response: { 200: OpenApiSpecContentSchema, ...errors(403, 404) },
      },
    },
    (request) =>
      getOpenApiSpecVersionContent(ctx, request.actor, request.params.organizationId, request.params.specSlug, 'latest'),
  );

  app.get(
    '/orgs/:organizationId/openapi/:specSlug/versions/:versionId',
    {
      schema: {
        tags: ['openapi'],
        operationId: 'getOpenAPISpecVersionById',
        summary: 'Get one version of an OpenAPI spec',
        params: VersionParams,
        response: { 200: OpenApiSpecVersionSchema, ...errors(403, 404) },
      },
    },
    (request) => {
      const { organizationId, specSlug, versionId } = request.params;
      return getOpenApiSpecVersion(ctx, request.actor, organizationId, specSlug, versionId);
    },
  );

  app.get(
    '/orgs/:organizationId/openapi/:specSlug/versions/:versionId/content',
    {
      schema: {
        tags: ['openapi'],
        operationId: 'getOpenAPISpecVersionContentById',
        summary: 'Get the document of one version',
        params: VersionParams,
        response: { 200: OpenApiSpecContentSchema, ...errors(403, 404) },
      },
    },
    (request) => {
      const { organizationId, specSlug, versionId } = request.params;
      return getOpenApiSpecVersionContent(ctx, request.actor, organizationId, specSlug, versionId);
    },
  );
};
