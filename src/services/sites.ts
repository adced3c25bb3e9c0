// Sites: what readers see, published from one or more spaces.
import { Ajv } from 'ajv';
import { BadRequest, Conflict, NotFound } from '../errors.ts';
import { deleteShareLink, deleteSite, findShareLink, insertShareLink, insertSite, isSiteHostnameTaken, shareLinksQuery, sitesQuery, updateShareLink, updateSite, type SiteFilter } from '../db/repos/sites.ts';
import { countSiteSpaces, insertSiteSpace, readSiteStructure, updateSection } from '../db/repos/siteStructure.ts';
import { findSpace } from '../db/repos/spaces.ts';
import { installationsOnSite } from '../db/repos/integrations.ts';
import type { Db, SiteRow } from '../db/schema.ts';
import { paginate, type PageRequest } from '../db/pagination.ts';
import { isoNow } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { presentCustomization } from '../presenters/siteCustomization.ts';
import { presentPublishingAuth, presentShareLink, presentSite } from '../presenters/site.ts';
import type { Actor, ServiceContext } from './context.ts';
import { siteScripts, visitorAuthInstallation } from './integrationEvents.ts';
import { accessFromRow, authorizeInOrganization, organizationWithAccess } from './organizations.ts';
import { authorizeSiteManagement, authorizeSiteRead, presentStructure, type ReadCredentials } from './siteAccess.ts';
import { settleDefaults } from './siteStructure.ts';
import { positionAmong } from '../lib/positions.ts';
import { slugify, uniquePath } from '../lib/slugs.ts';
import { createSpace } from './spaces.ts';
import { changeSite } from './events.ts';

export type SiteVisibility = 'public' | 'unlisted' | 'share-link' | 'visitor-auth';
export const SITE_TYPES = ['basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium'] as const;

async function present(ctx: ServiceContext, actor: Actor, site: SiteRow) {
  const [siteSpaces, organization] = await Promise.all([countSiteSpaces(ctx.db, site.id), organizationWithAccess(ctx, ctx.db, actor, site.organization_id)]);
  return presentSite(ctx.config.publicUrl, site, siteSpaces, accessFromRow(organization));
}

async function reload(ctx: ServiceContext, actor: Actor, organizationId: string, siteId: string) {
  return present(ctx, actor, await authorizeSiteManagement(ctx, ctx.db, actor, organizationId, siteId));
}

export async function listSites(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  options: PageRequest & { space?: string; title?: string; published?: boolean; type?: string[] },
) {
  await authorizeInOrganization(ctx, ctx.db, actor, organizationId, 'view');
  const filter: SiteFilter = { spaceId: options.space, title: options.title, published: options.published, types: options.type };
  const page = await paginate(
    sitesQuery(ctx.db, organizationId, filter),
    [
      { column: 'si.created_at', direction: 'desc', value: (row) => row.created_at },
      { column: 'si.id', direction: 'desc', value: (row) => row.id },
    ],
    options,
    (row) => row,
  );
  return { ...page, items: await Promise.all(page.items.map((site) => present(ctx, actor, site))) };
}

/** A space to add to a new site: an existing space's id, or the title of a space to create for it. */
export type SiteSpaceRequest = string | { title?: string };

/** Adds a space as a site space of a site without sections (or of a section). */
export async function addSpaceToSite(
  ctx: ServiceContext,
  trx: Db,
  site: SiteRow,
  spaceId: string,
  sectionId: string | null,
) {
  const space = await findSpace(trx, spaceId);
  if (!space || space.deleted_at !== null || space.organization_id !== site.organization_id) {
    throw new BadRequest(`spaceId: no space with id "${spaceId}" in this organization`);
  }
  const structure = await readSiteStructure(trx, site.id);
  const scope = structure.siteSpaces.filter((ss) => ss.section_id === sectionId);
  const id = newId();
  await insertSiteSpace(trx, {
    id,
    site_id: site.id,
    section_id: sectionId,
    space_id: spaceId,
    path: uniquePath(slugify(space.title, 'space'), scope.map((ss) => ss.path)),
    condition: null,
    position: positionAmong(scope, undefined, 'site space'),
    created_at: isoNow(ctx.clock),
  });
  await settleDefaults(trx, site.id);
  return id;
}

