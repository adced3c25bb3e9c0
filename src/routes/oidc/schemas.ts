// Request and response schemas of the OpenID Connect provider operations.
import { Type } from '@sinclair/typebox';
import { RoleOrGuestSchema } from '../schemas.ts';
import { TeamSchema } from '../teams/schemas.ts';

const ProviderFields = {
  label: Type.String({ minLength: 1, maxLength: 30, description: 'Name of the provider on the sign-in page ("Sign in with …")' }),
  issuer: Type.String({
    format: 'uri',
    maxLength: 2048,
    description: "The provider's issuer identifier; Quire reads <issuer>/.well-known/openid-configuration",
  }),
  clientId: Type.String({ minLength: 1, maxLength: 1024, description: 'The client ID Quire is registered under at the provider' }),
  clientSecret: Type.String({
    minLength: 1,
    maxLength: 4096,
    description: "The client's secret: written only, stored sealed, never shown again",
  }),
  defaultTeam: Type.String({ minLength: 1, maxLength: 100, description: 'A team of the organization that people signing in join' }),
  defaultRole: RoleOrGuestSchema,
};

export const CreateOidcProviderBody = Type.Object({
  label: ProviderFields.label,
  issuer: ProviderFields.issuer,
  clientId: ProviderFields.clientId,
  clientSecret: ProviderFields.clientSecret,
  defaultTeam: Type.Optional(ProviderFields.defaultTeam),
  defaultRole: Type.Optional(ProviderFields.defaultRole),
});

export const UpdateOidcProviderBody = Type.Partial(CreateOidcProviderBody);

export const OidcProviderSchema = Type.Object({
  object: Type.Literal('oidc-provider'),
  id: Type.String({ description: 'The unique id of the provider' }),
  label: ProviderFields.label,
  issuer: Type.String({ description: "The provider's issuer identifier" }),
  clientId: Type.String({ description: 'The client ID Quire is registered under' }),
  defaultTeam: Type.Optional(TeamSchema),
  defaultRole: RoleOrGuestSchema,
  createdAt: Type.String({ format: 'date-time', description: 'When the provider was added' }),
  urls: Type.Object({
    location: Type.String({ format: 'uri', description: 'This object in the API' }),
    start: Type.String({ format: 'uri', description: 'Opening it in a browser starts signing in' }),
    callback: Type.String({ format: 'uri', description: 'The redirect URI to register at the provider' }),
  }),
});
