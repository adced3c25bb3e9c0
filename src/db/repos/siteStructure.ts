// The structure of a site: section groups, sections and site spaces. Sites hold few of
// these, so the services read a site's whole structure at once and reason in memory.
import { sql, type Expression, type Kysely } from 'kysely';
import { jsonRows, jsonRowsOf } from '../dialect.ts';
import { preparedQuery } from '../prepared.ts';
import type { Database, Db, InstallationOnSiteRow, SiteStructureRows, PublishedSiteRows, PublishedSiteWithInstallations, PublishedSpaceRow, SectionGroupRow, SectionRow, SiteRow, SiteSpaceRow, SpaceReadWithToken, SpaceWithCounters } from '../schema.ts';
import { GIT_SYNC_COLUMNS } from './spaces.ts';
import { REVISION_GIT_STAMP } from './gitSync.ts';
import { installationsOnSiteSelect } from './integrations.ts';

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

/** Every space some site shows. */
export async function spacesShownBySites(db: Db): Promise<string[]> {
  return (await db.selectFrom('site_spaces').select('space_id').distinct().execute()).map((row) => row.space_id);
}

/** Each column of a table, so that a JSON subquery can name them (jsonRowsOf); the type check keeps the lists whole. */
function columns<Row>() {
  return <const Names extends ReadonlyArray<keyof Row & string>>(names: Names & ([Exclude<keyof Row, Names[number]>] extends [never] ? unknown : never)) => names;
}
const GROUP_COLUMNS = columns<SectionGroupRow>()(['id', 'site_id', 'title', 'icon', 'position', 'created_at']);
const SECTION_COLUMNS = columns<SectionRow>()(['id', 'site_id', 'group_id', 'title', 'description', 'path', 'condition', 'icon', 'position', 'default_site_space_id', 'created_at']);
const SITE_SPACE_COLUMNS = columns<SiteSpaceRow>()(['id', 'site_id', 'section_id', 'space_id', 'path', 'condition', 'position', 'created_at']);

const SITE_COLUMNS = columns<SiteRow>()([
  'id', 'organization_id', 'type', 'title', 'hostname', 'basename', 'proxy_origin', 'visibility', 'published', 'adaptive_enabled',
  'adaptive_schema', 'adaptive_schema_updated_at', 'customization', 'visitor_key', 'visitor_fallback_url', 'visitor_logout_url', 'visitor_backend', 'default_section_id', 'default_site_space_id', 'created_at', 'updated_at',
]);

type StructureColumns = { groups: unknown; sections: unknown; site_spaces: unknown; spaces: unknown };

/** A site's structure and the spaces it shows, as JSON columns, for the site `siteId` (a column or a parameter). */
function structureColumns(db: Kysely<Database>, siteId: Expression<string> | string) {
  return [
    jsonRowsOf(db, db.selectFrom('site_section_groups as grp').select(GROUP_COLUMNS.map((name) => `grp.${name}` as const)).where('grp.site_id', '=', siteId).orderBy('grp.position').orderBy('grp.id')).as('groups'),
    jsonRowsOf(db, db.selectFrom('site_sections as sec').select(SECTION_COLUMNS.map((name) => `sec.${name}` as const)).where('sec.site_id', '=', siteId).orderBy('sec.position').orderBy('sec.id')).as('sections'),
    jsonRowsOf(db, db.selectFrom('site_spaces as ss').select(SITE_SPACE_COLUMNS.map((name) => `ss.${name}` as const)).where('ss.site_id', '=', siteId).orderBy('ss.position').orderBy('ss.id')).as('site_spaces'),
    jsonRowsOf(
      db,
      db
        .selectFrom('spaces as sp')
        .select(['sp.id', 'sp.title', 'sp.revision_id', 'sp.deleted_at'])
        .where('sp.id', 'in', db.selectFrom('site_spaces as shown').select('shown.space_id').where('shown.site_id', '=', siteId)),
    ).as('spaces'),
  ];
}

const publishedSiteSelect = (db: Kysely<Database>, siteId: string) =>
  db.selectFrom('sites as site').selectAll('site').select(structureColumns(db, sql.ref<string>('site.id'))).where('site.id', '=', siteId);

/** The site's row and structure parsed, once per remembered row (db/prepared.ts). */
function publishedSiteRowsOf(row: SiteRow & StructureColumns): PublishedSiteRows {
  const { groups, sections, site_spaces, spaces, ...site } = row;
  return publishedSiteOf(site, { groups, sections, site_spaces, spaces });
}

