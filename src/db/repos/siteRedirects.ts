import { sql } from 'kysely';
import { containsInsensitive } from '../dialect.ts';
import type { Db, SiteRedirectRow } from '../schema.ts';

export async function insertSiteRedirect(db: Db, row: SiteRedirectRow): Promise<void> {
  await db.insertInto('site_redirects').values(row).execute();
}

export function findSiteRedirect(db: Db, siteId: string, redirectId: string): Promise<SiteRedirectRow | undefined> {
  return db.selectFrom('site_redirects').selectAll().where('site_id', '=', siteId).where('id', '=', redirectId).executeTakeFirst();
}

export function findSiteRedirectBySource(db: Db, siteId: string, sourcePath: string): Promise<SiteRedirectRow | undefined> {
  return db.selectFrom('site_redirects').selectAll().where('site_id', '=', siteId).where('source_path', '=', sourcePath).executeTakeFirst();
}

/** A site's redirects, those whose source holds `search` (decoded) when given. */
export function siteRedirectsQuery(db: Db, siteId: string, search?: string) {
  let query = db.selectFrom('site_redirects as r').selectAll('r').where('r.site_id', '=', siteId);
  if (search) query = query.where(containsInsensitive(sql.ref('r.source_path'), search));
  return query;
}

export async function updateSiteRedirect(db: Db, redirectId: string, changes: Partial<Pick<SiteRedirectRow, 'source' | 'source_path' | 'destination'>>): Promise<void> {
  await db.updateTable('site_redirects').set(changes).where('id', '=', redirectId).execute();
}

export async function deleteSiteRedirect(db: Db, siteId: string, redirectId: string): Promise<boolean> {
  const result = await db.deleteFrom('site_redirects').where('site_id', '=', siteId).where('id', '=', redirectId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
