// Request and response schemas of the integration operations, after GitBook's.
import { Type } from '@sinclair/typebox';
import { OrganizationSchema } from '../organizations/schemas.ts';
import { SpaceSchema } from '../spaces/schemas.ts';
import { SiteSchema } from '../sites/schemas.ts';
import { INTEGRATION_CATEGORIES, INTEGRATION_SCOPES } from '../../lib/integrationLists.ts';

const enumOf = <T extends string>(values: readonly T[], description: string) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], description });

export const IntegrationName = Type.String({ minLength: 1, maxLength: 100, pattern: '^[a-zA-Z0-9-_.]+$', description: 'The integration name' });
export const Visibility = enumOf(['public', 'private', 'unlisted'] as const, 'public: listed for all; unlisted: reachable by name; private: its organization only');
export const Target = enumOf(['all', 'site', 'space', 'organization'] as const, 'Where the integration can be installed');
export const Scope = enumOf(INTEGRATION_SCOPES, 'A permission the integration asks for');
export const Category = enumOf(INTEGRATION_CATEGORIES, 'A marketplace category');
const Base64 = (description: string) => Type.String({ maxLength: 3 * 1024 * 1024, description });
const ExternalIds = Type.Array(Type.String({ minLength: 1, maxLength: 256 }), { maxItems: 5, description: 'Ids of this installation elsewhere' });

const Block = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100 }),
  title: Type.String({ minLength: 2, maxLength: 40 }),
  description: Type.Optional(Type.String({ maxLength: 1024 })),
  icon: Type.Optional(Type.String({ maxLength: 2048 })),
  urlUnfurl: Type.Optional(Type.Array(Type.String({ maxLength: 2048 }), { maxItems: 50 })),
  markdown: Type.Optional(Type.Object({ codeblock: Type.String({ maxLength: 100 }), body: Type.String({ maxLength: 10_000 }) })),
});
const ContentSource = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100 }),
  title: Type.String({ minLength: 2, maxLength: 40 }),
  description: Type.Optional(Type.String({ maxLength: 1024 })),
  icon: Type.Optional(Type.String({ maxLength: 2048 })),
  configuration: Type.Object({ componentId: Type.String({ minLength: 1, maxLength: 100 }) }),
});
const ConfigurationProperty = Type.Object({
  type: enumOf(['string', 'number', 'boolean', 'button'] as const, 'The kind of setting'),
  title: Type.Optional(Type.String({ maxLength: 30 })),
  description: Type.Optional(Type.String({ maxLength: 1024 })),
  default: Type.Optional(Type.Union([Type.String(), Type.Number(), Type.Boolean()])),
  completion_url: Type.Optional(Type.String({ maxLength: 2048 })),
  enum: Type.Optional(Type.Array(Type.String(), { maxItems: 100 })),
  callback_url: Type.Optional(Type.String({ maxLength: 2048 })),
  button_text: Type.Optional(Type.String({ maxLength: 100 })),
});
// Schema or component: one object with both shapes' fields; the service checks which.
const Configuration = Type.Object({
  properties: Type.Optional(Type.Record(Type.String({ maxLength: 100 }), ConfigurationProperty, { maxProperties: 100 })),
  required: Type.Optional(Type.Array(Type.String(), { uniqueItems: true, maxItems: 100 })),
  componentId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
});
const Configurations = Type.Object({
  account: Type.Optional(Configuration),
  space: Type.Optional(Configuration),
  site: Type.Optional(Configuration),
});
const ExternalLink = Type.Object({ url: Type.String({ format: 'uri', maxLength: 2048 }), label: Type.String({ minLength: 1, maxLength: 100 }) });
const ContentSecurityPolicy = Type.Union([Type.String({ maxLength: 10_000 }), Type.Record(Type.String({ maxLength: 100 }), Type.String({ maxLength: 10_000 }), { maxProperties: 40 })]);

export const PublishIntegrationBody = Type.Object({
  organization: Type.String({ minLength: 1, maxLength: 100, description: 'The publishing organization: id or subdomain' }),
  title: Type.String({ minLength: 2, maxLength: 30 }),
  description: Type.String({ maxLength: 100 }),
  summary: Type.Optional(Type.String({ maxLength: 2048 })),
  icon: Type.Optional(Base64('The icon image, base64')),
  previewImages: Type.Optional(Type.Array(Base64('An image, base64'), { maxItems: 3 })),
  visibility: Type.Optional(Visibility),
  target: Type.Optional(Target),
  scopes: Type.Array(Scope, { maxItems: INTEGRATION_SCOPES.length }),
  categories: Type.Optional(Type.Array(Category, { maxItems: INTEGRATION_CATEGORIES.length })),
  blocks: Type.Optional(Type.Array(Block, { maxItems: 50 })),
  contentSources: Type.Optional(Type.Array(ContentSource, { maxItems: 50 })),
  externalLinks: Type.Optional(Type.Array(ExternalLink, { maxItems: 5 })),
  configurations: Type.Optional(Configurations),
  script: Type.String({ minLength: 1, maxLength: 5 * 1024 * 1024, description: 'The integration code; stored per version, not run yet' }),
  secrets: Type.Optional(Type.Record(Type.String({ maxLength: 100 }), Type.String({ maxLength: 10_000 }), { maxProperties: 20, description: 'Stored sealed; never returned' })),
  contentSecurityPolicy: Type.Optional(ContentSecurityPolicy),
  runtime: Type.Optional(Type.Unsafe<'v1' | 'v2'>({ type: 'string', enum: ['v1', 'v2'] })),
});

