// Where integrations are installed: on organizations (by their administrators), and
// from there on the organization's spaces and sites. An installation's configuration is checked
// against the schema the integration published for it (ajv); an installation whose
// required settings are missing is `pending` until they are given.
import { Ajv } from 'ajv';
import { BadRequest, Conflict, Forbidden, NotFound } from '../errors.ts';
import { deleteInstallation, deleteSiteInstallation, deleteSpaceInstallation, findInstallation, findInstallationInOrganization, findSiteInstallation, findSpaceInstallation, insertInstallation, insertSiteInstallation, insertSpaceInstallation, installationsQuery, siteInstallationsQuery, spaceInstallationsQuery, updateInstallation, updateSiteInstallation, updateSpaceInstallation } from '../db/repos/integrations.ts';
import { findOrganizationWithAccess } from '../db/repos/organizations.ts';
import type { Db, InstallationWithCountsRow, InstallationRow, IntegrationRow, SiteInstallationRow, SpaceInstallationRow } from '../db/schema.ts';
import { paginate, type PageRequest } from '../db/pagination.ts';
import { isoNow } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { organizationPermissions } from '../policies/organization.ts';
import {
  presentInstallation,
  presentSiteInstallation,
  presentSpaceInstallation,
  type IntegrationConfiguration,
  type IntegrationManifest,
} from '../presenters/integration.ts';
import { authorizeSpace } from './contentAccess.ts';
import type { Actor, ServiceContext } from './context.ts';
import { administeredIntegration, resolveOrganization, visibleIntegration } from './integrations.ts';
import { accessFromRow, authorizeInOrganization } from './organizations.ts';
import { getSpace } from './spaces.ts';
import { getSite } from './sites.ts';
import { authorizeSiteManagement } from './siteAccess.ts';
import { grantInstallationSpace, installationToken, regrantInstallation, retireInstallationIdentity } from './integrationIdentity.ts';
import { deleteGrant } from '../db/repos/grants.ts';
import { afterCommit, recordEvent } from './events.ts';

type ConfigurationTarget = 'account' | 'space' | 'site';

const ajv = new Ajv({ allErrors: false, strict: false });

function schemaOf(integration: IntegrationRow, target: ConfigurationTarget): IntegrationConfiguration | undefined {
  const configuration = (JSON.parse(integration.manifest) as IntegrationManifest).configurations[target];
  return configuration?.properties ? configuration : undefined;
}

/**
 * The configuration checked against the integration's schema for `target` (buttons
 * hold no value); fields it does not know are refused, so typos do not pass silently.
 */
