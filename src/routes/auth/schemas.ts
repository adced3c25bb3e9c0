// Request and response schemas of sign-in (/auth/*) and of a person's own sessions and tokens.
import { Type } from '@sinclair/typebox';
import { MAX_PASSWORD_LENGTH } from '../../lib/passwords.ts';
import { RoleOrGuestSchema, UserSchema } from '../schemas.ts';

const Timestamp = Type.String({ format: 'date-time' });

export const Email = Type.String({ format: 'email', minLength: 3, maxLength: 254, description: 'An e-mail address' });
export const Password = Type.String({
  minLength: 1,
  maxLength: MAX_PASSWORD_LENGTH,
  description: 'A password: at least 8 characters where a new one is set',
});
export const PersonName = Type.String({ minLength: 1, maxLength: 255, description: "The person's full name" });

export const SessionSchema = Type.Object({
  object: Type.Literal('session'),
  id: Type.String({ description: 'The session id' }),
  user: UserSchema,
  csrfToken: Type.String({ description: 'Send it as X-CSRF-Token on every write made with the session cookie' }),
  createdAt: Timestamp,
  expiresAt: Type.Union([Timestamp, Type.Null()], { description: 'When the session ends unless it is revoked first' }),
});

export const SignedInSchema = Type.Object(
  { session: SessionSchema },
  { description: 'Signed in: the answer sets the quire_session cookie (HttpOnly, SameSite=Lax)' },
);

export const AuthStateSchema = Type.Object({
  setupRequired: Type.Boolean({ description: 'True on a server with no organization yet: the app shows setup' }),
  session: Type.Union([SessionSchema, Type.Null()], { description: "The cookie's session, or null when signed out" }),
});

export const InvitePreviewSchema = Type.Object({
  organization: Type.Object({ id: Type.String(), title: Type.String() }, { description: 'The organization the invite joins' }),
  role: RoleOrGuestSchema,
  expiresAt: Type.Union([Timestamp, Type.Null()], { description: 'When the invite stops working' }),
});

export const SsoChoicesSchema = Type.Object({
  items: Type.Array(
    Type.Object({
      kind: Type.String({ enum: ['saml', 'oidc'], description: 'The protocol' }),
      label: Type.String({ description: "The provider's name, for the button" }),
      organization: Type.Object({ id: Type.String(), title: Type.String() }),
      startUrl: Type.String({ description: 'Where the browser goes to sign in with the provider' }),
    }),
  ),
});

export const SessionListSchema = Type.Object({
  items: Type.Array(
    Type.Object({
      object: Type.Literal('session'),
      id: Type.String(),
      current: Type.Boolean({ description: 'True for the session making this request' }),
      createdAt: Timestamp,
      lastUsedAt: Type.Union([Timestamp, Type.Null()], { description: 'Within a minute' }),
      expiresAt: Type.Union([Timestamp, Type.Null()]),
      userAgent: Type.Union([Type.String(), Type.Null()], { description: 'The browser that signed in, as it named itself' }),
      address: Type.Union([Type.String(), Type.Null()], { description: 'The network address it signed in from' }),
    }),
  ),
});

export const TokenScope = Type.String({ enum: ['read', 'write'], description: 'read: the token may only read (GET); write: anything its owner may' });

export const ApiTokenSchema = Type.Object({
  object: Type.Literal('api-token'),
  id: Type.String(),
  label: Type.Union([Type.String(), Type.Null()], { description: 'The name its owner gave it' }),
  scope: TokenScope,
  createdAt: Timestamp,
  lastUsedAt: Type.Union([Timestamp, Type.Null()], { description: 'Within a minute; null when never used' }),
});

export const CreatedApiTokenSchema = Type.Composite([
  ApiTokenSchema,
  Type.Object({ token: Type.String({ description: 'The secret, shown this once: send it as Authorization: Bearer <token>' }) }),
]);
