// Integrations: published by an organization's administrators, visible to everyone
// (public, unlisted) or to that organization only (private). Each publication bumps
// the version and stores the script under it; icons and preview images become files
// served from urls.icon and previewImages; secrets are sealed (AES-256-GCM) and never
// presented. The scripts run in the sandbox (src/sandbox/), fed by integrationEvents.ts.
import { BadRequest, Conflict, Forbidden, NotFound } from '../errors.ts';
import { administersAnOrganization, installationsOfIntegration, deleteIntegration, deleteIntegrationAssets, findIntegration, findIntegrationAsset, insertIntegration, insertIntegrationAssets, insertIntegrationScript, integrationsQuery, updateIntegration, type IntegrationFilters } from '../db/repos/integrations.ts';
import { findOrganizationByHostname, findOrganizationWithAccess, lockOrganization } from '../db/repos/organizations.ts';
import type { Db, IntegrationAssetRow, IntegrationRow } from '../db/schema.ts';
import { paginate, type PageRequest } from '../db/pagination.ts';
import { isoNow } from '../lib/clock.ts';
import type { IntegrationCategory, IntegrationScope } from '../lib/integrationLists.ts';
import { newId } from '../lib/ids.ts';
import { seal } from '../lib/secretBox.ts';
import { decodeBase64, imageFacts } from '../lib/uploads.ts';
import { organizationPermissions } from '../policies/organization.ts';
import { presentIntegration, type IntegrationManifest } from '../presenters/integration.ts';
import { presentOrganization } from '../presenters/organization.ts';
import type { Actor, ServiceContext } from './context.ts';
import { accessFromRow, authorizeInOrganization, isAdministrator } from './organizations.ts';
import { regrantInstallations, retireInstallationIdentity } from './integrationIdentity.ts';

/** Icons and preview images are pictures, not downloads: 2 MB each at most. */
export const MAX_INTEGRATION_IMAGE_BYTES = 2 * 1024 * 1024;

export interface PublishIntegrationInput {
  organization: string;
  title: string;
  description: string;
  summary?: string;
  icon?: string;
  previewImages?: string[];
  visibility?: IntegrationRow['visibility'];
  target?: IntegrationRow['target'];
  scopes: IntegrationScope[];
  categories?: IntegrationCategory[];
  blocks?: IntegrationManifest['blocks'];
  contentSources?: IntegrationManifest['contentSources'];
  externalLinks?: IntegrationManifest['externalLinks'];
  configurations?: IntegrationManifest['configurations'];
  script: string;
  secrets?: Record<string, string>;
  contentSecurityPolicy?: string | Record<string, string>;
}

/** The caller may see a private integration only as a member (with a role) of its owner. */
export async function visibleIntegration(db: Db, actor: Actor, name: string) {
  const integration = await findIntegration(db, name);
  if (integration && integration.visibility !== 'private') return integration;
  if (integration) {
    const access = accessFromRow(await findOrganizationWithAccess(db, integration.organization_id, actor.user.id));
    if (access?.isMember && access.role !== null) return integration;
  }
  throw new NotFound(`No integration named "${name}"`);
}

/** The integration, checked to be one the caller administers through its owner (403 for others who see it). */
export async function administeredIntegration(db: Db, actor: Actor, name: string) {
  const integration = await visibleIntegration(db, actor, name);
  if (!isAdministrator(await findOrganizationWithAccess(db, integration.organization_id, actor.user.id))) {
    throw new Forbidden('Only administrators of the organization that publishes this integration may do this');
  }
  return integration;
}

/** Presents integrations for one caller: the owner organizations are read once each. */
export async function presentIntegrations(ctx: ServiceContext, actor: Actor, integrations: IntegrationRow[]) {
  const ownerIds = [...new Set(integrations.map((integration) => integration.organization_id))];
  const [owners, install] = await Promise.all([
    Promise.all(ownerIds.map((id) => findOrganizationWithAccess(ctx.db, id, actor.user.id))),
    administersAnOrganization(ctx.db, actor.user.id),
  ]);
  const ownerById = new Map(owners.filter((owner) => owner !== undefined).map((owner) => [owner.id, owner]));
  return integrations.map((integration) => {
    const owner = ownerById.get(integration.organization_id)!;
    const access = accessFromRow(owner)!;
    return presentIntegration(ctx.config.publicUrl, integration, presentOrganization(ctx.config.publicUrl, owner, access), {
      admin: organizationPermissions(access).admin,
      install,
    });
  });
}

export async function listIntegrations(
  ctx: ServiceContext,
  actor: Actor,
  options: PageRequest & Omit<IntegrationFilters, 'userId'>,
) {
  const page = await paginate(
    integrationsQuery(ctx.db, { ...options, userId: actor.user.id }),
    [
      { column: 'i.created_at', direction: 'desc', value: (row) => row.created_at },
      { column: 'i.name', direction: 'desc', value: (row) => row.name },
    ],
    options,
    (row) => row,
  );
  return { ...page, items: await presentIntegrations(ctx, actor, page.items) };
}

export async function getIntegration(ctx: ServiceContext, actor: Actor, name: string) {
  return (await presentIntegrations(ctx, actor, [await visibleIntegration(ctx.db, actor, name)]))[0];
}

/** An organization named by id or by subdomain, as the integration operations accept. */
export async function resolveOrganization(ctx: ServiceContext, idOrSubdomain: string): Promise<string> {
  const byHostname = await findOrganizationByHostname(ctx.db, idOrSubdomain.toLowerCase());
  return byHostname?.id ?? idOrSubdomain;
}

