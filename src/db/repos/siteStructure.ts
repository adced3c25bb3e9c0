// The structure of a site: section groups, sections and site spaces. Sites hold few of
// these, so the services read a site's whole structure at once and reason in memory.
import type { Db, SiteSectionGroupsTable, SiteSectionsTable, SiteSpacesTable } from '../schema.ts';

export type SectionGroupRow = SiteSectionGroupsTable;
export type SectionRow = SiteSectionsTable;
export type SiteSpaceRow = SiteSpacesTable;

export interface SiteStructureRows {
  groups: SectionGroupRow[];
  sections: SectionRow[];
  siteSpaces: SiteSpaceRow[];
}

/** Every group, section and site space of a site, each list in position order. */
export async function readSiteStructure(db: Db, siteId: string): Promise<SiteStructureRows> {
  const [groups, sections, siteSpaces] = await Promise.all([
    db.selectFrom('site_section_groups').selectAll().where('site_id', '=', siteId).orderBy('position').orderBy('id').execute(),
    db.selectFrom('site_sections').selectAll().where('site_id', '=', siteId).orderBy('position').orderBy('id').execute(),
    db.selectFrom('site_spaces').selectAll().where('site_id', '=', siteId).orderBy('position').orderBy('id').execute(),
  ]);
  return { groups, sections, siteSpaces };
}

export async function countSiteSpaces(db: Db, siteId: string): Promise<number> {
  const row = await db
    .selectFrom('site_spaces')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('site_id', '=', siteId)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

export async function insertSectionGroup(db: Db, group: SectionGroupRow): Promise<void> {
  await db.insertInto('site_section_groups').values(group).execute();
}

export async function updateSectionGroup(db: Db, groupId: string, changes: Partial<Omit<SectionGroupRow, 'id' | 'site_id'>>) {
  await db.updateTable('site_section_groups').set(changes).where('id', '=', groupId).execute();
}

export async function deleteSectionGroup(db: Db, groupId: string): Promise<void> {
  await db.deleteFrom('site_section_groups').where('id', '=', groupId).execute();
}

export async function insertSection(db: Db, section: SectionRow): Promise<void> {
  await db.insertInto('site_sections').values(section).execute();
}

export async function updateSection(db: Db, sectionId: string, changes: Partial<Omit<SectionRow, 'id' | 'site_id'>>) {
  await db.updateTable('site_sections').set(changes).where('id', '=', sectionId).execute();
}

export async function deleteSection(db: Db, sectionId: string): Promise<void> {
  await db.deleteFrom('site_spaces').where('section_id', '=', sectionId).execute();
  await db.deleteFrom('site_sections').where('id', '=', sectionId).execute();
}

export async function insertSiteSpace(db: Db, siteSpace: SiteSpaceRow): Promise<void> {
  await db.insertInto('site_spaces').values(siteSpace).execute();
}

export async function updateSiteSpace(db: Db, siteSpaceId: string, changes: Partial<Omit<SiteSpaceRow, 'id' | 'site_id'>>) {
  await db.updateTable('site_spaces').set(changes).where('id', '=', siteSpaceId).execute();
}

export async function deleteSiteSpace(db: Db, siteSpaceId: string): Promise<void> {
  await db.deleteFrom('site_spaces').where('id', '=', siteSpaceId).execute();
}

/** The sites that show any of these spaces. */
export async function sitesShowingSpaces(db: Db, spaceIds: string[]): Promise<string[]> {
  if (spaceIds.length === 0) return [];
  const rows = await db.selectFrom('site_spaces').select('site_id').distinct().where('space_id', 'in', spaceIds).execute();
  return rows.map((row) => row.site_id);
}
