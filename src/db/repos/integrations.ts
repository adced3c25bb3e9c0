// Published integrations, their scripts and images, and where they are installed.
import { sql, type Expression, type Kysely } from 'kysely';
import { containsInsensitive, containsText } from '../dialect.ts';
import { preparedQuery } from '../prepared.ts';
import type { Database, Db, InstallationOnSiteRow, InstallationRow, IntegrationAssetRow, IntegrationRow, SiteInstallationRow, SpaceInstallationRow } from '../schema.ts';

export function findIntegration(db: Db, name: string): Promise<IntegrationRow | undefined> {
  return db.selectFrom('integrations').selectAll().where('name', '=', name).executeTakeFirst();
}

export async function insertIntegration(db: Db, integration: IntegrationRow): Promise<void> {
  await db.insertInto('integrations').values(integration).execute();
}

export async function updateIntegration(db: Db, name: string, changes: Partial<Omit<IntegrationRow, 'name' | 'created_at'>>) {
  await db.updateTable('integrations').set(changes).where('name', '=', name).execute();
}

export async function deleteIntegration(db: Db, name: string): Promise<void> {
  const installations = db.selectFrom('integration_installations').select('id').where('integration_name', '=', name);
  await db.deleteFrom('integration_space_installations').where('installation_id', 'in', installations).execute();
  await db.deleteFrom('integration_installations').where('integration_name', '=', name).execute();
  await db.deleteFrom('integration_assets').where('integration_name', '=', name).execute();
  await db.deleteFrom('integration_scripts').where('integration_name', '=', name).execute();
  await db.deleteFrom('integrations').where('name', '=', name).execute();
}

export async function insertIntegrationScript(db: Db, script: { integration_name: string; version: number; script: string; created_at: string }) {
  await db.insertInto('integration_scripts').values(script).execute();
}

export function findIntegrationScript(db: Db, name: string, version: number) {
  return db.selectFrom('integration_scripts').select('script').where('integration_name', '=', name).where('version', '=', version).executeTakeFirst();
}

/** The active installations that receive a space's events: installed on that space, or on all of its organization's. */
export async function installationsOnSpace(db: Db, organizationId: string, spaceId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('integration_installations as n')
    .select('n.id')
    .where('n.organization_id', '=', organizationId)
    .where('n.status', '=', 'active')
    .where((eb) =>
      eb.or([
        eb('n.space_selection', '=', 'all'),
        eb.exists(
          eb.selectFrom('integration_space_installations as s').select('s.space_id').whereRef('s.installation_id', '=', 'n.id').where('s.space_id', '=', spaceId).where('s.status', '=', 'active'),
        ),
      ]),
    )
    .orderBy('n.id')
    .execute();
  return rows.map((row) => row.id);
}

export async function insertIntegrationAssets(db: Db, assets: IntegrationAssetRow[]): Promise<void> {
  if (assets.length > 0) await db.insertInto('integration_assets').values(assets).execute();
}

export async function deleteIntegrationAssets(db: Db, assetIds: string[]): Promise<void> {
  if (assetIds.length > 0) await db.deleteFrom('integration_assets').where('id', 'in', assetIds).execute();
}

export function findIntegrationAsset(db: Db, assetId: string): Promise<IntegrationAssetRow | undefined> {
  return db.selectFrom('integration_assets').selectAll().where('id', '=', assetId).executeTakeFirst();
}

/** A JSON array of strings, as Quire writes them, holds `token`. */
function holdsToken(db: Db, column: string, token: string) {
  return containsText(db, sql.ref(column), JSON.stringify(token));
}

export interface IntegrationFilters {
  /** The caller: private and unlisted integrations are listed only to their owners' members. */
  userId: string;
  search?: string;
  category?: string;
  blockDomain?: string;
  blocks?: boolean;
  contentSources?: boolean;
  owner?: string;
}

