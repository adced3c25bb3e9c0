// Sites and their share links.
import type { Db, ShareLinkRow, SiteRow } from '../schema.ts';
import { containsInsensitive } from '../dialect.ts';

export async function insertSite(db: Db, site: SiteRow): Promise<void> {
  await db.insertInto('sites').values(site).execute();
}

export function findSite(db: Db, organizationId: string, siteId: string): Promise<SiteRow | undefined> {
  return db
    .selectFrom('sites')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', siteId)
    .executeTakeFirst();
}

export interface SiteFilter {
  spaceId?: string;
  title?: string;
  published?: boolean;
  types?: string[];
}

export function sitesQuery(db: Db, organizationId: string, filter: SiteFilter) {
  let query = db.selectFrom('sites as si').selectAll('si').where('si.organization_id', '=', organizationId);
  if (filter.title) {
    const title = filter.title;
    query = query.where((eb) => containsInsensitive(eb.ref('si.title'), title));
  }
  if (filter.published !== undefined) query = query.where('si.published', '=', filter.published ? 1 : 0);
  if (filter.types?.length) query = query.where('si.type', 'in', filter.types);
  if (filter.spaceId) {
    const spaceId = filter.spaceId;
    query = query.where((eb) =>
      eb.exists(eb.selectFrom('site_spaces as ss').select('ss.id').whereRef('ss.site_id', '=', 'si.id').where('ss.space_id', '=', spaceId)),
    );
  }
  return query;
}

export async function updateSite(db: Db, siteId: string, changes: Partial<Omit<SiteRow, 'id' | 'created_at'>>): Promise<void> {
  await db.updateTable('sites').set(changes).where('id', '=', siteId).execute();
}

/** Deletes a site with its structure and share links; the spaces stay. */
export async function deleteSite(db: Db, siteId: string): Promise<void> {
  await db.deleteFrom('site_spaces').where('site_id', '=', siteId).execute();
  await db.deleteFrom('site_sections').where('site_id', '=', siteId).execute();
  await db.deleteFrom('site_section_groups').where('site_id', '=', siteId).execute();
  await db.deleteFrom('site_share_links').where('site_id', '=', siteId).execute();
  await db.deleteFrom('sites').where('id', '=', siteId).execute();
}

export async function insertShareLink(db: Db, link: ShareLinkRow): Promise<void> {
  await db.insertInto('site_share_links').values(link).execute();
}

export function findShareLink(db: Db, siteId: string, shareLinkId: string): Promise<ShareLinkRow | undefined> {
  return db.selectFrom('site_share_links').selectAll().where('site_id', '=', siteId).where('id', '=', shareLinkId).executeTakeFirst();
}

export function shareLinksQuery(db: Db, siteId: string) {
  return db.selectFrom('site_share_links as sl').selectAll('sl').where('sl.site_id', '=', siteId);
}

export async function updateShareLink(db: Db, shareLinkId: string, changes: Partial<Pick<ShareLinkRow, 'name' | 'active'>>) {
  await db.updateTable('site_share_links').set(changes).where('id', '=', shareLinkId).execute();
}

export async function deleteShareLink(db: Db, shareLinkId: string): Promise<void> {
  await db.deleteFrom('site_share_links').where('id', '=', shareLinkId).execute();
}

export async function hasActiveShareLink(db: Db, siteId: string, shareKey: string): Promise<boolean> {
  const row = await db
    .selectFrom('site_share_links')
    .select('id')
    .where('site_id', '=', siteId)
    .where('share_key', '=', shareKey)
    .where('active', '=', 1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Whether a published site opens this space to anyone: public or unlisted, or
 * share-link with an active link whose key is given.
 */
export async function isSpacePublishedOpenly(db: Db, spaceId: string, shareKey: string | undefined): Promise<boolean> {
  const row = await db
    .selectFrom('site_spaces as ss')
    .innerJoin('sites as si', 'si.id', 'ss.site_id')
    .select('si.id')
    .where('ss.space_id', '=', spaceId)
    .where('si.published', '=', 1)
    .where((eb) =>
      eb.or([
        eb('si.visibility', 'in', ['public', 'unlisted']),
        ...(shareKey
          ? [
              eb.and([
                eb('si.visibility', '=', 'share-link'),
                eb.exists(
                  eb
                    .selectFrom('site_share_links as sl')
                    .select('sl.id')
                    .whereRef('sl.site_id', '=', 'si.id')
                    .where('sl.share_key', '=', shareKey)
                    .where('sl.active', '=', 1),
                ),
              ]),
            ]
          : []),
      ]),
    )
    .executeTakeFirst();
  return row !== undefined;
}

export function findSiteById(db: Db, siteId: string): Promise<SiteRow | undefined> {
  return db.selectFrom('sites').selectAll().where('id', '=', siteId).executeTakeFirst();
}

/** The site served at a custom hostname. */
export function findSiteByHostname(db: Db, hostname: string): Promise<SiteRow | undefined> {
  return db.selectFrom('sites').selectAll().where('hostname', '=', hostname).executeTakeFirst();
}

/** Published public sites of every organization, by title: the instance's front page lists them. */
export function publicSites(db: Db, limit: number): Promise<SiteRow[]> {
  return db.selectFrom('sites').selectAll().where('published', '=', 1).where('visibility', '=', 'public').orderBy('title').orderBy('id').limit(limit).execute();
}

export async function isSiteHostnameTaken(db: Db, hostname: string, exceptSiteId: string): Promise<boolean> {
  const row = await db.selectFrom('sites').select('id').where('hostname', '=', hostname).where('id', '!=', exceptSiteId).executeTakeFirst();
  return row !== undefined;
}

/** Every published site, whatever its visibility: what GitBook's renderer may hold pages of. */
export function listPublishedSites(db: Db): Promise<Array<Pick<SiteRow, 'id' | 'organization_id'>>> {
  return db.selectFrom('sites').select(['id', 'organization_id']).where('published', '=', 1).execute();
}
