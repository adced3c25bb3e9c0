// Revisions: immutable versions of a space's content, each naming its page tree's root.
import type { Insertable, Selectable } from 'kysely';
import type { Db, RevisionsTable } from '../schema.ts';

export type RevisionRow = Selectable<RevisionsTable>;
export type NewRevision = Insertable<RevisionsTable>;

export async function insertRevision(db: Db, revision: NewRevision): Promise<void> {
  await db.insertInto('revisions').values(revision).execute();
}

export function findRevision(db: Db, revisionId: string): Promise<RevisionRow | undefined> {
  return db.selectFrom('revisions').selectAll().where('id', '=', revisionId).executeTakeFirst();
}
