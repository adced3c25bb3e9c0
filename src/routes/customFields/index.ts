// /v1/orgs/{organizationId}/custom-fields and /v1/spaces/{spaceId}/custom-fields.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CUSTOM_FIELD_TYPES,
  createCustomField,
  getCustomField,
  getSpaceCustomFields,
  listCustomFields,
  patchCustomField,
  patchSpaceCustomFields,
  removeCustomField,
  type CustomFieldType,
} from '../../services/customFields.ts';
import { IdParam, NoContent, OrganizationIdParam, OrganizationParams, PageQuery, errors, listOf } from '../schemas.ts';

const FieldName = Type.String({ minLength: 1, maxLength: 50, pattern: '^[a-z_\\-0-9]+$', description: 'Immutable key: a-z, 0-9, _ and -' });
const FieldParams = Type.Object({ organizationId: OrganizationIdParam, fieldName: FieldName });
const Title = Type.String({ maxLength: 100 });
const Description = Type.String({ maxLength: 200 });
const Placeholder = Type.String({ maxLength: 100 });
const Options = Type.Array(Type.String({ minLength: 1, maxLength: 40 }), { minItems: 1, maxItems: 50, description: 'Choices of a select field' });

const CustomFieldSchema = Type.Object({
  object: Type.Literal('custom-field'),
  id: Type.String(),
  name: Type.String(),
  type: Type.String(),
  title: Type.String(),
  description: Type.String(),
  placeholder: Type.String(),
  options: Type.Optional(Type.Array(Type.String())),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  urls: Type.Object({ location: Type.String() }),
});

const ValueSchema = Type.Unsafe<string | number | boolean | string[] | null>({
  anyOf: [
    { type: 'string', maxLength: 256 },
    { type: 'number' },
    { type: 'boolean' },
    { type: 'array', items: { type: 'string', maxLength: 256 }, maxItems: 1000 },
    { type: 'null' },
  ],
  description: 'A string (at most 256 characters), a number, a boolean or a list of strings; null clears the value',
});

export const customFieldRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;

  app.get(
    '/orgs/:organizationId/custom-fields',
    {
      schema: {
        tags: ['custom-fields'],
        operationId: 'listCustomFields',
        summary: 'List the custom fields of an organization',
        params: OrganizationParams,
        querystring: Type.Object(PageQuery),
        response: { 200: listOf(CustomFieldSchema), ...errors(404) },
      },
    },
    (request) => listCustomFields(ctx, request.actor, request.params.organizationId, request.query),
  );

  app.post(
    '/orgs/:organizationId/custom-fields',
    {
      schema: {
        tags: ['custom-fields'],
        operationId: 'createCustomField',
        summary: 'Define a custom field (administrators)',
        params: OrganizationParams,
        body: Type.Object({
          name: FieldName,
          type: Type.Unsafe<CustomFieldType>({ type: 'string', enum: [...CUSTOM_FIELD_TYPES] }),
          title: Type.Optional(Title),
          description: Type.Optional(Description),
          placeholder: Type.Optional(Placeholder),
          options: Type.Optional(Options),
        }),
        response: { 201: CustomFieldSchema, ...errors(403, 404, 409) },
      },
    },
    async (request, reply) => {
      const field = await createCustomField(ctx, request.actor, request.params.organizationId, request.body);
      return reply.code(201).header('location', field.urls.location).send(field);
    },
  );

  app.get(
    '/orgs/:organizationId/custom-fields/:fieldName',
    {
      schema: {
        tags: ['custom-fields'],
        operationId: 'getCustomField',
        summary: 'Get a custom field',
        params: FieldParams,
        response: { 200: CustomFieldSchema, ...errors(404) },
      },
    },
    (request) => getCustomField(ctx, request.actor, request.params.organizationId, request.params.fieldName),
  );

  app.patch(
    '/orgs/:organizationId/custom-fields/:fieldName',
    {
      schema: {
        tags: ['custom-fields'],
        operationId: 'updateCustomField',
        summary: 'Change a custom field (its name and type never change)',
        params: FieldParams,
        body: Type.Object({
          title: Type.Optional(Title),
          description: Type.Optional(Description),
          placeholder: Type.Optional(Placeholder),
          options: Type.Optional(Options),
        }),
        response: { 200: CustomFieldSchema, ...errors(403, 404) },
      },
    },
    (request) =>
      patchCustomField(ctx, request.actor, request.params.organizationId, request.params.fieldName, request.body),
  );

  app.delete(
    '/orgs/:organizationId/custom-fields/:fieldName',
    {
      schema: {
        tags: ['custom-fields'],
        operationId: 'deleteCustomField',
        summary: 'Delete a custom field and all its values',
        params: FieldParams,
        response: { 204: NoContent, ...errors(403, 404) },
      },
    },
    async (request, reply) => {
      await removeCustomField(ctx, request.actor, request.params.organizationId, request.params.fieldName);
      return reply.code(204).send();
    },
  );

  app.get(
    '/spaces/:spaceId/custom-fields',
    {
      schema: {
        tags: ['custom-fields'],
        operationId: 'getSpaceCustomFields',
        summary: "The organization's custom fields with this space's values",
        params: Type.Object({ spaceId: IdParam('The unique id of the space') }),
        response: {
          200: Type.Array(Type.Object({ customField: CustomFieldSchema, value: Type.Optional(Type.Unsafe({})) })),
          ...errors(404),
        },
      },
    },
    (request) => getSpaceCustomFields(ctx, request.actor, request.params.spaceId),
  );

  app.patch(
    '/spaces/:spaceId/custom-fields',
    {
      schema: {
        tags: ['custom-fields'],
        operationId: 'updateSpaceCustomFields',
        summary: 'Set custom field values on a space (editors); all or nothing',
        params: Type.Object({ spaceId: IdParam('The unique id of the space') }),
        body: Type.Object({
          values: Type.Record(FieldName, Type.Object({ value: ValueSchema }), { maxProperties: 100 }),
        }),
        response: { 204: NoContent, ...errors(403, 404) },
      },
    },
    async (request, reply) => {
      await patchSpaceCustomFields(ctx, request.actor, request.params.spaceId, request.body.values);
      return reply.code(204).send();
    },
  );
};
