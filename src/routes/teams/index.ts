// /v1/orgs/{organizationId}/teams: teams and their members.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  createTeam,
  getTeam,
  listTeamMembers,
  listTeams,
  putTeamMember,
  removeTeam,
  removeTeamMember,
  renameTeam,
  updateTeamMembers,
} from '../../services/teams.ts';
import { IdParam, NoContent, OrganizationIdParam, OrganizationParams, PageQuery, errors, listOf } from '../schemas.ts';
import { TeamMemberEntrySchema, TeamRoleSchema, TeamSchema, TeamTitle, UpdateTeamMembersBody } from './schemas.ts';

const TeamParams = Type.Object({ organizationId: OrganizationIdParam, teamId: IdParam('The unique id of the team') });
const TeamMemberParams = Type.Object({
  organizationId: OrganizationIdParam,
  teamId: IdParam('The unique id of the team'),
  userId: IdParam('The user id of the member'),
});

export const teamRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;

  app.get(
    '/orgs/:organizationId/teams',
    {
      schema: {
        tags: ['teams'],
        operationId: 'listTeamsInOrganizationById',
        summary: 'List the teams of an organization',
        params: OrganizationParams,
        querystring: Type.Object({
          ...PageQuery,
          owner: Type.Optional(IdParam('Only teams this member manages')),
          title: Type.Optional(Type.String({ maxLength: 256, description: 'Case-insensitive part of the title' })),
        }),
        response: { 200: listOf(TeamSchema), ...errors(403, 404) },
      },
    },
    (request) => listTeams(ctx, request.actor, request.params.organizationId, request.query),
  );

  app.put(
    '/orgs/:organizationId/teams',
    {
      schema: {
        tags: ['teams'],
        operationId: 'createOrganizationTeam',
        summary: 'Create a team (administrators)',
        params: OrganizationParams,
        body: Type.Object({
          title: TeamTitle,
          members: Type.Optional(Type.Array(IdParam('A member id'), { maxItems: 1000 })),
        }),
        response: { 201: TeamSchema, ...errors(403, 404) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createTeam(ctx, request.actor, request.params.organizationId, request.body)),
  );

  app.get(
    '/orgs/:organizationId/teams/:teamId',
    {
      schema: {
        tags: ['teams'],
        operationId: 'getTeamInOrganizationById',
        summary: 'Get a team',
        params: TeamParams,
        response: { 200: TeamSchema, ...errors(403, 404) },
      },
    },
    (request) => getTeam(ctx, request.actor, request.params.organizationId, request.params.teamId),
  );

  app.patch(
    '/orgs/:organizationId/teams/:teamId',
    {
      schema: {
        tags: ['teams'],
        operationId: 'updateTeamInOrganizationById',
        summary: 'Rename a team',
        params: TeamParams,
        body: Type.Object({ title: TeamTitle }),
        response: { 200: TeamSchema, ...errors(403, 404) },
      },
    },
    (request) => renameTeam(ctx, request.actor, request.params.organizationId, request.params.teamId, request.body.title),
  );

  app.delete(
    '/orgs/:organizationId/teams/:teamId',
    {
      schema: {
        tags: ['teams'],
        operationId: 'removeTeamFromOrganizationById',
        summary: 'Delete a team',
        params: TeamParams,
        response: { 204: NoContent, ...errors(403, 404) },
      },
    },
    async (request, reply) => {
      await removeTeam(ctx, request.actor, request.params.organizationId, request.params.teamId);
      return reply.code(204).send();
    },
  );

  app.get(
    '/orgs/:organizationId/teams/:teamId/members',
    {
      schema: {
        tags: ['teams'],
        operationId: 'listTeamMembersInOrganizationById',
        summary: 'List the members of a team',
        params: TeamParams,
        querystring: Type.Object(PageQuery),
        response: { 200: listOf(TeamMemberEntrySchema), ...errors(403, 404) },
      },
    },
    (request) => listTeamMembers(ctx, request.actor, request.params.organizationId, request.params.teamId, request.query),
  );

  app.put(
    '/orgs/:organizationId/teams/:teamId/members',
    {
      schema: {
        tags: ['teams'],
        operationId: 'updateMembersInOrganizationTeam',
        summary: 'Add, remove and set the roles of team members',
        params: TeamParams,
        body: UpdateTeamMembersBody,
        response: { 204: NoContent, ...errors(403, 404) },
      },
    },
    async (request, reply) => {
      await updateTeamMembers(ctx, request.actor, request.params.organizationId, request.params.teamId, request.body);
      return reply.code(204).send();
    },
  );

  app.put(
    '/orgs/:organizationId/teams/:teamId/members/:userId',
    {
      schema: {
        tags: ['teams'],
        operationId: 'addMemberToOrganizationTeamById',
        summary: 'Add a member to a team, or change their team role',
        params: TeamMemberParams,
        body: Type.Optional(Type.Object({ role: Type.Optional(TeamRoleSchema) })),
        response: { 204: NoContent, ...errors(403, 404) },
      },
    },
    async (request, reply) => {
      const { organizationId, teamId, userId } = request.params;
      await putTeamMember(ctx, request.actor, organizationId, teamId, userId, request.body?.role);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/orgs/:organizationId/teams/:teamId/members/:userId',
    {
      schema: {
        tags: ['teams'],
        operationId: 'deleteMemberFromOrganizationTeamById',
        summary: 'Remove a member from a team, or leave it',
        params: TeamMemberParams,
        response: { 204: NoContent, ...errors(403, 404) },
      },
    },
    async (request, reply) => {
      const { organizationId, teamId, userId } = request.params;
      await removeTeamMember(ctx, request.actor, organizationId, teamId, userId);
      return reply.code(204).send();
    },
  );
};
