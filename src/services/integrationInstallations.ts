// Where integrations are installed: on organizations (by their administrators), and
// from there on the organization's spaces and sites. An installation's configuration is checked
// against the schema the integration published for it (ajv); an installation whose
// required settings are missing is `pending` until they are given.
import { Ajv } from 'ajv';
import { BadRequest, Conflict, Forbidden, NotFound } from '../errors.ts';
import { deleteInstallation, deleteSiteInstallation, deleteSpaceInstallation, findInstallation, findInstallationInOrganization, findIntegrations, organizationInstallationsQuery, findSiteInstallation, findSpaceInstallation, insertInstallation, insertSiteInstallation, insertSpaceInstallation, installationsQuery, siteInstallationsQuery, spaceInstallationsQuery, updateInstallation, updateSiteInstallation, updateSpaceInstallation } from '../db/repos/integrations.ts';
import { findOrganizationWithAccess } from '../db/repos/organizations.ts';
import type { Db, InstallationWithCountsRow, InstallationRow, IntegrationRow, SiteInstallationRow, SpaceInstallationRow } from '../db/schema.ts';
import { paginate, type PageRequest } from '../db/pagination.ts';
import { isoNow } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import {
  presentInstallation,
  presentSiteInstallation,
  presentSpaceInstallation,
  type IntegrationConfiguration,
  type IntegrationManifest,
} from '../presenters/integration.ts';
import { authorizeSpace } from './contentAccess.ts';
import type { Actor, ServiceContext } from './context.ts';
import { administeredIntegration, presentIntegrations, resolveOrganization, visibleIntegration } from './integrations.ts';
import { accessFromRow, authorizeInOrganization, isAdministrator } from './organizations.ts';
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
    if (isAdministrator(owner) || isAdministrator(installer)) return { integration, installation };
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

/**
 * GitBook's listOrganizationInstallations: what is installed in an organization, each
 * installation with its integration, for the organization's administrators (who manage
 * them) whoever published the integration.
 */
