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
  sso: Type.Optional(
    Type.Boolean({ description: "Accepted for GitBook's sake and unused: nobody joins at once, and people who join through the link are not SSO members" }),
  ),
});

const InviteUsersAnswer = Type.Object({
  users: Type.Array(Type.String({ description: 'The id of a person who became a member at once' }), {
    description:
      "The people who became members at once: always empty in Quire, since an account's address is not proven; each address gets an invite its owner accepts",
  }),
  invited: Type.Number({ description: 'How many addresses were sent (or given) an invite of their own' }),
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
          'Invite people by e-mail address (administrators): each address gets an invite for it alone, used once, e-mailed when Quire sends mail; its owner joins by opening it, signed in as that address or as a new person',
        params: OrganizationParams,
        body: InviteUsersBody,
        response: { 200: InviteUsersAnswer, ...errors(400, 403, 404) },
      },
    },
    (request) => inviteByEmail(ctx, request.actor, request.params.organizationId, request.body),
  );
};