export const IntegrationSchema = Type.Object({
  object: Type.Literal('integration'),
  name: Type.String(),
  version: Type.Number(),
  title: Type.String(),
  description: Type.String(),
  summary: Type.String(),
  previewImages: Type.Array(Type.String({ format: 'uri' })),
  target: Target,
  verified: Type.Boolean(),
  visibility: Visibility,
  scopes: Type.Array(Scope),
  categories: Type.Array(Category),
  blocks: Type.Array(Block),
  contentSources: Type.Array(ContentSource),
  configurations: Configurations,
  externalLinks: Type.Array(ExternalLink),
  owner: OrganizationSchema,
  urls: Type.Object({
    location: Type.String({ format: 'uri' }),
    icon: Type.Optional(Type.String({ format: 'uri' })),
    app: Type.String({ format: 'uri' }),
    assets: Type.String({ format: 'uri' }),
    publicEndpoint: Type.String({ format: 'uri' }),
  }),
  permissions: Type.Object({ admin: Type.Boolean(), install: Type.Boolean() }),
  contentSecurityPolicy: Type.Optional(ContentSecurityPolicy),
});

const Status = enumOf(['active', 'pending', 'paused'] as const, 'pending: required settings are missing');
const Selection = enumOf(['all', 'selected'] as const, 'Every space (site), or those it is installed on');

export const InstallationSchema = Type.Object({
  id: Type.String(),
  status: Status,
  space_selection: Selection,
  site_selection: Selection,
  spaces: Type.Number({ description: 'How many spaces it is installed on' }),
  configuration: Type.Object({}, { additionalProperties: true }),
  externalIds: Type.Array(Type.String()),
  target: Type.Object({ organization: Type.String() }),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  urls: Type.Object({
    location: Type.String({ format: 'uri' }),
    app: Type.String({ format: 'uri' }),
    publicEndpoint: Type.String({ format: 'uri' }),
  }),
});

export const UpdateInstallationBody = Type.Object({
  externalIds: Type.Optional(ExternalIds),
  configuration: Type.Optional(Type.Object({}, { additionalProperties: true })),
  space_selection: Type.Optional(Selection),
  site_selection: Type.Optional(Selection),
});

const ContentInstallation = {
  integration: Type.String(),
  installation: Type.String(),
  status: Status,
  configuration: Type.Object({}, { additionalProperties: true }),
  externalIds: Type.Array(Type.String()),
  urls: Type.Object({
    location: Type.String({ format: 'uri' }),
    publicEndpoint: Type.String({ format: 'uri', description: "The installation's endpoint for other services' requests, answered by its script" }),
    publicContentEndpoint: Type.String({ format: 'uri' }),
  }),
};

export const SpaceInstallationSchema = Type.Object({
  ...ContentInstallation,
  space: Type.Union([Type.String(), SpaceSchema], { description: 'The space id, or the space with ?extended=true' }),
});

export const SiteInstallationSchema = Type.Object({
  ...ContentInstallation,
  site: Type.Union([Type.String(), SiteSchema], { description: 'The site id, or the site with ?extended=true' }),
});

export const UpdateContentInstallationBody = Type.Object({
  externalIds: Type.Optional(ExternalIds),
  configuration: Type.Optional(Type.Object({}, { additionalProperties: true })),
});

export const IntegrationEventSchema = Type.Object({
  id: Type.String(),
  integrationId: Type.String({ description: "The integration's name" }),
  installationId: Type.String(),
  createdAt: Type.String(),
  payload: Type.Record(Type.String(), Type.Unknown(), { description: 'The event as the script received it' }),
  status: Type.Union([Type.Literal('success'), Type.Literal('failed'), Type.Literal('pending')], { description: 'pending: not delivered yet, or failed and to be retried (see error)' }),
  attempts: Type.Integer({ description: 'Deliveries tried, including one cut off by a stopped process' }),
  error: Type.Optional(Type.String({ description: 'Why the last attempt failed' })),
  updatedAt: Type.String(),
});
