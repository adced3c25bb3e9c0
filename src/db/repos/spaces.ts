// Spaces: where documentation lives. Deleting one only sets deleted_at; the purge
// job removes it for good after the retention window.
import type { ExpressionBuilder } from 'kysely';
import { preparedQuery } from '../prepared.ts';
import type { Database, Db, SpacesTable, SpaceWithCounters, SpaceRow } from '../schema.ts';

/** The Git Sync connection's columns, from space_git_syncs as g left-joined to spaces as s. */
export const GIT_SYNC_COLUMNS = ['g.url as git_url', 'g.provider as git_provider', 'g.tree_url as git_tree_url', 'g.updated_at as git_updated_at'] as const;

/** Spaces with their counters (stored in the row) and Git Sync connection, for presenting. */
function spacesWithCounters(db: Db) {
  return db.selectFrom('spaces as s').leftJoin('space_git_syncs as g', 'g.space_id', 's.id').selectAll('s').select(GIT_SYNC_COLUMNS);
}

export async function insertSpace(db: Db, space: SpaceRow): Promise<void> {
  await db.insertInto('spaces').values(space).execute();
}

const spaceByIdQuery = preparedQuery<'spaceId', SpaceRow>(
  (db, param) => db.selectFrom('spaces as s').selectAll('s').where('s.id', '=', param('spaceId')),
  { remember: true },
);

/**
 * A space, deleted or not; nearly every space-scoped request reads it to authorize.
 * Without the Git Sync join, which only presenting the space needs.
 */
export async function findSpace(db: Db, spaceId: string): Promise<SpaceRow | undefined> {
  return (await spaceByIdQuery(db, { spaceId }))[0];
}

const spaceWithCountersQuery = preparedQuery<'spaceId', SpaceWithCounters>(
  (db, param) => spacesWithCounters(db).where('s.id', '=', param('spaceId')),
  { remember: true },
);

/** A space with its counters and Git Sync connection, for presenting it. */
export async function findSpaceWithCounters(db: Db, spaceId: string): Promise<SpaceWithCounters | undefined> {
  return (await spaceWithCountersQuery(db, { spaceId }))[0];
}

export interface SpaceFilter {
  /** Only spaces directly in this collection. */
  parentId?: string;
  /** When set, only these spaces or spaces in these collections (for callers who see only some). */
  visibleTo?: { spaceIds: string[]; collectionIds: string[] };
}

/** Live spaces of an organization for the pagination helper. */
export function spacesQuery(db: Db, organizationId: string, filter: SpaceFilter = {}) {
  let query = spacesWithCounters(db)
    .where('s.organization_id', '=', organizationId)
    .where('s.deleted_at', 'is', null);
  if (filter.parentId !== undefined) query = query.where('s.parent_id', '=', filter.parentId);
  return filter.visibleTo ? query.where(visibleSpaces(filter.visibleTo)) : query;
}

function visibleSpaces(visible: NonNullable<SpaceFilter['visibleTo']>) {
  return (eb: ExpressionBuilder<Database & { s: SpacesTable }, 's'>) =>
    eb.or([
      eb('s.id', 'in', visible.spaceIds.length ? visible.spaceIds : ['']),
      eb('s.parent_id', 'in', visible.collectionIds.length ? visible.collectionIds : ['']),
    ]);
}

/** What roles on an organization's deleted spaces (deleted since `since`) depend on, for choosing whose trash shows which. */
export function deletedSpacesSince(db: Db, organizationId: string, since: string): Promise<SpaceRow[]> {
  return db
    .selectFrom('spaces')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('deleted_at', 'is not', null)
    .where('deleted_at', '>', since)
    .execute();
}

/** These deleted spaces with their counters, for the pagination helper. */
export function deletedSpacesQuery(db: Db, spaceIds: string[]) {
  return spacesWithCounters(db).where('s.id', 'in', spaceIds.length ? spaceIds : ['']).where('s.deleted_at', 'is not', null);
}

