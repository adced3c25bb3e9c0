// Schemas shared by every resource: errors, lists, roles, users.
import { Type, type TSchema, type TProperties } from '@sinclair/typebox';
import { ROLES, type Role } from '../lib/roles.ts';

export const ErrorSchema = Type.Object(
  {
    error: Type.Object({
      code: Type.Integer({ description: 'The HTTP status code' }),
      message: Type.String({ description: 'What went wrong, for a person to act on' }),
    }),
  },
  { description: 'An error' },
);

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'The request is invalid: the message names the field and the rule',
  401: 'No valid API token was given',
  403: 'The caller may see this but not do this',
  404: 'No such object, or the caller may not see it',
  409: 'The request conflicts with the current state',
  413: 'The request body is larger than the configured limit',
  429: 'Too many requests or attempts: the message and Retry-After say when to try again',
};

/** Error responses for a route, every code with GitBook's error shape. */
export function errors(...codes: number[]): Record<number, typeof ErrorSchema> {
  return Object.fromEntries(
    [400, 401, ...codes].map((code) => [code, { ...ErrorSchema, description: ERROR_DESCRIPTIONS[code] }]),
  ) as Record<number, typeof ErrorSchema>;
}

export const RoleSchema = Type.Unsafe<Role>({
  type: 'string',
  enum: [...ROLES],
  description: 'A role, from least to most: read, comment, edit, review, create, admin',
});

export const RoleOrGuestSchema = Type.Unsafe<Role | null>({
  type: 'string',
  enum: [...ROLES, null],
  nullable: true,
  description: 'A role, or null for a guest',
});

export const IdParam = (description: string) => Type.String({ minLength: 1, maxLength: 100, description });

/** A single sign-on start's `?link=`: the session's CSRF token, which links the signed-in person to the identity answered. */
export const LinkParam = Type.Optional(
  Type.String({ maxLength: 200, description: "The signed-in session's CSRF token (GET /auth/state), to link that person to the identity the provider answers; without it the start signs in and links nothing" }),
);

export const PageQuery = {
  page: Type.Optional(
    Type.String({ maxLength: 2048, description: 'The cursor of the page to fetch: `next.page` of the previous answer' }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000, description: 'How many items per page (at most 1000)' })),
};

export const OrderQuery = Type.Optional(
  Type.Unsafe<'asc' | 'desc'>({ type: 'string', enum: ['asc', 'desc'], default: 'desc', description: 'Sort order' }),
);

export function listOf<T extends TSchema>(item: T, extra: TProperties = {}) {
  return Type.Object({
    next: Type.Optional(
      Type.Object({ page: Type.String({ description: 'Pass as `page` to fetch the next page' }) }, { description: 'Absent on the last page' }),
    ),
    count: Type.Number({ description: 'How many items the whole list holds' }),
    items: Type.Array(item),
    ...extra,
  });
}

export const UserSchema = Type.Object(
  {
    object: Type.Literal('user'),
    id: Type.String(),
    displayName: Type.String({ description: 'Full name' }),
    email: Type.Optional(Type.String()),
    photoURL: Type.Optional(Type.String()),
    urls: Type.Object({ location: Type.String({ description: 'URL of the user in the API' }) }),
  },
);

export const NoContent = Type.Unsafe<void>({ type: 'null', description: 'No content' });

export const OrganizationIdParam = IdParam('The unique id of the organization');
export const OrganizationParams = Type.Object({ organizationId: OrganizationIdParam });