function image(base64: string, where: string, integrationName: string): IntegrationAssetRow {
  const { base64: data, bytes } = decodeBase64(base64, where);
  if (bytes.length > MAX_INTEGRATION_IMAGE_BYTES) throw new BadRequest(`${where}: images are limited to 2 MB each`);
  const facts = imageFacts(bytes);
  if (!facts) throw new BadRequest(`${where}: not an image (PNG, JPEG, GIF, WebP, SVG or ICO)`);
  return { id: newId(), integration_name: integrationName, content_type: facts.contentType, data };
}

function blockDomains(blocks: IntegrationManifest['blocks']): string[] {
  const domains = new Set<string>();
  for (const block of blocks) {
    for (const pattern of block.urlUnfurl ?? []) {
      // Unfurl patterns are URLs, possibly with wildcards in the path.
      const host = /^[a-z][a-z0-9+.-]*:\/\/([^/?#:]+)/i.exec(pattern)?.[1];
      if (host) domains.add(host.toLowerCase());
    }
  }
  return [...domains];
}

function checkConfigurations(configurations: PublishIntegrationInput['configurations']): void {
  for (const [target, configuration] of Object.entries(configurations ?? {})) {
    if (!configuration) continue;
    const hasSchema = configuration.properties !== undefined;
    if (hasSchema === (configuration.componentId !== undefined)) {
      throw new BadRequest(`configurations.${target}: give either properties (a schema) or componentId`);
    }
    const missing = (configuration.required ?? []).filter((key) => !(key in (configuration.properties ?? {})));
    if (missing.length > 0) {
      throw new BadRequest(`configurations.${target}.required: not among its properties: ${missing.join(', ')}`);
    }
  }
}

export async function publishIntegration(ctx: ServiceContext, actor: Actor, name: string, input: PublishIntegrationInput) {
  const organizationId = await resolveOrganization(ctx, input.organization);
  await authorizeInOrganization(ctx, ctx.db, actor, organizationId, 'admin');
  checkConfigurations(input.configurations);
  const icon = input.icon !== undefined ? image(input.icon, 'icon', name) : undefined;
  const previews = input.previewImages?.map((base64, index) => image(base64, `previewImages.${index}`, name));
  const blocks = input.blocks ?? [];
  const contentSources = input.contentSources ?? [];
  const manifest: IntegrationManifest = {
    scopes: [...new Set(input.scopes)],
    categories: [...new Set(input.categories ?? [])],
    blocks,
    contentSources,
    externalLinks: input.externalLinks ?? [],
    configurations: input.configurations ?? {},
    ...(input.contentSecurityPolicy !== undefined ? { contentSecurityPolicy: input.contentSecurityPolicy } : {}),
  };
  const secrets = input.secrets !== undefined ? seal(ctx.secretsKey(), JSON.stringify(input.secrets)) : undefined;

  await ctx.db.transaction().execute(async (trx) => {
    await lockOrganization(trx, organizationId);
    const existing = await findIntegration(trx, name);
    if (existing && existing.organization_id !== organizationId) {
      throw new Conflict(`The name "${name}" belongs to an integration of another organization; choose another name`);
    }
    const now = isoNow(ctx.clock);
    const version = (existing?.version ?? 0) + 1;
    const columns = {
      organization_id: organizationId,
      version,
      title: input.title,
      description: input.description,
      summary: input.summary ?? '',
      visibility: input.visibility ?? 'public',
      target: input.target ?? 'all',
      manifest: JSON.stringify(manifest),
      categories: JSON.stringify(manifest.categories),
      block_domains: JSON.stringify(blockDomains(blocks)),
      has_blocks: blocks.length > 0 ? (1 as const) : (0 as const),
      has_content_sources: contentSources.length > 0 ? (1 as const) : (0 as const),
      updated_at: now,
    };
    // Images and secrets left out of a new publication stay as they were.
    const replaced = [
      ...(icon && existing?.icon_asset_id ? [existing.icon_asset_id] : []),
      ...(previews && existing ? (JSON.parse(existing.preview_asset_ids) as string[]) : []),
    ];
    if (existing) {
      await updateIntegration(trx, name, {
        ...columns,
        ...(icon ? { icon_asset_id: icon.id } : {}),
        ...(previews ? { preview_asset_ids: JSON.stringify(previews.map((preview) => preview.id)) } : {}),
        ...(secrets !== undefined ? { secrets } : {}),
      });
    } else {
      await insertIntegration(trx, {
        name,
        ...columns,
        icon_asset_id: icon?.id ?? null,
        preview_asset_ids: JSON.stringify((previews ?? []).map((preview) => preview.id)),
        secrets: secrets ?? null,
        created_at: now,
      });
    }
    await insertIntegrationAssets(trx, [...(icon ? [icon] : []), ...(previews ?? [])]);
    await deleteIntegrationAssets(trx, replaced);
    await insertIntegrationScript(trx, { integration_name: name, version, script: input.script, created_at: now });
    // The scopes may have changed: what the installations' tokens reach follows them.
    if (existing) await regrantInstallations(trx, (await findIntegration(trx, name))!, ctx.clock);
  });
  return getIntegration(ctx, actor, name);
}

/** Unpublishing removes the integration everywhere it is installed. */
export async function unpublishIntegration(ctx: ServiceContext, actor: Actor, name: string) {
  await ctx.db.transaction().execute(async (trx) => {
    await administeredIntegration(trx, actor, name);
    for (const installation of await installationsOfIntegration(trx, name)) await retireInstallationIdentity(ctx, trx, installation);
    await deleteIntegration(trx, name);
  });
}

/** An icon or preview image, for anyone holding its unguessable URL. */
export async function integrationAsset(ctx: ServiceContext, assetId: string) {
  const asset = await findIntegrationAsset(ctx.db, assetId);
  return asset ? { contentType: asset.content_type, bytes: Buffer.from(asset.data, 'base64') } : undefined;
}