function checkedConfiguration(integration: IntegrationRow, target: ConfigurationTarget, configuration: Record<string, unknown>) {
  const schema = schemaOf(integration, target);
  if (!schema) return configuration;
  const properties = Object.fromEntries(
    Object.entries(schema.properties ?? {})
      .filter(([, property]) => property.type !== 'button')
      .map(([key, property]) => [key, { type: property.type, ...(property.enum ? { enum: property.enum } : {}) }]),
  );
  const validate = ajv.compile({ type: 'object', properties, additionalProperties: false });
  if (!validate(configuration)) {
    const [error] = validate.errors ?? [];
    const field = error?.keyword === 'additionalProperties' ? `.${String(error.params.additionalProperty)}` : error?.instancePath.replace(/\//g, '.') ?? '';
    throw new BadRequest(`configuration${field}: ${error?.keyword === 'additionalProperties' ? 'not a setting of this integration' : error?.message ?? 'is invalid'}`);
  }
  return configuration;
}

/** Defaults the schema declares, for a new installation. */
function defaultConfiguration(integration: IntegrationRow, target: ConfigurationTarget): Record<string, unknown> {
  const properties = schemaOf(integration, target)?.properties ?? {};
  return Object.fromEntries(
    Object.entries(properties)
      .filter(([, property]) => property.default !== undefined)
      .map(([key, property]) => [key, property.default]),
  );
}

function statusOf(integration: IntegrationRow, target: ConfigurationTarget, configuration: Record<string, unknown>) {
  const required = schemaOf(integration, target)?.required ?? [];
  return required.every((key) => configuration[key] !== undefined) ? ('active' as const) : ('pending' as const);
}

/** The columns a change of settings writes: deduplicated external ids, a checked configuration and the status it gives. */
function settingsChanges(
  integration: IntegrationRow,
  target: ConfigurationTarget,
  changes: { externalIds?: string[]; configuration?: Record<string, unknown> },
) {
  const configuration = changes.configuration && checkedConfiguration(integration, target, changes.configuration);
  return {
    ...(changes.externalIds ? { external_ids: JSON.stringify([...new Set(changes.externalIds)]) } : {}),
    ...(configuration ? { configuration: JSON.stringify(configuration), status: statusOf(integration, target, configuration) } : {}),
  };
}

async function presentOne(ctx: ServiceContext, db: Db, integrationName: string, installationId: string) {
  return presentInstallation(ctx.config.publicUrl, (await findInstallation(db, integrationName, installationId))!);
}

/** The integration's owners see every installation; each organization's administrators, their own. */
async function readableInstallation(db: Db, actor: Actor, name: string, installationId: string) {
  const integration = await visibleIntegration(db, actor, name);
  const installation = await findInstallation(db, name, installationId);
  if (installation) {
    const [owner, installer] = await Promise.all([
      findOrganizationWithAccess(db, integration.organization_id, actor.user.id),
      findOrganizationWithAccess(db, installation.organization_id, actor.user.id),
    ]);
    const administers = (row: typeof owner) => {
      const access = accessFromRow(row);
      return access !== undefined && organizationPermissions(access).admin;
    };
    if (administers(owner) || administers(installer)) return { integration, installation };
    if (accessFromRow(installer)?.isMember) {
      throw new Forbidden('Only administrators of the organization may see its installations');
    }
  }
  throw new NotFound(`No installation "${installationId}" of the integration "${name}"`);
}

/** Changes belong to the administrators of the organization the integration is installed in. */
async function managedInstallation(ctx: ServiceContext, db: Db, actor: Actor, name: string, installationId: string) {
  const found = await readableInstallation(db, actor, name, installationId);
  await authorizeInOrganization(ctx, db, actor, found.installation.organization_id, 'installIntegration');
  return found;
}

export async function listInstallations(
  ctx: ServiceContext,
  actor: Actor,
  name: string,
  options: PageRequest & { externalId?: string },
) {
  await administeredIntegration(ctx.db, actor, name);
  return paginate(
    installationsQuery(ctx.db, name, options.externalId),
    [
      { column: 'n.created_at', direction: 'desc', value: (row: InstallationWithCountsRow) => row.created_at },
      { column: 'n.id', direction: 'desc', value: (row: InstallationWithCountsRow) => row.id },
    ],
    options,
    (row) => presentInstallation(ctx.config.publicUrl, row),
  );
}

export async function installIntegration(ctx: ServiceContext, actor: Actor, name: string, input: { organization: string }) {
  const integration = await visibleIntegration(ctx.db, actor, name);
  const organizationId = await resolveOrganization(ctx, input.organization);
  await authorizeInOrganization(ctx, ctx.db, actor, organizationId, 'installIntegration');
  if (integration.visibility === 'private' && integration.organization_id !== organizationId) {
    throw new Forbidden('A private integration installs only in the organization that published it');
  }
  const installationId = newId();
  const committed = await ctx.db.transaction().execute(async (trx) => {
    const existing = await findInstallationInOrganization(trx, name, organizationId);
    if (existing) throw new Conflict(`The integration "${name}" is already installed in this organization (installation ${existing.id})`);
    const configuration = defaultConfiguration(integration, 'account');
    const now = isoNow(ctx.clock);
    const installation: InstallationRow = {
      id: installationId,
      integration_name: name,
      organization_id: organizationId,
      status: statusOf(integration, 'account', configuration),
      space_selection: 'selected',
      site_selection: 'selected',
      configuration: JSON.stringify(configuration),
      external_ids: '[]',
      created_at: now,
      updated_at: now,
      user_id: null,
      token_id: null,
      sealed_token: null,
    };
    await insertInstallation(trx, installation);
    await installationToken(ctx, trx, installation, integration);
    return recordEvent(ctx, trx, { type: 'installation_setup', organizationId, spaceId: null, installationId, status: installation.status });
  });
  await afterCommit(ctx, committed);
  return presentOne(ctx, ctx.db, name, installationId);
}

export async function getInstallation(ctx: ServiceContext, actor: Actor, name: string, installationId: string) {
  const { installation } = await readableInstallation(ctx.db, actor, name, installationId);
  return presentInstallation(ctx.config.publicUrl, installation);
}

export interface InstallationChanges {
  externalIds?: string[];
  configuration?: Record<string, unknown>;
  space_selection?: InstallationRow['space_selection'];
  site_selection?: InstallationRow['site_selection'];
}

export async function changeInstallation(
  ctx: ServiceContext,
  actor: Actor,
  name: string,
  installationId: string,
  changes: InstallationChanges,
) {
  const { presented, committed } = await ctx.db.transaction().execute(async (trx) => {
    const { integration, installation } = await managedInstallation(ctx, trx, actor, name, installationId);
    await updateInstallation(trx, installationId, {
      ...settingsChanges(integration, 'account', changes),
      ...(changes.space_selection ? { space_selection: changes.space_selection } : {}),
      ...(changes.site_selection ? { site_selection: changes.site_selection } : {}),
      updated_at: isoNow(ctx.clock),
    });
    const presented = await presentOne(ctx, trx, name, installationId);
    if (changes.space_selection && changes.space_selection !== installation.space_selection) {
      await regrantInstallation(trx, { ...installation, space_selection: changes.space_selection }, integration, ctx.clock);
    }
    const previous = { status: installation.status, configuration: JSON.parse(installation.configuration) as Record<string, unknown> };
    const event = { type: 'installation_setup' as const, organizationId: installation.organization_id, spaceId: null, installationId, status: presented.status, previous };
    return { presented, committed: await recordEvent(ctx, trx, event) };
  });
  await afterCommit(ctx, committed);
  return presented;
}

export async function uninstallIntegration(ctx: ServiceContext, actor: Actor, name: string, installationId: string) {
  const committed = await ctx.db.transaction().execute(async (trx) => {
    const { installation } = await managedInstallation(ctx, trx, actor, name, installationId);
    await retireInstallationIdentity(ctx, trx, installation);
    await deleteInstallation(trx, installationId);
    return recordEvent(ctx, trx, {
      type: 'installation_deleted',
      organizationId: installation.organization_id,
      spaceId: null,
      installationId,
      previous: { configuration: JSON.parse(installation.configuration) as Record<string, unknown> },
      gone: { integration: name, installation: presentInstallation(ctx.config.publicUrl, installation) },
    });
  });
  await afterCommit(ctx, committed);
}

/** A space installation naming its space by id, or embedding the space object when `extended`. */
async function presentOnSpace(
  ctx: ServiceContext,
  actor: Actor,
  installation: InstallationRow,
  row: SpaceInstallationRow,
  extended: boolean,
) {
  const space = extended ? await getSpace(ctx, actor, row.space_id) : row.space_id;
  return presentSpaceInstallation(ctx.config.publicUrl, installation, row, space);
}

export async function listSpaceInstallations(
  ctx: ServiceContext,
  actor: Actor,
  name: string,
  installationId: string,
  options: PageRequest & { extended?: boolean },
) {
  const { installation } = await readableInstallation(ctx.db, actor, name, installationId);
  const page = await paginate(
    spaceInstallationsQuery(ctx.db, installationId),
    [
      { column: 's.created_at', direction: 'asc', value: (row) => row.created_at },
      { column: 's.space_id', direction: 'asc', value: (row) => row.space_id },
    ],
    options,
    (row) => row,
  );
  const items = await Promise.all(page.items.map((row) => presentOnSpace(ctx, actor, installation, row, options.extended ?? false)));
  return { ...page, items };
}

async function requireSpaceInstallation(db: Db, installationId: string, spaceId: string) {
  const found = await findSpaceInstallation(db, installationId, spaceId);
  if (!found) throw new NotFound(`The installation is not installed on space "${spaceId}"`);
  return found;
}

export async function installOnSpace(
  ctx: ServiceContext,
  actor: Actor,
  name: string,
  installationId: string,
  spaceId: string,
  extended: boolean,
) {
  const { integration, installation } = await managedInstallation(ctx, ctx.db, actor, name, installationId);
  if (integration.target !== 'all' && integration.target !== 'space') {
    throw new BadRequest(`The integration "${name}" installs on ${integration.target}s, not on spaces`);
  }
  const { space } = await authorizeSpace(ctx.db, actor, spaceId, 'admin');
  if (space.organization_id !== installation.organization_id) {
    throw new BadRequest(`space: "${spaceId}" is not a space of the organization the integration is installed in`);
  }
  const committed = await ctx.db.transaction().execute(async (trx) => {
    if (await findSpaceInstallation(trx, installationId, spaceId)) {
      throw new Conflict(`The integration "${name}" is already installed on space "${spaceId}"`);
    }
    const configuration = defaultConfiguration(integration, 'space');
    await insertSpaceInstallation(trx, {
      installation_id: installationId,
      space_id: spaceId,
      status: statusOf(integration, 'space', configuration),
      configuration: JSON.stringify(configuration),
      external_ids: '[]',
      created_at: isoNow(ctx.clock),
    });
    await grantInstallationSpace(trx, installation, integration, spaceId, ctx.clock);
    return recordEvent(ctx, trx, { type: 'space_installation_setup', organizationId: installation.organization_id, spaceId, installationId, status: statusOf(integration, 'space', configuration) });
  });
  await afterCommit(ctx, committed);
  return presentOnSpace(ctx, actor, installation, await requireSpaceInstallation(ctx.db, installationId, spaceId), extended);
}

export async function getSpaceInstallation(
  ctx: ServiceContext,
  actor: Actor,
  name: string,
  installationId: string,
  spaceId: string,
  extended: boolean,
) {
  const { installation } = await readableInstallation(ctx.db, actor, name, installationId);
  return presentOnSpace(ctx, actor, installation, await requireSpaceInstallation(ctx.db, installationId, spaceId), extended);
}

export async function changeSpaceInstallation(
  ctx: ServiceContext,
  actor: Actor,
  name: string,
  installationId: string,
  spaceId: string,
  changes: { externalIds?: string[]; configuration?: Record<string, unknown>; extended: boolean },
) {
  const { installation, committed } = await ctx.db.transaction().execute(async (trx) => {
    const { integration, installation } = await managedInstallation(ctx, trx, actor, name, installationId);
    const before = await requireSpaceInstallation(trx, installationId, spaceId);
    await updateSpaceInstallation(trx, installationId, spaceId, settingsChanges(integration, 'space', changes));
    const after = await requireSpaceInstallation(trx, installationId, spaceId);
    const previous = { status: before.status, configuration: JSON.parse(before.configuration) as Record<string, unknown> };
    const event = { type: 'space_installation_setup' as const, organizationId: installation.organization_id, spaceId, installationId, status: after.status, previous };
    return { installation, committed: await recordEvent(ctx, trx, event) };
  });
  await afterCommit(ctx, committed);
  return presentOnSpace(ctx, actor, installation, await requireSpaceInstallation(ctx.db, installationId, spaceId), changes.extended);
}

export async function uninstallFromSpace(ctx: ServiceContext, actor: Actor, name: string, installationId: string, spaceId: string) {
  const committed = await ctx.db.transaction().execute(async (trx) => {
    const { installation } = await managedInstallation(ctx, trx, actor, name, installationId);
    const spaceInstallation = await requireSpaceInstallation(trx, installationId, spaceId);
    await deleteSpaceInstallation(trx, installationId, spaceId);
    if (installation.user_id) await deleteGrant(trx, 'space', spaceId, installation.user_id);
    return recordEvent(ctx, trx, {
      type: 'space_installation_deleted',
      organizationId: installation.organization_id,
      spaceId,
      installationId,
      previous: { configuration: JSON.parse(spaceInstallation.configuration) as Record<string, unknown> },
      gone: {
        integration: name,
        installation: presentInstallation(ctx.config.publicUrl, installation),
        spaceInstallation: presentSpaceInstallation(ctx.config.publicUrl, installation, spaceInstallation, spaceId),
      },
    });
  });
  await afterCommit(ctx, committed);
}

// ─── On sites ───────────────────────────────────────────────────────────────────────

/** A site installation naming its site by id, or embedding the site object when `extended`. */
async function presentOnSite(ctx: ServiceContext, actor: Actor, installation: InstallationRow, row: SiteInstallationRow, extended: boolean) {
  const site = extended ? await getSite(ctx, actor, installation.organization_id, row.site_id) : row.site_id;
  return presentSiteInstallation(ctx.config.publicUrl, installation, row, site);
}

async function requireSiteInstallation(db: Db, installationId: string, siteId: string) {
  const found = await findSiteInstallation(db, installationId, siteId);
  if (!found) throw new NotFound(`The installation is not installed on site "${siteId}"`);
  return found;
}

export async function listSiteInstallations(ctx: ServiceContext, actor: Actor, name: string, installationId: string, options: PageRequest & { extended?: boolean }) {
  const { installation } = await readableInstallation(ctx.db, actor, name, installationId);
  const page = await paginate(
    siteInstallationsQuery(ctx.db, installationId),
    [
      { column: 's.created_at', direction: 'asc', value: (row) => row.created_at },
      { column: 's.site_id', direction: 'asc', value: (row) => row.site_id },
    ],
    options,
    (row) => row,
  );
  const items = await Promise.all(page.items.map((row) => presentOnSite(ctx, actor, installation, row, options.extended ?? false)));
  return { ...page, items };
}

/** Installing on a site takes an administrator of the organization the integration is installed in, who may manage the site. */
export async function installOnSite(ctx: ServiceContext, actor: Actor, name: string, installationId: string, siteId: string, extended: boolean) {
  const { integration, installation } = await managedInstallation(ctx, ctx.db, actor, name, installationId);
  if (integration.target !== 'all' && integration.target !== 'site') {
    throw new BadRequest(`The integration "${name}" installs on ${integration.target}s, not on sites`);
  }
  await authorizeSiteManagement(ctx, ctx.db, actor, installation.organization_id, siteId);
  const committed = await ctx.db.transaction().execute(async (trx) => {
    if (await findSiteInstallation(trx, installationId, siteId)) throw new Conflict(`The integration "${name}" is already installed on site "${siteId}"`);
    const configuration = defaultConfiguration(integration, 'site');
    const status = statusOf(integration, 'site', configuration);
    await insertSiteInstallation(trx, { installation_id: installationId, site_id: siteId, status, configuration: JSON.stringify(configuration), external_ids: '[]', created_at: isoNow(ctx.clock) });
    return recordEvent(ctx, trx, { type: 'site_installation_setup', organizationId: installation.organization_id, spaceId: null, siteId, installationId, status });
  });
  await afterCommit(ctx, committed);
  return presentOnSite(ctx, actor, installation, await requireSiteInstallation(ctx.db, installationId, siteId), extended);
}

export async function getSiteInstallation(ctx: ServiceContext, actor: Actor, name: string, installationId: string, siteId: string, extended: boolean) {
  const { installation } = await readableInstallation(ctx.db, actor, name, installationId);
  return presentOnSite(ctx, actor, installation, await requireSiteInstallation(ctx.db, installationId, siteId), extended);
}

export async function changeSiteInstallation(
  ctx: ServiceContext,
  actor: Actor,
  name: string,
  installationId: string,
  siteId: string,
  changes: { externalIds?: string[]; configuration?: Record<string, unknown>; extended: boolean },
) {
  const { installation, committed } = await ctx.db.transaction().execute(async (trx) => {
    const { integration, installation } = await managedInstallation(ctx, trx, actor, name, installationId);
    const before = await requireSiteInstallation(trx, installationId, siteId);
    await updateSiteInstallation(trx, installationId, siteId, settingsChanges(integration, 'site', changes));
    const after = await requireSiteInstallation(trx, installationId, siteId);
    const previous = { status: before.status, configuration: JSON.parse(before.configuration) as Record<string, unknown> };
    const event = { type: 'site_installation_setup' as const, organizationId: installation.organization_id, spaceId: null, siteId, installationId, status: after.status, previous };
    return { installation, committed: await recordEvent(ctx, trx, event) };
  });
  await afterCommit(ctx, committed);
  return presentOnSite(ctx, actor, installation, await requireSiteInstallation(ctx.db, installationId, siteId), changes.extended);
}

export async function uninstallFromSite(ctx: ServiceContext, actor: Actor, name: string, installationId: string, siteId: string) {
  const committed = await ctx.db.transaction().execute(async (trx) => {
    const { installation } = await managedInstallation(ctx, trx, actor, name, installationId);
    const siteInstallation = await requireSiteInstallation(trx, installationId, siteId);
    await deleteSiteInstallation(trx, installationId, siteId);
    return recordEvent(ctx, trx, {
      type: 'site_installation_deleted',
      organizationId: installation.organization_id,
      spaceId: null,
      siteId,
      installationId,
      previous: { configuration: JSON.parse(siteInstallation.configuration) as Record<string, unknown> },
      gone: {
        integration: name,
        installation: presentInstallation(ctx.config.publicUrl, installation),
        siteInstallation: presentSiteInstallation(ctx.config.publicUrl, installation, siteInstallation, siteId),
      },
    });
  });
  await afterCommit(ctx, committed);
}
