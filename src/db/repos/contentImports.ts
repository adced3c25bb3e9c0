// Imports of a website into a change request: one row per import, pending until the
// job that crawls it writes its revision.
import type { ContentImportRow, Db } from '../schema.ts';

export async function insertContentImport(db: Db, row: ContentImportRow): Promise<void> {
  await db.insertInto('content_imports').values(row).execute();
}

export function findContentImport(db: Db, importId: string): Promise<ContentImportRow | undefined> {
  return db.selectFrom('content_imports').selectAll().where('id', '=', importId).executeTakeFirst();
}

/** Marks a pending import done with the revision it wrote; answers false when it was no longer pending (another run finished it). */
export async function finishContentImport(
  trx: Db,
  importId: string,
  done: { revisionId: string; importedResources: number; totalResources: number },
): Promise<boolean> {
  const result = await trx
    .updateTable('content_imports')
    .set({ status: 'done', revision_id: done.revisionId, imported_resources: done.importedResources, total_resources: done.totalResources })
    .where('id', '=', importId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