export function integrationsQuery(db: Db, filters: IntegrationFilters) {
  let query = db
    .selectFrom('integrations as i')
    .selectAll('i')
    .where((eb) =>
      eb.or([
        eb('i.visibility', '=', 'public'),
        eb.exists(
          eb
            .selectFrom('organization_members as m')
            .select('m.user_id')
            .whereRef('m.organization_id', '=', 'i.organization_id')
            .where('m.user_id', '=', filters.userId)
            .where('m.role', 'is not', null),
        ),
      ]),
    );
  if (filters.search) {
    const search = filters.search;
    query = query.where((eb) =>
      eb.or(['i.name', 'i.title', 'i.description'].map((column) => containsInsensitive(sql.ref(column), search))),
    );
  }
  if (filters.category) query = query.where(holdsToken(db, 'i.categories', filters.category));
  if (filters.blockDomain) query = query.where(holdsToken(db, 'i.block_domains', filters.blockDomain.toLowerCase()));
  if (filters.blocks !== undefined) query = query.where('i.has_blocks', '=', filters.blocks ? 1 : 0);
  if (filters.contentSources !== undefined) query = query.where('i.has_content_sources', '=', filters.contentSources ? 1 : 0);
  if (filters.owner) query = query.where('i.organization_id', '=', filters.owner);
  return query;
}

/** Installations with how many spaces each is installed on. */
function installationsWithCounts(db: Db) {
  return db
    .selectFrom('integration_installations as n')
    .selectAll('n')
    .select(
      sql<number>`cast((select count(*) from integration_space_installations s where s.installation_id = n.id) as integer)`.as('space_count'),
    );
}

export function installationsQuery(db: Db, integrationName: string, externalId?: string) {
  let query = installationsWithCounts(db).where('n.integration_name', '=', integrationName);
  if (externalId) query = query.where(holdsToken(db, 'n.external_ids', externalId));
  return query;
}

/** The installations in an organization, of every integration. */
export function organizationInstallationsQuery(db: Db, organizationId: string) {
  return installationsWithCounts(db).where('n.organization_id', '=', organizationId);
}

/** Integrations by name, for presenting what a page of installations installs. */
export function findIntegrations(db: Db, names: string[]): Promise<IntegrationRow[]> {
  if (names.length === 0) return Promise.resolve([]);
  return db.selectFrom('integrations').selectAll().where('name', 'in', names).execute();
}

export function findInstallation(db: Db, integrationName: string, installationId: string) {
  return installationsWithCounts(db)
    .where('n.integration_name', '=', integrationName)
    .where('n.id', '=', installationId)
    .executeTakeFirst();
}

export function findInstallationById(db: Db, installationId: string) {
  return installationsWithCounts(db).where('n.id', '=', installationId).executeTakeFirst();
}

/** The installation of an integration whose user is `userId`: the caller is its script. */
export function findInstallationActingAs(db: Db, integrationName: string, userId: string): Promise<InstallationRow | undefined> {
  return db.selectFrom('integration_installations').selectAll().where('integration_name', '=', integrationName).where('user_id', '=', userId).executeTakeFirst();
}

/** The spaces an installation is on: each one it was installed on, or every live space of its organization when installed on all. */
export async function spacesOfInstallation(db: Db, installation: Pick<InstallationRow, 'id' | 'organization_id' | 'space_selection'>): Promise<string[]> {
  const rows =
    installation.space_selection === 'all'
      ? await db.selectFrom('spaces').select('id as space_id').where('organization_id', '=', installation.organization_id).where('deleted_at', 'is', null).execute()
      : await spaceInstallationsQuery(db, installation.id).select('s.space_id').execute();
  return rows.map((row) => row.space_id);
}

export function installationsOfIntegration(db: Db, integrationName: string): Promise<InstallationRow[]> {
  return db.selectFrom('integration_installations').selectAll().where('integration_name', '=', integrationName).execute();
}

export async function updateInstallationIdentity(db: Db, installationId: string, identity: Pick<InstallationRow, 'user_id' | 'token_id' | 'sealed_token'>): Promise<void> {
  await db.updateTable('integration_installations').set(identity).where('id', '=', installationId).execute();
}

export function findInstallationInOrganization(db: Db, integrationName: string, organizationId: string) {
  return db
    .selectFrom('integration_installations')
    .select('id')
    .where('integration_name', '=', integrationName)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
}

export async function insertInstallation(db: Db, installation: InstallationRow): Promise<void> {
  await db.insertInto('integration_installations').values(installation).execute();
}

export async function updateInstallation(
  db: Db,
  installationId: string,
  changes: Partial<Pick<InstallationRow, 'configuration' | 'external_ids' | 'status' | 'space_selection' | 'site_selection' | 'updated_at'>>,
) {
  await db.updateTable('integration_installations').set(changes).where('id', '=', installationId).execute();
}