export async function createSite(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  input: { type?: string; title: string; visibility?: SiteVisibility; spaces?: SiteSpaceRequest[] },
) {
  await authorizeInOrganization(ctx, ctx.db, actor, organizationId, 'createContent');
  // New spaces are created first, each in its own transaction, like any other space.
  const spaceIds: string[] = [];
  for (const request of input.spaces ?? []) {
    spaceIds.push(
      typeof request === 'string'
        ? request
        : (await createSpace(ctx, actor, organizationId, { title: request.title ?? input.title.slice(0, 50) })).id,
    );
  }
  const siteId = newId();
  await ctx.db.transaction().execute(async (trx) => {
    const now = isoNow(ctx.clock);
    const site: SiteRow = {
      id: siteId,
      organization_id: organizationId,
      type: input.type ?? 'basic',
      title: input.title,
      hostname: null,
      basename: null,
      proxy_origin: null,
      visibility: input.visibility ?? 'public',
      published: 0,
      adaptive_enabled: 0,
      adaptive_schema: null,
      adaptive_schema_updated_at: null,
      customization: '{}',
      visitor_key: newId(43),
      visitor_fallback_url: null,
      visitor_backend: 'custom',
      visitor_logout_url: null,
      default_section_id: null,
      default_site_space_id: null,
      created_at: now,
      updated_at: now,
    };
    await insertSite(trx, site);
    for (const spaceId of spaceIds) await addSpaceToSite(ctx, trx, site, spaceId, null);
  });
  return reload(ctx, actor, organizationId, siteId);
}

export async function getSite(ctx: ServiceContext, actor: Actor, organizationId: string, siteId: string) {
  const { site } = await authorizeSiteRead(ctx, actor, organizationId, siteId, {});
  return present(ctx, actor, site);
}

export interface SiteChanges {
  title?: string;
  visibility?: SiteVisibility;
  basename?: string | null;
  hostname?: string | null;
  adaptiveContent?: { enabled: boolean };
  defaultSiteSpace?: string;
  defaultSiteSection?: string;
  proxy?: string | null;
}

