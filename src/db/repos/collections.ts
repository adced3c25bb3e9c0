// Collections: nestable groups of spaces.
import { preparedQuery } from '../prepared.ts';
import type { Db, CollectionRow } from '../schema.ts';

export async function insertCollection(db: Db, collection: CollectionRow): Promise<void> {
  await db.insertInto('collections').values(collection).execute();
}

export function findCollection(db: Db, collectionId: string): Promise<CollectionRow | undefined> {
  return db.selectFrom('collections').selectAll().where('id', '=', collectionId).executeTakeFirst();
}

/** Every collection of an organization, for resolving inheritance and nesting in memory. */
const collectionsOfOrganizationQuery = preparedQuery<'organizationId', CollectionRow>(
  (db, param) => db.selectFrom('collections').selectAll().where('organization_id', '=', param('organizationId')),
  { remember: true },
);

/** Every collection of an organization: content roles follow their tree. */
export async function collectionsOfOrganization(db: Db, organizationId: string): Promise<readonly CollectionRow[]> {
  return collectionsOfOrganizationQuery(db, { organizationId });
}

export function collectionsQuery(db: Db, organizationId: string, topLevelOnly: boolean) {
  return db
    .selectFrom('collections as c')
    .selectAll('c')
    .where('c.organization_id', '=', organizationId)
    .$if(topLevelOnly, (q) => q.where('c.parent_id', 'is', null));
}

export async function updateCollection(
  db: Db,
  collectionId: string,
  changes: Partial<Omit<CollectionRow, 'id' | 'created_at'>>,
): Promise<void> {
  await db.updateTable('collections').set(changes).where('id', '=', collectionId).execute();
}

export async function deleteCollections(db: Db, collectionIds: string[]): Promise<void> {
  if (collectionIds.length === 0) return;
  await db.deleteFrom('content_grants').where('target_kind', '=', 'collection').where('target_id', 'in', collectionIds).execute();
  await db.deleteFrom('collections').where('id', 'in', collectionIds).execute();
}

/** Moves collections (a subtree) to another organization. */
export async function reassignCollections(db: Db, collectionIds: string[], organizationId: string): Promise<void> {
  if (collectionIds.length === 0) return;
  await db.updateTable('collections').set({ organization_id: organizationId }).where('id', 'in', collectionIds).execute();
}
