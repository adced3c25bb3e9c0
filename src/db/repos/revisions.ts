// Revisions: immutable versions of a space's content.
import type { Db, RevisionsTable } from '../schema.ts';

export type RevisionRow = RevisionsTable;

export async function insertRevision(db: Db, revision: RevisionRow): Promise<void> {
  await db.insertInto('revisions').values(revision).execute();
}