function proxyOrigin(proxy: string): string {
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(proxy) ? proxy : `https://${proxy}`);
  } catch {
    throw new BadRequest(`proxy: "${proxy}" is not a URL such as example.com/docs`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new BadRequest('proxy: the URL must use http or https');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

export async function patchSite(ctx: ServiceContext, actor: Actor, organizationId: string, siteId: string, changes: SiteChanges) {
  await changeSite(ctx, organizationId, siteId, async (trx) => {
    await authorizeSiteManagement(ctx, trx, actor, organizationId, siteId);
    const update: Parameters<typeof updateSite>[2] = { updated_at: isoNow(ctx.clock) };
    if (changes.title !== undefined) update.title = changes.title;
    if (changes.visibility !== undefined) update.visibility = changes.visibility;
    if (changes.basename !== undefined) update.basename = changes.basename;
    if (changes.hostname !== undefined) {
      if (changes.hostname && (await isSiteHostnameTaken(trx, changes.hostname, siteId))) throw new Conflict(`The hostname "${changes.hostname}" is already used by another site`);
      update.hostname = changes.hostname;
    }
    if (changes.adaptiveContent !== undefined) update.adaptive_enabled = changes.adaptiveContent.enabled ? 1 : 0;
    if (changes.proxy !== undefined) update.proxy_origin = changes.proxy === null ? null : proxyOrigin(changes.proxy);
    const structure = await readSiteStructure(trx, siteId);
    if (changes.defaultSiteSection !== undefined) {
      if (!structure.sections.some((section) => section.id === changes.defaultSiteSection)) {
        throw new BadRequest(`defaultSiteSection: no section "${changes.defaultSiteSection}" in this site`);
      }
      update.default_section_id = changes.defaultSiteSection;
    }
    if (changes.defaultSiteSpace !== undefined) {
      const siteSpace = structure.siteSpaces.find((ss) => ss.id === changes.defaultSiteSpace);
      if (!siteSpace) throw new BadRequest(`defaultSiteSpace: no site space "${changes.defaultSiteSpace}" in this site`);
      if (siteSpace.section_id === null) update.default_site_space_id = siteSpace.id;
      else {
        // The default site space of a site with sections is the default of its default section.
        update.default_section_id = siteSpace.section_id;
        await updateSection(trx, siteSpace.section_id, { default_site_space_id: siteSpace.id });
      }
    }
    await updateSite(trx, siteId, update);
    await settleDefaults(trx, siteId);
  });
  return reload(ctx, actor, organizationId, siteId);
}

export async function removeSite(ctx: ServiceContext, actor: Actor, organizationId: string, siteId: string) {
  await changeSite(ctx, organizationId, siteId, async (trx) => {
    await authorizeSiteManagement(ctx, trx, actor, organizationId, siteId);
    await deleteSite(trx, siteId);
  });
}

export async function setPublished(ctx: ServiceContext, actor: Actor, organizationId: string, siteId: string, published: boolean) {
  await changeSite(ctx, organizationId, siteId, async (trx) => {
    await authorizeSiteManagement(ctx, trx, actor, organizationId, siteId);
    await updateSite(trx, siteId, { published: published ? 1 : 0, updated_at: isoNow(ctx.clock) });
  });
  return reload(ctx, actor, organizationId, siteId);
}

export async function getStructure(ctx: ServiceContext, actor: Actor, organizationId: string, siteId: string, credentials: ReadCredentials) {
  const reader = await authorizeSiteRead(ctx, actor, organizationId, siteId, credentials);
  const { type, structure } = await presentStructure(ctx, actor, reader);
  return { type, structure };
}

export async function getPublished(ctx: ServiceContext, actor: Actor, organizationId: string, siteId: string, credentials: ReadCredentials) {
  const reader = await authorizeSiteRead(ctx, actor, organizationId, siteId, credentials);
  const { type, structure, siteSpaces } = await presentStructure(ctx, actor, reader);
  const customization = presentCustomization(reader.site.title, reader.site.customization);
  return {
    object: 'published-content-site' as const,
    site: await present(ctx, actor, reader.site),
    structure: { type, structure },
    // Quire customizes a site as a whole: each site space reads the site's settings.
    customizations: { site: customization, siteSpaces: Object.fromEntries(siteSpaces.map((siteSpace) => [siteSpace.id, customization])) },
    scripts: siteScripts(ctx, reader.site, await installationsOnSite(ctx.db, reader.site.organization_id, reader.site.id)),
  };
}

export async function getCustomization(ctx: ServiceContext, actor: Actor, organizationId: string, siteId: string) {
  const { site } = await authorizeSiteRead(ctx, actor, organizationId, siteId, {});
  return presentCustomization(site.title, site.customization);
}

export async function putCustomization(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  siteId: string,
  settings: Record<string, unknown>,
) {
  return changeSite(ctx, organizationId, siteId, async (trx) => {
    const site = await authorizeSiteManagement(ctx, trx, actor, organizationId, siteId);
    const stored = JSON.stringify(settings);
    await updateSite(trx, siteId, { customization: stored, updated_at: isoNow(ctx.clock) });
    return presentCustomization(site.title, stored);
  });
}

const DEFAULT_ADAPTIVE_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {},
  additionalProperties: false,
};

const draft07 = new Ajv({ strict: false });

/** The adaptive schema describes visitor claims: a draft-07 object schema of described booleans. */
function checkAdaptiveSchema(schema: Record<string, unknown>): void {
  if (schema.type !== 'object') throw new BadRequest('jsonSchema.type must be "object"');
  if (schema.$schema !== undefined && !String(schema.$schema).includes('draft-07')) {
    throw new BadRequest('jsonSchema.$schema must be the draft-07 meta-schema');
  }
  const properties = schema.properties;
  if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) {
    throw new BadRequest('jsonSchema.properties must be an object of claims');
  }
  for (const [name, property] of Object.entries(properties as Record<string, Record<string, unknown>>)) {
    if (property?.type !== 'boolean') throw new BadRequest(`jsonSchema.properties.${name}.type must be "boolean"`);
    if (typeof property.description !== 'string' || property.description.length === 0) {
      throw new BadRequest(`jsonSchema.properties.${name}.description must say what the claim means`);
    }
  }
  try {
    draft07.compile(schema);
  } catch (error) {
    throw new BadRequest(`jsonSchema is not a valid JSON Schema: ${(error as Error).message}`);
  }
}

export async function getAdaptiveSchema(ctx: ServiceContext, actor: Actor, organizationId: string, siteId: string) {
  const { site } = await authorizeSiteRead(ctx, actor, organizationId, siteId, {});
  return {
    object: 'site-adaptive-schema' as const,
    jsonSchema: site.adaptive_schema ? JSON.parse(site.adaptive_schema) : DEFAULT_ADAPTIVE_SCHEMA,
    updatedAt: site.adaptive_schema_updated_at ?? site.created_at,
  };
}

export async function putAdaptiveSchema(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  siteId: string,
  jsonSchema: Record<string, unknown>,
) {
  return changeSite(ctx, organizationId, siteId, async (trx) => {
    await authorizeSiteManagement(ctx, trx, actor, organizationId, siteId);
    checkAdaptiveSchema(jsonSchema);
    const now = isoNow(ctx.clock);
    await updateSite(trx, siteId, { adaptive_schema: JSON.stringify(jsonSchema), adaptive_schema_updated_at: now });
    return { object: 'site-adaptive-schema' as const, jsonSchema, updatedAt: now };
  });
}

/** The key that signs visitor-authentication tokens, and where readers are sent, for the site's administrators. */
export async function getPublishingAuth(ctx: ServiceContext, actor: Actor, organizationId: string, siteId: string) {
  const site = await authorizeSiteManagement(ctx, ctx.db, actor, organizationId, siteId);
  return presentPublishingAuth(site, (await visitorAuthInstallation(ctx.db, site))?.integrationName);
}

