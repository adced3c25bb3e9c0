// /v1/orgs/{organizationId}/link-invites and /invites/{inviteId}: joining by link.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  changeInviteRole,
  createInvite,
  getInvite,
  joinWithInvite,
  listInvites,
  removeInvite,
} from '../../services/invites.ts';
import { IdParam, NoContent, OrganizationIdParam, OrganizationParams, PageQuery, RoleOrGuestSchema, errors, listOf } from '../schemas.ts';

const InviteSchema = Type.Object({
  object: Type.Literal('invite'),
  id: Type.String({ description: 'The invite id, which is also its secret' }),
  role: RoleOrGuestSchema,
  redundant: Type.Boolean({ description: 'True when the caller already has everything the invite grants' }),
  expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'When the invite stops working; null for invites made before invites expired',
  }),
  email: Type.Union([Type.String(), Type.Null()], {
    description: 'The address an e-mail invite was made for, which alone may use it (once); null for a link anyone holding it may use',
  }),
  urls: Type.Object({
    app: Type.String({ description: "The invite's page in the app, to send to whoever should join" }),
  }),
});

const InviteParams = Type.Object({ organizationId: OrganizationIdParam, inviteId: IdParam('The unique id of the invite') });
const RoleBody = Type.Object({ role: RoleOrGuestSchema });
const CreateBody = Type.Object({
  role: RoleOrGuestSchema,
  expiresAt: Type.Optional(
    Type.String({ format: 'date-time', description: 'When the invite stops working (default: in 14 days); must be in the future' }),
  ),
});

export const inviteRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;

  app.get(
    '/orgs/:organizationId/link-invites',
    {
      schema: {
        tags: ['organizations'],
        operationId: 'listOrganizationInviteLinks',
        summary: 'List the invite links of an organization (administrators)',
        params: OrganizationParams,
        querystring: Type.Object(PageQuery),
        response: { 200: listOf(InviteSchema), ...errors(403, 404) },
      },
    },
    (request) => listInvites(ctx, request.actor, request.params.organizationId, request.query),
  );

  app.post(
    '/orgs/:organizationId/link-invites',
    {
      schema: {
        tags: ['organizations'],
        operationId: 'createOrganizationInvite',
        summary: 'Create an invite link (administrators)',
        params: OrganizationParams,
        body: CreateBody,
        response: { 201: InviteSchema, ...errors(400, 403, 404) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createInvite(ctx, request.actor, request.params.organizationId, request.body)),
  );

  app.get(
    '/orgs/:organizationId/link-invites/:inviteId',
    {
      schema: {
        tags: ['organizations'],
        operationId: 'getOrganizationInviteLink',
        summary: 'Get an invite link (administrators)',
        params: InviteParams,
        response: { 200: InviteSchema, ...errors(403, 404) },
      },
    },
    (request) => getInvite(ctx, request.actor, request.params.organizationId, request.params.inviteId),
  );

  app.patch(
    '/orgs/:organizationId/link-invites/:inviteId',
    {
      schema: {
        tags: ['organizations'],
        operationId: 'updateOrganizationInviteById',
        summary: 'Change the role an invite link grants (administrators)',
        params: InviteParams,
        body: RoleBody,
        response: { 200: InviteSchema, ...errors(403, 404) },
      },
    },
    (request) =>
      changeInviteRole(ctx, request.actor, request.params.organizationId, request.params.inviteId, request.body.role),
  );

  app.delete(
    '/orgs/:organizationId/link-invites/:inviteId',
    {
      schema: {
        tags: ['organizations'],
        operationId: 'deleteOrganizationInviteById',
        summary: 'Delete an invite link (administrators): it stops working at once',
        params: InviteParams,
        response: { 204: NoContent, ...errors(403, 404) },
      },
    },
    async (request, reply) => {
      await removeInvite(ctx, request.actor, request.params.organizationId, request.params.inviteId);
      return reply.code(204).send();
    },
  );

  app.post(
    '/orgs/:organizationId/invites/:inviteId',
    {
      schema: {
        tags: ['organizations'],
        operationId: 'joinOrganizationWithInvite',
        summary: 'Join an organization with an invite link (404 when it is unknown, deleted or expired)',
        params: InviteParams,
        response: { 200: Type.Object({}), ...errors(403, 404) },
      },
    },
    (request) => joinWithInvite(ctx, request.actor, request.params.organizationId, request.params.inviteId),
  );
};
