// POST /v1/orgs/{organizationId}/invites: inviting people by e-mail address, GitBook's
// inviteUsersToOrganization.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { inviteByEmail } from '../../services/emailInvites.ts';
import { OrganizationParams, RoleOrGuestSchema, errors } from '../schemas.ts';

const Email = Type.String({ minLength: 3, maxLength: 254, description: 'The e-mail address of the person to invite' });

const InviteUsersBody = Type.Object({
  emails: Type.Array(Type.Union([Email, Type.Object({ email: Email, role: RoleOrGuestSchema })]), {
    minItems: 1,
    maxItems: 100,
    description: 'The people to invite: addresses, or addresses each with its own role',
  }),
  role: Type.Optional(RoleOrGuestSchema),
  sso: Type.Optional(Type.Boolean({ description: 'Whether the people Quire knows already join as SSO members (default false)' })),
});

const InviteUsersAnswer = Type.Object({
  users: Type.Array(Type.String({ description: 'The id of a person Quire knew, now a member' }), {
    description: 'The people who became members at once: those Quire knew by their address',
  }),
  invited: Type.Number({
    description: 'How many addresses were invited: the members added at once, and those sent an invite of their own',
  }),
});

export const emailInviteRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;

  app.post(
    '/orgs/:organizationId/invites',
    {
      schema: {
        tags: ['organizations'],
        operationId: 'inviteUsersToOrganization',
        summary:
          'Invite people by e-mail address (administrators): known people join at once, anyone else gets an invite for their address, e-mailed when Quire sends mail',
        params: OrganizationParams,
        body: InviteUsersBody,
        response: { 200: InviteUsersAnswer, ...errors(400, 403, 404) },
      },
    },
    (request) => inviteByEmail(ctx, request.actor, request.params.organizationId, request.body),
  );
};
