// Request and response schemas of the SAML provider operations.
import { Type } from '@sinclair/typebox';
import { RoleOrGuestSchema } from '../schemas.ts';
import { TeamSchema } from '../teams/schemas.ts';

const ProviderFields = {
  label: Type.String({ minLength: 1, maxLength: 30, description: 'Name of the provider on the login page' }),
  entityID: Type.String({ maxLength: 1024, description: "The identity provider's entity ID (the Issuer of its responses)" }),
  certificate: Type.String({ maxLength: 10000, description: "The identity provider's X.509 signing certificate, PEM" }),
  ssoURL: Type.String({ format: 'uri', maxLength: 2048, description: "The identity provider's single sign-on URL" }),
  defaultTeam: Type.String({ minLength: 1, maxLength: 100, description: 'A team of the organization that people signing in join' }),
  defaultRole: RoleOrGuestSchema,
};

export const CreateSamlProviderBody = Type.Object({
  label: ProviderFields.label,
  entityID: Type.Optional(ProviderFields.entityID),
  certificate: Type.Optional(ProviderFields.certificate),
  ssoURL: Type.Optional(ProviderFields.ssoURL),
  defaultTeam: Type.Optional(ProviderFields.defaultTeam),
  defaultRole: Type.Optional(ProviderFields.defaultRole),
});

export const UpdateSamlProviderBody = Type.Partial(CreateSamlProviderBody);

export const SamlProviderSchema = Type.Object({
  object: Type.Literal('saml-provider'),
  id: Type.String(),
  label: Type.String(),
  ssoURL: Type.String({ description: 'Empty until configured' }),
  entityID: Type.String({ description: 'Empty until configured' }),
  certificate: Type.String({ description: 'Empty until configured' }),
  defaultTeam: Type.Optional(TeamSchema),
  defaultRole: RoleOrGuestSchema,
  createdAt: Type.String({ format: 'date-time' }),
  status: Type.Unsafe<'active' | 'pending'>({
    type: 'string',
    enum: ['active', 'pending'],
    description: 'active once ssoURL, entityID and certificate are set',
  }),
  service: Type.Object({
    acsURL: Type.String({ format: 'uri', description: "Quire's assertion consumer service: the identity provider posts responses here" }),
    startURL: Type.String({ format: 'uri', description: 'Opening it in a browser starts signing in' }),
    entityID: Type.String({ description: "Quire's entity ID for this provider (also its metadata URL)" }),
  }),
  urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
});

export const SsoLoginsSchema = Type.Object({
  items: Type.Array(Type.Object({ id: Type.String(), label: Type.String(), startURL: Type.String({ format: 'uri' }) })),
});
