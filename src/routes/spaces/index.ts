// /v1/orgs/{organizationId}/spaces and /v1/spaces/{spaceId}: spaces and their life cycle.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  createSpace,
  deleteSpace,
  duplicateSpace,
  getSpace,
  listSpaces,
  listTrash,
  moveSpace,
  patchSpace,
  purgeSpaceNow,
  restoreSpace,
  transferSpace,
} from '../../services/spaces.ts';
import { IdParam, NoContent, OrganizationParams, PageQuery, errors, listOf } from '../schemas.ts';
import { DefaultLevelSchema, EditModeSchema, Emoji, MoveBody, SpaceSchema, SpaceTitle, VisibilitySchema } from './schemas.ts';

const SpaceParams = Type.Object({ spaceId: IdParam('The unique id of the space') });

export const spaceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;

  app.get(
    '/orgs/:organizationId/spaces',
    {
      schema: {
        tags: ['spaces'],
        operationId: 'listSpacesInOrganizationById',
        summary: 'List the spaces of an organization the caller can see, newest first',
        params: OrganizationParams,
        querystring: Type.Object(PageQuery),
        response: { 200: listOf(SpaceSchema), ...errors(404) },
      },
    },
    (request) => listSpaces(ctx, request.actor, request.params.organizationId, request.query),
  );

  app.post(
    '/orgs/:organizationId/spaces',
    {
      schema: {
        tags: ['spaces'],
        operationId: 'createSpace',
        summary: 'Create a space (needs the "create" role in the organization or the parent collection)',
        params: OrganizationParams,
        body: Type.Object({
          title: Type.Optional(SpaceTitle),
          emoji: Type.Optional(Emoji),
          parent: Type.Optional(IdParam('A parent collection')),
          editMode: Type.Optional(EditModeSchema),
          visibility: Type.Optional(VisibilitySchema),
          empty: Type.Optional(Type.Boolean({ description: 'Create a space with no page (every new space starts empty)' })),
        }),
        response: { 201: SpaceSchema, ...errors(403, 404) },
      },
    },
    async (request, reply) => {
      const space = await createSpace(ctx, request.actor, request.params.organizationId, request.body);
      return reply.code(201).header('location', space.urls.location).send(space);
    },
  );

  app.get(
    '/spaces/:spaceId',
    {
      config: { siteToken: true },
      schema: {
        tags: ['spaces'],
        operationId: 'getSpaceById',
        summary: 'Get a space',
        params: SpaceParams,
        querystring: Type.Object({
          shareKey: Type.Optional(Type.String({ maxLength: 200, description: 'Opens a share-link space to its holder' })),
        }),
        response: { 200: SpaceSchema, ...errors(404) },
      },
    },
    (request) => getSpace(ctx, request.actor, request.params.spaceId, request.query.shareKey),
  );

  app.patch(
    '/spaces/:spaceId',
    {
      schema: {
        tags: ['spaces'],
        operationId: 'updateSpaceById',
        summary: 'Change a space (space administrators)',
        params: SpaceParams,
        body: Type.Object({
          title: Type.Optional(SpaceTitle),
          emoji: Type.Optional(Type.Unsafe<string | null>({ type: 'string', maxLength: 50, format: 'emoji', nullable: true, description: 'An emoji ("🎉" or "1f389"), or null to remove it' })),
          editMode: Type.Optional(EditModeSchema),
          defaultLevel: Type.Optional(DefaultLevelSchema),
          visibility: Type.Optional(VisibilitySchema),
        }),
        response: { 200: SpaceSchema, ...errors(403, 404) },
      },
    },
    (request) => patchSpace(ctx, request.actor, request.params.spaceId, request.body),
  );

  app.delete(
    '/spaces/:spaceId',
    {
      schema: {
        tags: ['spaces'],
        operationId: 'deleteSpaceById',
        summary: 'Delete a space; it can be restored for 7 days, then it is purged',
        params: SpaceParams,
        response: { 204: NoContent, ...errors(403, 404) },
      },
    },
    async (request, reply) => {
      await deleteSpace(ctx, request.actor, request.params.spaceId);
      return reply.code(204).send();
    },
  );

  app.post(
    '/spaces/:spaceId/restore',
    {
      schema: {
        tags: ['spaces'],
        operationId: 'restoreSpace',
        summary: 'Restore a space deleted less than 7 days ago',
        params: SpaceParams,
        response: { 200: SpaceSchema, ...errors(403, 404) },
      },
    },
    (request) => restoreSpace(ctx, request.actor, request.params.spaceId),
  );

  app.get(
    '/orgs/:organizationId/trash',
    {
      schema: {
        tags: ['spaces'],
        operationId: 'listTrashInOrganizationById',
        summary: 'Quire: the deleted spaces of an organization the caller may restore or purge, most recently deleted first',
        params: OrganizationParams,
        querystring: Type.Object(PageQuery),
        response: { 200: listOf(SpaceSchema), ...errors(404) },
      },
    },
    (request) => listTrash(ctx, request.actor, request.params.organizationId, request.query),
  );

  app.post(
    '/spaces/:spaceId/purge',
    {
      schema: {
        tags: ['spaces'],
        operationId: 'purgeSpace',
        summary: 'Quire: purge a deleted space now, for good (whoever may delete it); a live space must be deleted first (409)',
        params: SpaceParams,
        response: { 204: NoContent, ...errors(403, 404, 409) },
      },
    },
    async (request, reply) => {
      await purgeSpaceNow(ctx, request.actor, request.params.spaceId);
      return reply.code(204).send();
    },
  );

  app.post(
    '/spaces/:spaceId/duplicate',
    {
      schema: {
        tags: ['spaces'],
        operationId: 'duplicateSpace',
        summary: 'Copy a space: a new space with the same content, placed right after it',
        params: SpaceParams,
        response: { 201: SpaceSchema, ...errors(403, 404) },
      },
    },
    async (request, reply) => {
      const space = await duplicateSpace(ctx, request.actor, request.params.spaceId);
      return reply.code(201).header('location', space.urls.location).send(space);
    },
  );

  app.post(
    '/spaces/:spaceId/move',
    {
      schema: {
        tags: ['spaces'],
        operationId: 'moveSpace',
        summary: 'Move a space into or out of a collection, or among its siblings',
        params: SpaceParams,
        body: MoveBody,
        response: { 200: SpaceSchema, ...errors(403, 404) },
      },
    },
    (request) => moveSpace(ctx, request.actor, request.params.spaceId, request.body),
  );

  app.post(
    '/spaces/:spaceId/transfer',
    {
      schema: {
        tags: ['spaces'],
        operationId: 'transferSpace',
        summary: 'Move a space to another organization (administrator of both), optionally into one of its collections',
        params: SpaceParams,
        body: Type.Object({
          organization: IdParam('The target organization'),
          collection: Type.Optional(IdParam('A collection of the target organization')),
        }),
        response: { 200: SpaceSchema, ...errors(403, 404) },
      },
    },
    (request) => transferSpace(ctx, request.actor, request.params.spaceId, request.body),
  );
};
