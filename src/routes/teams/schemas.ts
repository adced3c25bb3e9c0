// Request and response schemas of the team operations.
import { Type } from '@sinclair/typebox';
import { MemberSchema } from '../members/schemas.ts';

export const TeamTitle = Type.String({ minLength: 1, maxLength: 64, description: 'Title of the team' });
export const TeamRoleSchema = Type.Unsafe<'owner' | 'member'>({
  type: 'string',
  enum: ['owner', 'member'],
  description: 'owner: manages the team; member: belongs to it',
});

export const TeamSchema = Type.Object({
  object: Type.Literal('team'),
  id: Type.String(),
  title: Type.String(),
  members: Type.Integer({ description: 'How many members the team has' }),
  spaces: Type.Number({ description: 'How many spaces the team reaches' }),
  createdAt: Type.String({ format: 'date-time' }),
  permissions: Type.Object({
    admin: Type.Boolean({ description: 'Can the caller manage the team' }),
    view: Type.Boolean({ description: 'Can the caller view the team and its members' }),
  }),
});

export const TeamMemberEntrySchema = Type.Object({
  organization: MemberSchema,
  team: Type.Object({ role: TeamRoleSchema }),
  permissions: Type.Object({ view: Type.Boolean() }),
});

const UserRef = Type.String({ minLength: 1, maxLength: 320, description: 'A user id or an e-mail address' });

export const UpdateTeamMembersBody = Type.Object({
  add: Type.Optional(Type.Array(UserRef, { maxItems: 1000 })),
  remove: Type.Optional(Type.Array(UserRef, { maxItems: 1000 })),
  memberships: Type.Optional(
    Type.Record(Type.String({ maxLength: 320 }), Type.Object({ role: TeamRoleSchema }), {
      maxProperties: 1000,
      description: 'Team roles to set, by user id or e-mail',
    }),
  ),
});