const publishedSiteQuery = preparedQuery<'siteId', SiteRow & StructureColumns, PublishedSiteRows>((db, param) => publishedSiteSelect(db, param('siteId')), {
  remember: true,
  made: publishedSiteRowsOf,
});

const byInstallationId = (a: InstallationOnSiteRow, b: InstallationOnSiteRow) => (a.installation_id < b.installation_id ? -1 : 1);

/** The site with the installations whose scripts every page of it loads: what the reader reads first, in one round trip. */
const publishedSiteWithInstallationsQuery = preparedQuery<'siteId', SiteRow & StructureColumns & { installations: unknown }, PublishedSiteWithInstallations>(
  (db, param) =>
    publishedSiteSelect(db, param('siteId')).select(
      jsonRowsOf(db, installationsOnSiteSelect(db, sql.ref<string>('site.organization_id'), sql.ref<string>('site.id'))).as('installations'),
    ),
  {
    remember: true,
    made: ({ installations, ...row }) => ({ ...publishedSiteRowsOf(row), installations: jsonRows<InstallationOnSiteRow>(installations).sort(byInstallationId) }),
  },
);

/**
 * A space with its counters, and in the same round trip the site a site token reads,
 * as published: what a site token's read under /spaces/{spaceId} needs (plugins/auth.ts).
 */
type SpaceWithSiteRow = SpaceWithCounters & StructureColumns & { revision_git_stamp: string | null; site: unknown };

type SpaceWithPublishedSite = { space: SpaceReadWithToken; published: PublishedSiteRows | undefined };

/** The site's row and structure parsed, once per remembered row (db/prepared.ts). */
function spaceWithPublishedSiteOf(row: SpaceWithSiteRow): SpaceWithPublishedSite {
  const { revision_git_stamp, site, groups, sections, site_spaces, spaces, ...space } = row;
  const [siteRow] = jsonRows<SiteRow>(site);
  return {
    space: { row: space, revisionGitStamp: revision_git_stamp },
    published: siteRow && publishedSiteOf(siteRow, { groups, sections, site_spaces, spaces }),
  };
}

const spaceWithPublishedSiteQuery = preparedQuery<'spaceId' | 'siteId', SpaceWithSiteRow, SpaceWithPublishedSite>(
  (db, param) =>
    db
      .selectFrom('spaces as s')
      .leftJoin('space_git_syncs as g', 'g.space_id', 's.id')
      .selectAll('s')
      .select(GIT_SYNC_COLUMNS)
      .select([
        REVISION_GIT_STAMP,
        jsonRowsOf(db, db.selectFrom('sites as site').select(SITE_COLUMNS.map((name) => `site.${name}` as const)).where('site.id', '=', param('siteId'))).as('site'),
        ...structureColumns(db, param('siteId')),
      ])
      .where('s.id', '=', param('spaceId')),
  { remember: true, made: spaceWithPublishedSiteOf },
);

function inPositionOrder<Row extends { position: string; id: string }>(rows: Row[]): Row[] {
  return rows.sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The site as published (shared by every reader of the remembered row: never changed). */
export async function readPublishedSite(db: Db, siteId: string): Promise<PublishedSiteRows | undefined> {
  return (await publishedSiteQuery(db, { siteId }))[0];
}

/** The site as published with its installations (readPublishedSite's, and installationsOnSite's in id order), for the reader's pages. */
export async function readPublishedSiteWithInstallations(db: Db, siteId: string): Promise<PublishedSiteWithInstallations | undefined> {
  return (await publishedSiteWithInstallationsQuery(db, { siteId }))[0];
}

/** A space and the site a site token reads (undefined when either is gone), in one round trip. */
export async function readSpaceWithPublishedSite(db: Db, spaceId: string, siteId: string): Promise<SpaceWithPublishedSite | undefined> {
  return (await spaceWithPublishedSiteQuery(db, { spaceId, siteId }))[0];
}

function publishedSiteOf(site: SiteRow, { groups, sections, site_spaces: siteSpaces, spaces }: StructureColumns): PublishedSiteRows {
  return {
    site,
    // In position order as readSiteStructure answers; an aggregate's order is not the subquery's by any promise.
    structure: { groups: inPositionOrder(jsonRows<SectionGroupRow>(groups)), sections: inPositionOrder(jsonRows<SectionRow>(sections)), siteSpaces: inPositionOrder(jsonRows<SiteSpaceRow>(siteSpaces)) },
    spaces: new Map(jsonRows<PublishedSpaceRow>(spaces).map((space) => [space.id, space])),
  };
}