/** The ids of an organization's live spaces among those a partial reader sees. */
export async function spaceIdsVisibleTo(db: Db, organizationId: string, visible: NonNullable<SpaceFilter['visibleTo']>): Promise<string[]> {
  const rows = await db
    .selectFrom('spaces as s')
    .select('s.id')
    .where('s.organization_id', '=', organizationId)
    .where('s.deleted_at', 'is', null)
    .where(visibleSpaces(visible))
    .execute();
  return rows.map((row) => row.id);
}

/** Live spaces directly inside the given collections. */
export function spacesInCollections(db: Db, collectionIds: string[]): Promise<SpaceRow[]> {
  if (collectionIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('spaces').selectAll().where('parent_id', 'in', collectionIds).where('deleted_at', 'is', null).execute();
}

export async function updateSpace(
  db: Db,
  spaceId: string,
  changes: Partial<Omit<SpaceRow, 'id' | 'created_at'>>,
): Promise<void> {
  await db.updateTable('spaces').set(changes).where('id', '=', spaceId).execute();
}

export async function updateSpaces(
  db: Db,
  spaceIds: string[],
  changes: Partial<Omit<SpaceRow, 'id' | 'created_at'>>,
): Promise<void> {
  if (spaceIds.length === 0) return;
  await db.updateTable('spaces').set(changes).where('id', 'in', spaceIds).execute();
}

/** Removes a space for good, with its grants. */
export async function purgeSpace(db: Db, spaceId: string): Promise<void> {
  await db.deleteFrom('content_grants').where('target_kind', '=', 'space').where('target_id', '=', spaceId).execute();
  await db.deleteFrom('space_custom_field_values').where('space_id', '=', spaceId).execute();
  await db.deleteFrom('events').where('space_id', '=', spaceId).execute();
  await db.deleteFrom('spaces').where('id', '=', spaceId).execute();
}

export async function countSpaces(db: Db, organizationId: string, filter: SpaceFilter = {}): Promise<number> {
  const row = await spacesQuery(db, organizationId, filter)
    .clearSelect()
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

export function findSpacesByIds(db: Db, spaceIds: string[]): Promise<SpaceWithCounters[]> {
  if (spaceIds.length === 0) return Promise.resolve([]);
  return spacesWithCounters(db).where('s.id', 'in', spaceIds).execute();
}

/** Moves a space to a new revision only if it is still at `expected`; answers whether it did. */
export async function compareAndSetSpaceRevision(
  db: Db,
  spaceId: string,
  expected: string,
  next: string,
  updatedAt: string,
): Promise<boolean> {
  const result = await db
    .updateTable('spaces')
    .set({ revision_id: next, updated_at: updatedAt })
    .where('id', '=', spaceId)
    .where('revision_id', '=', expected)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** A space's current revision, deleted or not; undefined when there is no such space. */
export async function spaceRevisionId(db: Db, spaceId: string): Promise<string | undefined> {
  return (await db.selectFrom('spaces').select('revision_id').where('id', '=', spaceId).executeTakeFirst())?.revision_id;
}

/** The organization a space belongs to (read under the space's lock, it is where the space stays until the transaction ends). */
export async function spaceOrganizationId(db: Db, spaceId: string): Promise<string> {
  return (await db.selectFrom('spaces').select('organization_id').where('id', '=', spaceId).executeTakeFirstOrThrow()).organization_id;
}

/** The ids of every live space, of every organization. */
export async function allLiveSpaceIds(db: Db): Promise<string[]> {
  return (await db.selectFrom('spaces').select('id').where('deleted_at', 'is', null).execute()).map((row) => row.id);
}

/** Which of these spaces are live (exist and are not deleted). */
export async function liveSpaceIdsAmong(db: Db, spaceIds: string[]): Promise<string[]> {
  if (spaceIds.length === 0) return [];
  return (await db.selectFrom('spaces').select('id').where('id', 'in', spaceIds).where('deleted_at', 'is', null).execute()).map((row) => row.id);
}
