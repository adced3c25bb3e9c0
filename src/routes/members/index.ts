// /v1/orgs/{organizationId}/members and /ping: the people of an organization.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  changeMemberRole,
  getMember,
  listMembers,
  listSpacesOfMember,
  listTeamsOfMember,
  markMemberSso,
  pingOrganization,
  removeMember,
} from '../../services/members.ts';
import { IdParam, NoContent, OrganizationIdParam, OrganizationParams, OrderQuery, PageQuery, RoleOrGuestSchema, RoleSchema, errors, listOf } from '../schemas.ts';
import { SpaceSchema } from '../spaces/schemas.ts';
import { TeamSchema } from '../teams/schemas.ts';
import { MemberListQuery, MemberSchema } from './schemas.ts';

const MemberParams = Type.Object({
  organizationId: OrganizationIdParam,
  userId: IdParam('The user id of the member'),
});

export const memberRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;

  app.get(
    '/orgs/:organizationId/members',
    {
      schema: {
        tags: ['members'],
        operationId: 'listMembersInOrganizationById',
        summary: 'List the members of an organization',
        params: OrganizationParams,
        querystring: Type.Object({ ...PageQuery, order: OrderQuery, ...MemberListQuery }),
        response: { 200: listOf(MemberSchema), ...errors(403, 404) },
      },
    },
    (request) => listMembers(ctx, request.actor, request.params.organizationId, request.query),
  );

  app.get(
    '/orgs/:organizationId/members/:userId',
    {
      schema: {
        tags: ['members'],
        operationId: 'getMemberInOrganizationById',
        summary: 'Get a member',
        params: MemberParams,
        response: { 200: MemberSchema, ...errors(403, 404) },
      },
    },
    (request) => getMember(ctx, request.actor, request.params.organizationId, request.params.userId),
  );

  app.patch(
    '/orgs/:organizationId/members/:userId',
    {
      schema: {
        tags: ['members'],
        operationId: 'updateMemberInOrganizationById',
        summary: "Change a member's role (administrators); null makes them a guest",
        params: MemberParams,
        body: Type.Object({ role: RoleOrGuestSchema }),
        response: { 200: MemberSchema, ...errors(403, 404, 409) },
      },
    },
    (request) =>
      changeMemberRole(ctx, request.actor, request.params.organizationId, request.params.userId, request.body.role),
  );

  app.delete(
    '/orgs/:organizationId/members/:userId',
    {
      schema: {
        tags: ['members'],
        operationId: 'removeMemberFromOrganizationById',
        summary: 'Remove a member (administrators), or leave the organization',
        params: MemberParams,
        response: { 204: NoContent, ...errors(403, 404, 409) },
      },
    },
    async (request, reply) => {
      await removeMember(ctx, request.actor, request.params.organizationId, request.params.userId);
      return reply.code(204).send();
    },
  );

  app.post(
    '/orgs/:organizationId/members/:userId/sso',
    {
      schema: {
        tags: ['members'],
        operationId: 'setUserAsSSOMemberForOrganization',
        summary: 'Mark a member as signing in with SSO (administrators)',
        params: MemberParams,
        response: { 200: MemberSchema, ...errors(403, 404) },
      },
    },
    (request) => markMemberSso(ctx, request.actor, request.params.organizationId, request.params.userId),
  );

  app.post(
    '/orgs/:organizationId/ping',
    {
      schema: {
        tags: ['members'],
        operationId: 'updateOrganizationMemberLastSeenAt',
        summary: "Record the caller's presence in the organization",
        params: OrganizationParams,
        response: {
          200: Type.Object({
            serviceVisitorClaims: Type.String({ description: 'The claims attached to this member, as JSON' }),
          }),
          ...errors(404),
        },
      },
    },
    (request) => pingOrganization(ctx, request.actor, request.params.organizationId),
  );

  app.get(
    '/orgs/:organizationId/members/:userId/spaces',
    {
      schema: {
        tags: ['members'],
        operationId: 'listSpacesForOrganizationMember',
        summary: 'List the spaces a member can reach, with their permission',
        params: MemberParams,
        querystring: Type.Object({ ...PageQuery, order: OrderQuery }),
        response: {
          200: listOf(Type.Object({ permission: RoleSchema, space: SpaceSchema })),
          ...errors(403, 404),
        },
      },
    },
    (request) =>
      listSpacesOfMember(ctx, request.actor, request.params.organizationId, request.params.userId, request.query),
  );

  app.get(
    '/orgs/:organizationId/members/:userId/teams',
    {
      schema: {
        tags: ['members'],
        operationId: 'listTeamsForOrganizationMember',
        summary: 'List the teams of a member',
        params: MemberParams,
        querystring: Type.Object({
          ...PageQuery,
          title: Type.Optional(Type.String({ maxLength: 256, description: 'Case-insensitive part of the title' })),
        }),
        response: {
          200: listOf(Type.Object({ team: TeamSchema, member: Type.Object({ role: Type.String({ enum: ['owner', 'member'] }) }) })),
          ...errors(403, 404),
        },
      },
    },
    (request) =>
      listTeamsOfMember(ctx, request.actor, request.params.organizationId, request.params.userId, request.query),
  );
};
