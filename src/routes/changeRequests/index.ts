// /v1/spaces/{spaceId}/change-requests: proposals to change a space's content.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  createChangeRequest,
  getChangeRequest,
  listChangeRequests,
  patchChangeRequest,
  type ChangeRequestStatus,
} from '../../services/changeRequests.ts';
import { IdParam, PageQuery, UserSchema, errors, listOf } from '../schemas.ts';

const SpaceParams = Type.Object({ spaceId: IdParam('The unique id of the space') });
const ChangeRequestParams = Type.Object({
  spaceId: IdParam('The unique id of the space'),
  changeRequestId: IdParam('The id of the change request, or its number in the space'),
});
const Status = Type.Unsafe<ChangeRequestStatus>({ type: 'string', enum: ['draft', 'open', 'archived', 'merged'] });
const Subject = Type.String({ maxLength: 100, description: 'What the change request is about' });

const ChangeRequestSchema = Type.Object({
  object: Type.Literal('change-request'),
  id: Type.String(),
  number: Type.Integer({ description: 'Incremental number in the space, from 1' }),
  status: Type.String(),
  subject: Type.String(),
  createdBy: UserSchema,
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  revision: Type.String({ description: 'The revision holding its content' }),
  revisionInitial: Type.String({ description: 'The space revision it started from' }),
  revisionMergedAncestor: Type.Optional(Type.String({ description: 'The space revision it last took content from' })),
  revisionMerged: Type.Optional(Type.String({ description: 'The space revision its merge produced' })),
  comments: Type.Number(),
  outdated: Type.Boolean({ description: 'True when the space moved on since' }),
  urls: Type.Object({ location: Type.String(), app: Type.String() }),
});

export const changeRequestRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;

  app.get(
    '/spaces/:spaceId/change-requests',
    {
      schema: {
        tags: ['change-requests'],
        operationId: 'listChangeRequestsForSpace',
        summary: 'List change requests, newest first (status "open" unless asked)',
        params: SpaceParams,
        querystring: Type.Object({
          ...PageQuery,
          status: Type.Optional(Status),
          contributor: Type.Optional(IdParam('Only change requests by this user')),
        }),
        response: { 200: listOf(ChangeRequestSchema), ...errors(404) },
      },
    },
    (request) => listChangeRequests(ctx, request.actor, request.params.spaceId, request.query),
  );

  app.post(
    '/spaces/:spaceId/change-requests',
    {
      schema: {
        tags: ['change-requests'],
        operationId: 'createChangeRequest',
        summary: "Open a change request on the space's current content (editors)",
        params: SpaceParams,
        body: Type.Optional(Type.Object({ subject: Type.Optional(Subject) })),
        response: { 201: ChangeRequestSchema, ...errors(403, 404) },
      },
    },
    async (request, reply) => {
      const changeRequest = await createChangeRequest(ctx, request.actor, request.params.spaceId, request.body ?? {});
      return reply.code(201).header('location', changeRequest.urls.location).send(changeRequest);
    },
  );

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId',
    {
      schema: {
        tags: ['change-requests'],
        operationId: 'getChangeRequestById',
        summary: 'Get a change request by id or number',
        params: ChangeRequestParams,
        response: { 200: ChangeRequestSchema, ...errors(404) },
      },
    },
    (request) => getChangeRequest(ctx, request.actor, request.params.spaceId, request.params.changeRequestId),
  );

  app.patch(
    '/spaces/:spaceId/change-requests/:changeRequestId',
    {
      schema: {
        tags: ['change-requests'],
        operationId: 'updateChangeRequestById',
        summary: 'Change the subject or status (draft, open, archived) of a change request',
        params: ChangeRequestParams,
        body: Type.Object({ subject: Type.Optional(Subject), status: Type.Optional(Status) }),
        response: { 200: ChangeRequestSchema, ...errors(403, 404, 409) },
      },
    },
    (request) =>
      patchChangeRequest(ctx, request.actor, request.params.spaceId, request.params.changeRequestId, request.body),
  );
};
