// Request and response schemas of the member operations.
import { Type } from '@sinclair/typebox';
import { RoleOrGuestSchema, UserSchema } from '../schemas.ts';

export const MemberSchema = Type.Object({
  object: Type.Literal('member'),
  id: Type.String({ description: 'The user id of the member' }),
  role: RoleOrGuestSchema,
  user: UserSchema,
  disabled: Type.Boolean(),
  joinedAt: Type.String({ format: 'date-time' }),
  lastSeenAt: Type.Optional(Type.String({ format: 'date-time', description: 'Last ping from the member' })),
  sso: Type.Boolean({ description: 'Whether the member signs in with SSO' }),
  spaces: Type.Number({ description: 'How many spaces the member reaches' }),
  teams: Type.Number({ description: 'How many teams the member is in' }),
});

export const MemberListQuery = {
  role: Type.Optional(
    Type.Unsafe<'admin' | 'create' | 'review' | 'edit' | 'comment' | 'read' | 'guest'>({
      type: 'string',
      enum: ['admin', 'create', 'review', 'edit', 'comment', 'read', 'guest'],
      description: 'Only members with this role ("guest" for members without one)',
    }),
  ),
  search: Type.Optional(Type.String({ maxLength: 256, description: 'Matches display names and e-mails' })),
  sort: Type.Optional(
    Type.Unsafe<'joinedAt' | 'lastSeenAt'>({
      type: 'string',
      enum: ['joinedAt', 'lastSeenAt'],
      default: 'joinedAt',
      description: 'lastSeenAt lists only members who have been seen',
    }),
  ),
};
