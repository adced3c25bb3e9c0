// The search index's rows: the sections of each space's pages (search_sections) and
// which revision, by which conversion, each space's sections were made from
// (search_state). Writing sections and matching a query differ by engine: they live in
// db/fullText.ts.
import type { Db } from '../schema.ts';

/** Where a live space's index stands: its current revision, the one indexed (null: none), and the conversion that indexed it. */
export function searchIndexPosition(db: Db, spaceId: string) {
  return db
    .selectFrom('spaces as s')
    .leftJoin('search_state as st', 'st.space_id', 's.id')
    .select(['s.revision_id as current', 'st.revision_id as indexed', 'st.conversion'])
    .where('s.id', '=', spaceId)
    .where('s.deleted_at', 'is', null)
    .executeTakeFirst();
}

/** Live spaces whose index is missing, behind their revision, or made by a conversion older than `conversion`. */
export function staleIndexSpaces(db: Db, conversion: number, limit?: number): Promise<Array<{ id: string }>> {
  const query = db
    .selectFrom('spaces as s')
    .leftJoin('search_state as st', 'st.space_id', 's.id')
    .select('s.id')
    .where('s.deleted_at', 'is', null)
    .where((eb) => eb.or([eb('st.revision_id', 'is', null), eb('st.revision_id', '!=', eb.ref('s.revision_id')), eb('st.conversion', '<', conversion)]));
  return (limit === undefined ? query : query.limit(limit)).execute();
}

/** Records the revision a space's index is at, and the conversion that made its sections. */
export async function markSpaceIndexed(trx: Db, spaceId: string, revisionId: string, conversion: number): Promise<void> {
  await trx
    .insertInto('search_state')
    .values({ space_id: spaceId, revision_id: revisionId, conversion })
    .onConflict((conflict) => conflict.column('space_id').doUpdateSet({ revision_id: revisionId, conversion }))
    .execute();
}

/** Forgets the revision a space's index is at: it counts as not indexed. */
export async function forgetSpaceIndexed(trx: Db, spaceId: string): Promise<void> {
  await trx.deleteFrom('search_state').where('space_id', '=', spaceId).execute();
}

/** The pages of a space that have sections in the index. */
export async function indexedPageIds(db: Db, spaceId: string): Promise<string[]> {
  const rows = await db.selectFrom('search_sections').select('page_id').distinct().where('space_id', '=', spaceId).execute();
  return rows.map((row) => row.page_id);
}

/** Deletes at most `limit` sections of the pages, from section index `from` on; answers how many it deleted. */
export async function deleteSections(trx: Db, spaceId: string, pageIds: string[], from: number, limit: number): Promise<number> {
  const doomed = trx
    .selectFrom('search_sections')
    .select('id')
    .where('space_id', '=', spaceId)
    .where('page_id', 'in', pageIds)
    .where('section_index', '>=', from)
    .limit(limit);
  const result = await trx.deleteFrom('search_sections').where('id', 'in', doomed).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Deletes a page's sections with indexes first to last, both included. */
export async function deleteSectionSpan(trx: Db, spaceId: string, pageId: string, first: number, last: number): Promise<void> {
  await trx
    .deleteFrom('search_sections')
    .where('space_id', '=', spaceId)
    .where('page_id', '=', pageId)
    .where('section_index', '>=', first)
    .where('section_index', '<=', last)
    .execute();
}
