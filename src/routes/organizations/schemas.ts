// Request and response schemas of the organization operations.
import { Type } from '@sinclair/typebox';
import { RoleOrGuestSchema } from '../schemas.ts';

const Timestamp = Type.String({ format: 'date-time' });

export const OrganizationTitle = Type.String({ minLength: 2, maxLength: 255, description: 'Name of the organization' });
export const EmailDomains = Type.Array(Type.String({ minLength: 1, maxLength: 253 }), {
  maxItems: 100,
  description: 'E-mail domains whose people may find and join the organization',
});

const booleanPermission = (description: string) => Type.Boolean({ description });

export const OrganizationSchema = Type.Object({
  object: Type.Literal('organization'),
  id: Type.String({ description: 'Unique identifier of the organization' }),
  title: Type.String(),
  createdAt: Timestamp,
  emailDomains: Type.Array(Type.String()),
  hostname: Type.Optional(Type.String({ description: "Default hostname for the organization's public content" })),
  type: Type.String({ enum: ['business', 'community'] }),
  defaultRole: RoleOrGuestSchema,
  defaultContent: Type.Optional(Type.Object({ type: Type.Literal('site'), site: Type.String() })),
  sso: Type.Boolean({ description: 'Whether SSO is enforced organization-wide' }),
  ai: Type.Boolean({ description: 'Whether AI features are on' }),
  inviteLinks: Type.Boolean({ description: 'Whether invite links may be used to join' }),
  plan: Type.String({ description: 'Billing plan; a self-hosted Quire is always "internal"' }),
  urls: Type.Object({
    location: Type.String({ description: 'URL of the organization in the API' }),
    app: Type.String({ description: 'URL of the organization in the application' }),
    logo: Type.Optional(Type.String({ description: 'URL of the logo' })),
  }),
  mergeRules: Type.Object({ type: Type.Literal('none') }, { description: 'none: change requests merge without a review' }),
  trial: Type.Object({ status: Type.String() }),
  internal_isOnNewTrial: Type.Boolean({ description: 'Deprecated; always true' }),
  permissions: Type.Object({
    view: booleanPermission('Can the caller view the organization'),
    admin: booleanPermission('Can the caller manage the title, members, teams, invites'),
    ownTeam: booleanPermission('Does the caller own a team'),
    createContent: booleanPermission('Can the caller create spaces and collections'),
    createOpenAPISpec: booleanPermission('Can the caller create OpenAPI specs'),
    ingestConversations: booleanPermission('Can the caller ingest conversations'),
    viewBilling: booleanPermission('Can the caller view billing'),
    listMembers: booleanPermission('Can the caller list members'),
    listTeams: booleanPermission('Can the caller list teams'),
    listIntegrations: booleanPermission('Can the caller list integrations'),
    listInstallations: booleanPermission('Can the caller list installations'),
    installIntegration: booleanPermission('Can the caller install integrations'),
  }),
});

export const CreateOrganizationBody = Type.Object({
  title: OrganizationTitle,
  emailDomains: Type.Optional(EmailDomains),
});

export const UpdateOrganizationBody = Type.Object({
  title: Type.Optional(OrganizationTitle),
  emailDomains: Type.Optional(EmailDomains),
  hostname: Type.Optional(Type.String({ minLength: 3, maxLength: 32, description: 'Letters, digits and hyphens' })),
  defaultRole: Type.Optional(RoleOrGuestSchema),
  defaultContent: Type.Optional(
    Type.Unsafe<{ type: 'site'; site: string } | null>({
      type: 'object',
      nullable: true,
      properties: { type: { type: 'string', enum: ['site'] }, site: { type: 'string', minLength: 1, maxLength: 100 } },
      required: ['type', 'site'],
      description: 'The site shown by default, or null',
    }),
  ),
  logo: Type.Optional(
    Type.Unsafe<string | null>({ type: 'string', format: 'uri', maxLength: 2048, nullable: true, description: 'Logo URL, or null' }),
  ),
  sso: Type.Optional(Type.Boolean()),
  ai: Type.Optional(Type.Boolean()),
  inviteLinks: Type.Optional(Type.Boolean()),
});
