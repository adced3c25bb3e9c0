// Request and response schemas of sites, their structure and share links.
import { Type } from '@sinclair/typebox';
import { IdParam, OrganizationIdParam } from '../schemas.ts';
import { SpaceSchema } from '../spaces/schemas.ts';

export const SiteParams = Type.Object({ organizationId: OrganizationIdParam, siteId: IdParam('The unique id of the site') });

export const SiteVisibilitySchema = Type.Unsafe<'public' | 'unlisted' | 'share-link' | 'visitor-auth'>({
  type: 'string',
  enum: ['public', 'unlisted', 'share-link', 'visitor-auth'],
  description: 'Who may read the published site',
});

export const SiteTitle = Type.String({ minLength: 2, maxLength: 128 });
export const Condition = Type.String({ minLength: 1, maxLength: 1024, description: 'An expression over visitor claims, such as visitor.claims.beta == true' });
export const NullableCondition = Type.Unsafe<string | null>({
  type: 'string',
  minLength: 1,
  maxLength: 1024,
  nullable: true,
  description: 'An expression over visitor claims (visitor.claims.beta == true); null removes it, unset keeps it',
});
export const Icon = Type.Unsafe<string | null>({ type: 'string', maxLength: 50, nullable: true, description: 'An icon name, or null' });

export const ReadCredentialsQuery = {
  shareKey: Type.Optional(Type.String({ maxLength: 200, description: 'Key of an active share link (share-link sites)' })),
  visitorAuthToken: Type.Optional(
    Type.String({ maxLength: 8192, description: "A JWT signed with the site's key (visitor-auth sites); its claims drive conditions" }),
  ),
};

export const SiteSchema = Type.Object({
  object: Type.Literal('site'),
  id: Type.String(),
  type: Type.String(),
  appliedType: Type.String({ description: 'The plan the site runs with: in Quire, its type' }),
  title: Type.String(),
  hostname: Type.Optional(Type.String()),
  basename: Type.Optional(Type.String()),
  proxy: Type.Optional(Type.Object({ origin: Type.String(), target: Type.String() })),
  visibility: Type.String(),
  defaultLevel: Type.String({ description: 'inherit: who in the organization reads the site is as the organization says' }),
  permissions: Type.Object(
    {
      view: Type.Boolean(),
      access: Type.Boolean(),
      edit: Type.Boolean(),
      create: Type.Boolean(),
      admin: Type.Boolean(),
      installIntegration: Type.Boolean(),
      viewAdaptiveSchema: Type.Boolean(),
      editAdaptiveSchema: Type.Boolean(),
    },
    { description: 'What the caller may do with the site' },
  ),
  published: Type.Boolean(),
  siteSpaces: Type.Number({ description: 'How many site spaces the site has' }),
  createdAt: Type.String({ format: 'date-time' }),
  adaptiveContent: Type.Object({ enabled: Type.Boolean() }),
  features: Type.Array(Type.Object({ id: Type.String(), plan: Type.String(), frozen: Type.Boolean() })),
  urls: Type.Object({
    location: Type.String(),
    app: Type.String(),
    preview: Type.String({ description: "Where the organization's members read the site, published or not" }),
    published: Type.Optional(Type.String()),
  }),
});

export const SiteSpaceSchema = Type.Object({
  object: Type.Literal('site-space'),
  id: Type.String(),
  path: Type.String(),
  section: Type.Optional(Type.String()),
  space: SpaceSchema,
  title: Type.String(),
  default: Type.Boolean(),
  condition: Type.Optional(Type.String()),
  draft: Type.Boolean({ description: 'Always false: Quire publishes what is merged' }),
  urls: Type.Object({ published: Type.Optional(Type.String()) }),
});

export const SectionSchema = Type.Object({
  object: Type.Literal('site-section'),
  id: Type.String(),
  title: Type.String(),
  description: Type.Optional(Type.String()),
  default: Type.Boolean(),
  path: Type.String(),
  condition: Type.Optional(Type.String()),
  sectionGroup: Type.Optional(Type.String()),
  draft: Type.Boolean(),
  siteSpaces: Type.Array(SiteSpaceSchema),
  urls: Type.Object({ published: Type.Optional(Type.String()) }),
  icon: Type.Optional(Type.String()),
});

export const SectionGroupSchema = Type.Object({
  object: Type.Literal('site-section-group'),
  id: Type.String(),
  title: Type.String(),
  draft: Type.Boolean(),
  sections: Type.Array(SectionSchema),
  children: Type.Array(SectionSchema, { description: 'What the group holds: its sections' }),
  icon: Type.Optional(Type.String()),
});

export const StructureSchema = Type.Object({
  type: Type.Unsafe<'sections' | 'siteSpaces'>({ type: 'string', enum: ['sections', 'siteSpaces'] }),
  structure: Type.Array(Type.Union([SectionSchema, SectionGroupSchema, SiteSpaceSchema])),
});

export const ShareLinkSchema = Type.Object({
  object: Type.Literal('share-link'),
  id: Type.String(),
  name: Type.String(),
  key: Type.String({ description: 'Pass as shareKey to read the site' }),
  active: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
  urls: Type.Object({ published: Type.String() }),
});

