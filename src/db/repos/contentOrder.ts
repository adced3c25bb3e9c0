// The shared ordering of spaces and collections under one parent: both tables hold a
// fractional `position` that sorts as text among siblings of either kind.
import { sql } from 'kysely';
import type { Db } from '../schema.ts';

export type ContentKind = 'space' | 'collection';

export interface Sibling {
  kind: ContentKind;
  id: string;
  parentId: string | null;
  position: string;
}

function siblingsQuery(db: Db, organizationId: string, parentId: string | null) {
  const spaces = db
    .selectFrom('spaces')
    .select([sql<ContentKind>`'space'`.as('kind'), 'id', 'parent_id', 'position'])
    .where('organization_id', '=', organizationId)
    .where('deleted_at', 'is', null)
    .where('parent_id', parentId === null ? 'is' : '=', parentId);
  const collections = db
    .selectFrom('collections')
    .select([sql<ContentKind>`'collection'`.as('kind'), 'id', 'parent_id', 'position'])
    .where('organization_id', '=', organizationId)
    .where('parent_id', parentId === null ? 'is' : '=', parentId);
  return db.selectFrom(spaces.unionAll(collections).as('siblings')).selectAll();
}

/** The item a position names, if it is a live space or collection of the organization. */
export async function findOrderedItem(
  db: Db,
  organizationId: string,
  kind: ContentKind,
  id: string,
): Promise<Sibling | undefined> {
  const row =
    kind === 'space'
      ? await db
          .selectFrom('spaces')
          .select(['id', 'parent_id', 'position'])
          .where('organization_id', '=', organizationId)
          .where('id', '=', id)
          .where('deleted_at', 'is', null)
          .executeTakeFirst()
      : await db
          .selectFrom('collections')
          .select(['id', 'parent_id', 'position'])
          .where('organization_id', '=', organizationId)
          .where('id', '=', id)
          .executeTakeFirst();
  return row && { kind, id: row.id, parentId: row.parent_id, position: row.position };
}

/** The last position under a parent (not counting `excludeId`), or null when it has no children. */
export async function lastPosition(
  db: Db,
  organizationId: string,
  parentId: string | null,
  excludeId = '',
): Promise<string | null> {
  const row = await siblingsQuery(db, organizationId, parentId)
    .where('id', '!=', excludeId)
    .orderBy('position', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.position ?? null;
}

/** The nearest sibling position after (or before) a given one, skipping the item being moved. */
export async function neighbourPosition(
  db: Db,
  organizationId: string,
  parentId: string | null,
  position: string,
  direction: 'after' | 'before',
  excludeId: string,
): Promise<string | null> {
  const row = await siblingsQuery(db, organizationId, parentId)
    .where('position', direction === 'after' ? '>' : '<', position)
    .where('id', '!=', excludeId)
    .orderBy('position', direction === 'after' ? 'asc' : 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.position ?? null;
}