export async function listOrganizationInstallations(ctx: ServiceContext, actor: Actor, organizationId: string, options: PageRequest) {
  await authorizeInOrganization(ctx, ctx.db, actor, organizationId, 'listInstallations');
  const page = await paginate(
    organizationInstallationsQuery(ctx.db, organizationId),
    [
      { column: 'n.created_at', direction: 'desc', value: (row: InstallationWithCountsRow) => row.created_at },
      { column: 'n.id', direction: 'desc', value: (row: InstallationWithCountsRow) => row.id },
    ],
    options,
    (row) => row,
  );
  const integrations = await presentIntegrations(ctx, actor, await findIntegrations(ctx.db, [...new Set(page.items.map((row) => row.integration_name))]));
  const byName = new Map(integrations.map((integration) => [integration.name, integration]));
  return {
    ...page,
    items: page.items.map((row) => ({ installation: presentInstallation(ctx.config.publicUrl, row), integration: byName.get(row.integration_name)! })),
  };
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

// ─── On spaces and sites ────────────────────────────────────────────────────────────

/** What differs between installing on a space and on a site; the rules are the same. */
interface Place<Row extends SpaceInstallationRow | SiteInstallationRow, Presented> {
  kind: 'space' | 'site';
  query(db: Db, installationId: string): ReturnType<typeof spaceInstallationsQuery> | ReturnType<typeof siteInstallationsQuery>;
  find(db: Db, installationId: string, id: string): Promise<Row | undefined>;
  insert(db: Db, row: Row): Promise<void>;
  update(db: Db, installationId: string, id: string, changes: Partial<Pick<Row, 'configuration' | 'external_ids' | 'status'>>): Promise<void>;
  remove(db: Db, installationId: string, id: string): Promise<void>;
  newRow(installationId: string, id: string, fields: Pick<Row, 'status' | 'configuration' | 'external_ids' | 'created_at'>): Row;
  /** Checks the caller may install on it, in the organization the integration is installed in. */
  authorize(ctx: ServiceContext, actor: Actor, installation: InstallationRow, id: string): Promise<void>;
  /** The object itself, for `extended`. */
  load(ctx: ServiceContext, actor: Actor, installation: InstallationRow, id: string): Promise<unknown>;
  present(publicUrl: string, installation: InstallationRow, row: Row, placeObject: unknown): Presented;
  /** Where its events say they happened. */
  where(id: string): { spaceId: string } | { spaceId: null; siteId: string };
  /** What installing and uninstalling change beyond the row: the token's reach. */
  installed(trx: Db, installation: InstallationRow, integration: IntegrationRow, id: string, clock: ServiceContext['clock']): Promise<void>;
  uninstalled(trx: Db, installation: InstallationRow, id: string): Promise<void>;
}

type SpaceObject = Awaited<ReturnType<typeof getSpace>>;
type SiteObject = Awaited<ReturnType<typeof getSite>>;

const ON_SPACE: Place<SpaceInstallationRow, ReturnType<typeof presentSpaceInstallation<string | SpaceObject>>> = {
  kind: 'space',
  query: spaceInstallationsQuery,
  find: findSpaceInstallation,
  insert: insertSpaceInstallation,
  update: updateSpaceInstallation,
  remove: deleteSpaceInstallation,
  newRow: (installationId, spaceId, fields) => ({ installation_id: installationId, space_id: spaceId, ...fields }),
  authorize: async (ctx, actor, installation, spaceId) => {
    const { space } = await authorizeSpace(ctx.db, actor, spaceId, 'admin');
    if (space.organization_id !== installation.organization_id) {
      throw new BadRequest(`space: "${spaceId}" is not a space of the organization the integration is installed in`);
    }
  },
  load: (ctx, actor, _installation, spaceId) => getSpace(ctx, actor, spaceId),
  present: (publicUrl, installation, row, space) => presentSpaceInstallation(publicUrl, installation, row, space as string | SpaceObject),
  where: (spaceId) => ({ spaceId }),
  installed: grantInstallationSpace,
  uninstalled: async (trx, installation, spaceId) => {
    if (installation.user_id) await deleteGrant(trx, 'space', spaceId, installation.user_id);
  },
};

const ON_SITE: Place<SiteInstallationRow, ReturnType<typeof presentSiteInstallation<string | SiteObject>>> = {
  kind: 'site',
  query: siteInstallationsQuery,
  find: findSiteInstallation,
  insert: insertSiteInstallation,
  update: updateSiteInstallation,
  remove: deleteSiteInstallation,
  newRow: (installationId, siteId, fields) => ({ installation_id: installationId, site_id: siteId, ...fields }),
  authorize: async (ctx, actor, installation, siteId) => {
    await authorizeSiteManagement(ctx, ctx.db, actor, installation.organization_id, siteId);
  },
  load: (ctx, actor, installation, siteId) => getSite(ctx, actor, installation.organization_id, siteId),
  present: (publicUrl, installation, row, site) => presentSiteInstallation(publicUrl, installation, row, site as string | SiteObject),
  where: (siteId) => ({ spaceId: null, siteId }),
  installed: async () => undefined,
  uninstalled: async () => undefined,
};

const idOf = (row: SpaceInstallationRow | SiteInstallationRow) => ('space_id' in row ? row.space_id : row.site_id);

/** An installation on a place, naming it by id, or embedding its object when `extended`. */
async function presentOn<Row extends SpaceInstallationRow | SiteInstallationRow, Presented>(ctx: ServiceContext, actor: Actor, place: Place<Row, Presented>, installation: InstallationRow, row: Row, extended: boolean) {
  const placeObject = extended ? await place.load(ctx, actor, installation, idOf(row)) : idOf(row);
  return place.present(ctx.config.publicUrl, installation, row, placeObject);
}

async function requireOn<Row extends SpaceInstallationRow | SiteInstallationRow, Presented>(db: Db, place: Place<Row, Presented>, installationId: string, id: string): Promise<Row> {
  const found = await place.find(db, installationId, id);
  if (!found) throw new NotFound(`The installation is not installed on ${place.kind} "${id}"`);
  return found;
}

async function listOn<Row extends SpaceInstallationRow | SiteInstallationRow, Presented>(ctx: ServiceContext, actor: Actor, place: Place<Row, Presented>, name: string, installationId: string, options: PageRequest & { extended?: boolean }) {
  const { installation } = await readableInstallation(ctx.db, actor, name, installationId);
  const column = place.kind === 'space' ? 's.space_id' : 's.site_id';
  const page = await paginate(
    place.query(ctx.db, installationId) as ReturnType<typeof spaceInstallationsQuery>,
    [
      { column: 's.created_at', direction: 'asc', value: (row) => row.created_at },
      { column, direction: 'asc', value: (row) => idOf(row) },
    ],
    options,
    (row) => row as unknown as Row,
  );
  const items = await Promise.all(page.items.map((row) => presentOn(ctx, actor, place, installation, row, options.extended ?? false)));
  return { ...page, items };
}

async function installOn<Row extends SpaceInstallationRow | SiteInstallationRow, Presented>(ctx: ServiceContext, actor: Actor, place: Place<Row, Presented>, name: string, installationId: string, id: string, extended: boolean) {
  const { integration, installation } = await managedInstallation(ctx, ctx.db, actor, name, installationId);
  if (integration.target !== 'all' && integration.target !== place.kind) {
    throw new BadRequest(`The integration "${name}" installs on ${integration.target}s, not on ${place.kind}s`);
  }
  await place.authorize(ctx, actor, installation, id);
  const committed = await ctx.db.transaction().execute(async (trx) => {
    if (await place.find(trx, installationId, id)) throw new Conflict(`The integration "${name}" is already installed on ${place.kind} "${id}"`);
    const configuration = defaultConfiguration(integration, place.kind);
    const status = statusOf(integration, place.kind, configuration);
    await place.insert(trx, place.newRow(installationId, id, { status, configuration: JSON.stringify(configuration), external_ids: '[]', created_at: isoNow(ctx.clock) }));
    await place.installed(trx, installation, integration, id, ctx.clock);
    return recordEvent(ctx, trx, { type: `${place.kind}_installation_setup`, organizationId: installation.organization_id, ...place.where(id), installationId, status });
  });
  await afterCommit(ctx, committed);
  return presentOn(ctx, actor, place, installation, await requireOn(ctx.db, place, installationId, id), extended);
}

async function getOn<Row extends SpaceInstallationRow | SiteInstallationRow, Presented>(ctx: ServiceContext, actor: Actor, place: Place<Row, Presented>, name: string, installationId: string, id: string, extended: boolean) {
  const { installation } = await readableInstallation(ctx.db, actor, name, installationId);
  return presentOn(ctx, actor, place, installation, await requireOn(ctx.db, place, installationId, id), extended);
}

async function changeOn<Row extends SpaceInstallationRow | SiteInstallationRow, Presented>(
  ctx: ServiceContext,
  actor: Actor,
  place: Place<Row, Presented>,
  name: string,
  installationId: string,
  id: string,
  changes: { externalIds?: string[]; configuration?: Record<string, unknown>; extended: boolean },
) {
  const { installation, committed } = await ctx.db.transaction().execute(async (trx) => {
    const { integration, installation } = await managedInstallation(ctx, trx, actor, name, installationId);
    const before = await requireOn(trx, place, installationId, id);
    await place.update(trx, installationId, id, settingsChanges(integration, place.kind, changes));
    const after = await requireOn(trx, place, installationId, id);
    const previous = { status: before.status, configuration: JSON.parse(before.configuration) as Record<string, unknown> };
    const event = { type: `${place.kind}_installation_setup` as const, organizationId: installation.organization_id, ...place.where(id), installationId, status: after.status, previous };
    return { installation, committed: await recordEvent(ctx, trx, event) };
  });
  await afterCommit(ctx, committed);
  return presentOn(ctx, actor, place, installation, await requireOn(ctx.db, place, installationId, id), changes.extended);
}

async function uninstallFrom<Row extends SpaceInstallationRow | SiteInstallationRow, Presented>(ctx: ServiceContext, actor: Actor, place: Place<Row, Presented>, name: string, installationId: string, id: string) {
  const committed = await ctx.db.transaction().execute(async (trx) => {
    const { installation } = await managedInstallation(ctx, trx, actor, name, installationId);
    const row = await requireOn(trx, place, installationId, id);
    await place.remove(trx, installationId, id);
    await place.uninstalled(trx, installation, id);
    const presented = place.present(ctx.config.publicUrl, installation, row, id);
    return recordEvent(ctx, trx, {
      type: `${place.kind}_installation_deleted`,
      organizationId: installation.organization_id,
      ...place.where(id),
      installationId,
      previous: { configuration: JSON.parse(row.configuration) as Record<string, unknown> },
      gone: { integration: name, installation: presentInstallation(ctx.config.publicUrl, installation), [`${place.kind}Installation`]: presented },
    });
  });
  await afterCommit(ctx, committed);
}

type Listing = PageRequest & { extended?: boolean };
type Changes = { externalIds?: string[]; configuration?: Record<string, unknown>; extended: boolean };

export const listSpaceInstallations = (ctx: ServiceContext, actor: Actor, name: string, installationId: string, options: Listing) => listOn(ctx, actor, ON_SPACE, name, installationId, options);
export const installOnSpace = (ctx: ServiceContext, actor: Actor, name: string, installationId: string, spaceId: string, extended: boolean) => installOn(ctx, actor, ON_SPACE, name, installationId, spaceId, extended);
export const getSpaceInstallation = (ctx: ServiceContext, actor: Actor, name: string, installationId: string, spaceId: string, extended: boolean) => getOn(ctx, actor, ON_SPACE, name, installationId, spaceId, extended);
export const changeSpaceInstallation = (ctx: ServiceContext, actor: Actor, name: string, installationId: string, spaceId: string, changes: Changes) => changeOn(ctx, actor, ON_SPACE, name, installationId, spaceId, changes);
export const uninstallFromSpace = (ctx: ServiceContext, actor: Actor, name: string, installationId: string, spaceId: string) => uninstallFrom(ctx, actor, ON_SPACE, name, installationId, spaceId);

export const listSiteInstallations = (ctx: ServiceContext, actor: Actor, name: string, installationId: string, options: Listing) => listOn(ctx, actor, ON_SITE, name, installationId, options);
export const installOnSite = (ctx: ServiceContext, actor: Actor, name: string, installationId: string, siteId: string, extended: boolean) => installOn(ctx, actor, ON_SITE, name, installationId, siteId, extended);
export const getSiteInstallation = (ctx: ServiceContext, actor: Actor, name: string, installationId: string, siteId: string, extended: boolean) => getOn(ctx, actor, ON_SITE, name, installationId, siteId, extended);
export const changeSiteInstallation = (ctx: ServiceContext, actor: Actor, name: string, installationId: string, siteId: string, changes: Changes) => changeOn(ctx, actor, ON_SITE, name, installationId, siteId, changes);
export const uninstallFromSite = (ctx: ServiceContext, actor: Actor, name: string, installationId: string, siteId: string) => uninstallFrom(ctx, actor, ON_SITE, name, installationId, siteId);