export async function deleteInstallation(db: Db, installationId: string): Promise<void> {
  await db.deleteFrom('integration_space_installations').where('installation_id', '=', installationId).execute();
  await db.deleteFrom('integration_site_installations').where('installation_id', '=', installationId).execute();
  await db.deleteFrom('integration_installations').where('id', '=', installationId).execute();
}

export function spaceInstallationsQuery(db: Db, installationId: string) {
  return db.selectFrom('integration_space_installations as s').selectAll('s').where('s.installation_id', '=', installationId);
}

export function findSpaceInstallation(db: Db, installationId: string, spaceId: string) {
  return spaceInstallationsQuery(db, installationId).where('s.space_id', '=', spaceId).executeTakeFirst();
}

export async function insertSpaceInstallation(db: Db, installation: SpaceInstallationRow): Promise<void> {
  await db.insertInto('integration_space_installations').values(installation).execute();
}

export async function updateSpaceInstallation(
  db: Db,
  installationId: string,
  spaceId: string,
  changes: Partial<Pick<SpaceInstallationRow, 'configuration' | 'external_ids' | 'status'>>,
) {
  await db
    .updateTable('integration_space_installations')
    .set(changes)
    .where('installation_id', '=', installationId)
    .where('space_id', '=', spaceId)
    .execute();
}

export async function deleteSpaceInstallation(db: Db, installationId: string, spaceId: string): Promise<void> {
  await db
    .deleteFrom('integration_space_installations')
    .where('installation_id', '=', installationId)
    .where('space_id', '=', spaceId)
    .execute();
}

/** Whether the user administers at least one organization (and so may install integrations). */
export async function administersAnOrganization(db: Db, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('organization_members')
    .select('user_id')
    .where('user_id', '=', userId)
    .where('role', '=', 'admin')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The active installations on a site: installed on it, or on every site of the
 * organization and not paused on this one. The organization and the site are values,
 * or columns of the query it is part of (siteStructure.ts reads them with the site).
 */
export function installationsOnSiteSelect(db: Kysely<Database>, organizationId: Expression<string> | string, siteId: Expression<string> | string) {
  return db
    .selectFrom('integration_installations as n')
    .innerJoin('integrations as i', 'i.name', 'n.integration_name')
    .leftJoin('integration_site_installations as s', (join) => join.onRef('s.installation_id', '=', 'n.id').on('s.site_id', '=', siteId))
    .select(['n.id as installation_id', 'n.integration_name', 'i.version', 'i.manifest'])
    .where('n.organization_id', '=', organizationId)
    .where('n.status', '=', 'active')
    .where((eb) => eb.or([eb('s.status', '=', 'active'), eb.and([eb('n.site_selection', '=', 'all'), eb('s.status', 'is', null)])]));
}

const installationsOnSiteQuery = preparedQuery<'organizationId' | 'siteId', InstallationOnSiteRow>(
  (db, param) => installationsOnSiteSelect(db, param('organizationId'), param('siteId')).orderBy('n.id'),
  { remember: true },
);

/** The active installations on a site (installationsOnSiteSelect), in id order. */
export function installationsOnSite(db: Db, organizationId: string, siteId: string) {
  return installationsOnSiteQuery(db, { organizationId, siteId });
}

export function siteInstallationsQuery(db: Db, installationId: string) {
  return db.selectFrom('integration_site_installations as s').selectAll('s').where('s.installation_id', '=', installationId);
}

export function findSiteInstallation(db: Db, installationId: string, siteId: string) {
  return siteInstallationsQuery(db, installationId).where('s.site_id', '=', siteId).executeTakeFirst();
}

export async function insertSiteInstallation(db: Db, installation: SiteInstallationRow): Promise<void> {
  await db.insertInto('integration_site_installations').values(installation).execute();
}

export async function updateSiteInstallation(db: Db, installationId: string, siteId: string, changes: Partial<Pick<SiteInstallationRow, 'configuration' | 'external_ids' | 'status'>>) {
  await db.updateTable('integration_site_installations').set(changes).where('installation_id', '=', installationId).where('site_id', '=', siteId).execute();
}

export async function deleteSiteInstallation(db: Db, installationId: string, siteId: string): Promise<void> {
  await db.deleteFrom('integration_site_installations').where('installation_id', '=', installationId).where('site_id', '=', siteId).execute();
}