export const AnyObject = Type.Object({}, { additionalProperties: true });

export const AdaptiveSchemaSchema = Type.Object({
  object: Type.Literal('site-adaptive-schema'),
  jsonSchema: AnyObject,
  updatedAt: Type.String({ format: 'date-time' }),
});

const ThemedColor = Type.Object({ light: Type.String({ maxLength: 30 }), dark: Type.String({ maxLength: 30 }) });

/** The customization settings: the fields GitBook documents, each checked for its shape. */
export const CustomizationBody = Type.Object(
  {
    title: Type.Optional(SiteTitle),
    styling: Type.Optional(
      Type.Object({
        theme: Type.Optional(Type.Unsafe<string>({ type: 'string', enum: ['clean', 'muted', 'bold', 'gradient'] })),
        primaryColor: Type.Optional(ThemedColor),
        infoColor: Type.Optional(ThemedColor),
        successColor: Type.Optional(ThemedColor),
        warningColor: Type.Optional(ThemedColor),
        dangerColor: Type.Optional(ThemedColor),
        tint: Type.Optional(Type.Object({ color: ThemedColor })),
        corners: Type.Optional(Type.Unsafe<string>({ type: 'string', enum: ['straight', 'rounded', 'circular'] })),
        links: Type.Optional(Type.Unsafe<string>({ type: 'string', enum: ['default', 'accent'] })),
        font: Type.Optional(Type.String({ maxLength: 100 })),
        icons: Type.Optional(Type.Unsafe<string>({ type: 'string', enum: ['regular', 'solid', 'duotone', 'light', 'thin'] })),
        sidebar: Type.Optional(Type.Object({ background: Type.String({ maxLength: 20 }), list: Type.String({ maxLength: 20 }) })),
        search: Type.Optional(Type.Unsafe<string>({ type: 'string', enum: ['subtle', 'prominent'] })),
      }),
    ),
    internationalization: Type.Optional(Type.Object({ locale: Type.String({ minLength: 2, maxLength: 10 }) })),
    favicon: Type.Optional(AnyObject),
    header: Type.Optional(AnyObject),
    footer: Type.Optional(AnyObject),
    announcement: Type.Optional(
      Type.Object({
        enabled: Type.Boolean(),
        message: Type.Optional(Type.String({ maxLength: 500 })),
        link: Type.Optional(AnyObject),
        style: Type.Optional(Type.Unsafe<string>({ type: 'string', enum: ['info', 'warning', 'danger', 'success'] })),
      }),
    ),
    themes: Type.Optional(
      Type.Object({ default: Type.Unsafe<string>({ type: 'string', enum: ['light', 'dark'] }), toggeable: Type.Boolean() }),
    ),
    pdf: Type.Optional(Type.Object({ enabled: Type.Boolean() })),
    feedback: Type.Optional(Type.Object({ enabled: Type.Boolean() })),
    aiSearch: Type.Optional(Type.Object({ enabled: Type.Boolean() })),
    ai: Type.Optional(Type.Object({ pageLinkSummaries: Type.Optional(Type.Object({ enabled: Type.Boolean() })) })),
  },
  { additionalProperties: false },
);

const VisitorAuthBackend = Type.Union([Type.Literal('custom'), Type.Literal('integration')], {
  description: 'Who signs visitors in: "custom", your own service signing tokens with privateKey; "integration", the visitor authentication integration installed on the site',
});
const VisitorUrl = (description: string) => Type.String({ minLength: 1, maxLength: 2048, description });
const FALLBACK = 'Where a visitor without a valid token is sent, with the page asked for as ?location=';
const LOGOUT = "Your service's sign-out, linked from the site's pages for signed-in visitors";

/** GitBook's SitePublishingAuth. */
export const PublishingAuthSchema = Type.Object({
  object: Type.Literal('publishing-auth', { description: 'Always "publishing-auth"' }),
  backend: Type.Union([Type.Literal('custom'), Type.Literal('integration')], {
    description: 'custom: visitors bring a token your service signs (HS256) with privateKey, and are sent to fallbackURL to get one; integration: the visitor-auth integration installed on the site signs them in',
  }),
  integration: Type.Optional(Type.String({ description: 'The name of the visitor authentication integration installed on the site (one with the site:visitor:auth scope), if any' })),
  privateKey: Type.String({ description: 'The key visitor tokens are signed with (HS256); regenerate it to refuse every token signed before' }),
  fallbackURL: Type.Optional(VisitorUrl(FALLBACK)),
  logoutURL: Type.Optional(VisitorUrl(LOGOUT)),
});

/** GitBook's SitePublishingAuthUpdate: an absent URL stays, null unsets it. */
export const PublishingAuthUpdateBody = Type.Object({
  backend: VisitorAuthBackend,
  fallbackURL: Type.Optional(Type.Union([VisitorUrl(FALLBACK), Type.Null()], { description: `${FALLBACK}; null unsets it` })),
  logoutURL: Type.Optional(Type.Union([VisitorUrl(LOGOUT), Type.Null()], { description: `${LOGOUT}; null unsets it` })),
});