export interface PublishingAuthUpdate {
  backend: 'custom' | 'integration';
  /** Absent: unchanged; null: unset. */
  fallbackURL?: string | null;
  logoutURL?: string | null;
}

/** An absolute http(s) URL, or a 400 naming the field: a reader is sent there. */
function webUrl(field: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new BadRequest(`${field} must be an absolute URL, such as https://example.com/login`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new BadRequest(`${field} must be an http or https URL`);
  return value;
}

export async function updatePublishingAuth(ctx: ServiceContext, actor: Actor, organizationId: string, siteId: string, update: PublishingAuthUpdate) {
  return changeSite(ctx, organizationId, siteId, async (trx) => {
    const site = await authorizeSiteManagement(ctx, trx, actor, organizationId, siteId);
    const signing = await visitorAuthInstallation(trx, site);
    if (update.backend === 'integration' && !signing) {
      throw new BadRequest('The "integration" backend needs a visitor authentication integration (one with the site:visitor:auth scope) installed on this site: install one on the site first, or use "custom"');
    }
    const changes: Partial<SiteRow> = {};
    if (update.backend !== site.visitor_backend) changes.visitor_backend = update.backend;
    if (update.fallbackURL !== undefined) changes.visitor_fallback_url = update.fallbackURL === null ? null : webUrl('fallbackURL', update.fallbackURL);
    if (update.logoutURL !== undefined) changes.visitor_logout_url = update.logoutURL === null ? null : webUrl('logoutURL', update.logoutURL);
    if (Object.keys(changes).length) await updateSite(trx, siteId, { ...changes, updated_at: isoNow(ctx.clock) });
    return presentPublishingAuth({ ...site, ...changes }, signing?.integrationName);
  });
}

/** A new key: tokens signed with the old one open the site no more. */
export async function regeneratePublishingAuth(ctx: ServiceContext, actor: Actor, organizationId: string, siteId: string) {
  return changeSite(ctx, organizationId, siteId, async (trx) => {
    const site = await authorizeSiteManagement(ctx, trx, actor, organizationId, siteId);
    const visitor_key = newId(43);
    await updateSite(trx, siteId, { visitor_key, updated_at: isoNow(ctx.clock) });
    return presentPublishingAuth({ ...site, visitor_key }, (await visitorAuthInstallation(trx, site))?.integrationName);
  });
}

export async function listShareLinks(ctx: ServiceContext, actor: Actor, organizationId: string, siteId: string, page: PageRequest) {
  const site = await authorizeSiteManagement(ctx, ctx.db, actor, organizationId, siteId);
  return paginate(
    shareLinksQuery(ctx.db, siteId),
    [
      { column: 'sl.created_at', direction: 'desc', value: (row) => row.created_at },
      { column: 'sl.id', direction: 'desc', value: (row) => row.id },
    ],
    page,
    (row) => presentShareLink(ctx.config.publicUrl, site, row),
  );
}

export async function createShareLink(ctx: ServiceContext, actor: Actor, organizationId: string, siteId: string, name: string) {
  return changeSite(ctx, organizationId, siteId, async (trx) => {
    const site = await authorizeSiteManagement(ctx, trx, actor, organizationId, siteId);
    const link = { id: newId(), site_id: siteId, name, share_key: newId(32), active: 1 as const, created_at: isoNow(ctx.clock) };
    await insertShareLink(trx, link);
    return presentShareLink(ctx.config.publicUrl, site, link);
  });
}

export async function patchShareLink(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  siteId: string,
  shareLinkId: string,
  changes: { name?: string; active?: boolean },
) {
  return changeSite(ctx, organizationId, siteId, async (trx) => {
    const site = await authorizeSiteManagement(ctx, trx, actor, organizationId, siteId);
    const link = await findShareLink(trx, siteId, shareLinkId);
    if (!link) throw new NotFound(`No share link with id "${shareLinkId}" on this site`);
    const update = {
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.active !== undefined ? { active: (changes.active ? 1 : 0) as 0 | 1 } : {}),
    };
    await updateShareLink(trx, shareLinkId, update);
    return presentShareLink(ctx.config.publicUrl, site, { ...link, ...update });
  });
}

export async function removeShareLink(ctx: ServiceContext, actor: Actor, organizationId: string, siteId: string, shareLinkId: string) {
  await changeSite(ctx, organizationId, siteId, async (trx) => {
    await authorizeSiteManagement(ctx, trx, actor, organizationId, siteId);
    if (!(await findShareLink(trx, siteId, shareLinkId))) throw new NotFound(`No share link with id "${shareLinkId}" on this site`);
    await deleteShareLink(trx, shareLinkId);
  });
}
