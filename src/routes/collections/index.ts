// /v1/orgs/{organizationId}/collections and /v1/collections/{collectionId}.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  createCollection,
  deleteCollection,
  getCollection,
  listCollections,
  listSpacesInCollection,
  moveCollection,
  patchCollection,
  transferCollection,
} from '../../services/collections.ts';
import { IdParam, NoContent, OrganizationParams, PageQuery, errors, listOf } from '../schemas.ts';
import { CollectionSchema, DefaultLevelSchema, MoveBody, SpaceSchema } from '../spaces/schemas.ts';

const CollectionParams = Type.Object({ collectionId: IdParam('The unique id of the collection') });
const CollectionTitle = Type.String({ maxLength: 50, description: 'Title of the collection' });

export const collectionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;

  app.get(
    '/orgs/:organizationId/collections',
    {
      schema: {
        tags: ['collections'],
        operationId: 'listCollectionsInOrganizationById',
        summary: 'List collections in position order',
        params: OrganizationParams,
        querystring: Type.Object({
          ...PageQuery,
          nested: Type.Optional(Type.Boolean({ default: true, description: 'false: only top-level collections' })),
        }),
        response: { 200: listOf(CollectionSchema), ...errors(404) },
      },
    },
    (request) => listCollections(ctx, request.actor, request.params.organizationId, request.query),
  );

  app.post(
    '/orgs/:organizationId/collections',
    {
      schema: {
        tags: ['collections'],
        operationId: 'createCollection',
        summary: 'Create a collection at the end of its parent',
        params: OrganizationParams,
        body: Type.Object({ title: Type.Optional(CollectionTitle), parent: Type.Optional(IdParam('A parent collection')) }),
        response: { 201: CollectionSchema, ...errors(403, 404) },
      },
    },
    async (request, reply) => {
      const collection = await createCollection(ctx, request.actor, request.params.organizationId, request.body);
      return reply.code(201).header('location', collection.urls.location).send(collection);
    },
  );

  app.get(
    '/collections/:collectionId',
    {
      schema: {
        tags: ['collections'],
        operationId: 'getCollectionById',
        summary: 'Get a collection',
        params: CollectionParams,
        response: { 200: CollectionSchema, ...errors(404) },
      },
    },
    (request) => getCollection(ctx, request.actor, request.params.collectionId),
  );

  app.patch(
    '/collections/:collectionId',
    {
      schema: {
        tags: ['collections'],
        operationId: 'updateCollectionById',
        summary: 'Change a collection (collection administrators)',
        params: CollectionParams,
        body: Type.Object({
          title: Type.Optional(CollectionTitle),
          description: Type.Optional(Type.String({ maxLength: 100 })),
          defaultLevel: Type.Optional(DefaultLevelSchema),
        }),
        response: { 200: CollectionSchema, ...errors(403, 404) },
      },
    },
    (request) => patchCollection(ctx, request.actor, request.params.collectionId, request.body),
  );

  app.delete(
    '/collections/:collectionId',
    {
      schema: {
        tags: ['collections'],
        operationId: 'deleteCollectionById',
        summary: 'Delete a collection with its nested collections; its spaces are deleted and restorable for 7 days',
        params: CollectionParams,
        response: { 204: NoContent, ...errors(403, 404) },
      },
    },
    async (request, reply) => {
      await deleteCollection(ctx, request.actor, request.params.collectionId);
      return reply.code(204).send();
    },
  );

  app.get(
    '/collections/:collectionId/spaces',
    {
      schema: {
        tags: ['collections'],
        operationId: 'listSpacesInCollectionById',
        summary: 'List the spaces directly in a collection, in position order',
        params: CollectionParams,
        querystring: Type.Object(PageQuery),
        response: { 200: listOf(SpaceSchema), ...errors(404) },
      },
    },
    (request) => listSpacesInCollection(ctx, request.actor, request.params.collectionId, request.query),
  );

  app.post(
    '/collections/:collectionId/move',
    {
      schema: {
        tags: ['collections'],
        operationId: 'moveCollection',
        summary: 'Move a collection to another parent or among its siblings',
        params: CollectionParams,
        body: MoveBody,
        response: { 200: CollectionSchema, ...errors(403, 404) },
      },
    },
    (request) => moveCollection(ctx, request.actor, request.params.collectionId, request.body),
  );

  app.post(
    '/collections/:collectionId/transfer',
    {
      schema: {
        tags: ['collections'],
        operationId: 'transferCollection',
        summary: 'Move a collection with its contents to another organization (administrator of both)',
        params: CollectionParams,
        body: Type.Object({ organization: IdParam('The target organization') }),
        response: { 200: CollectionSchema, ...errors(403, 404) },
      },
    },
    (request) => transferCollection(ctx, request.actor, request.params.collectionId, request.body.organization),
  );
};
