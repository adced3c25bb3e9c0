// Revisions: immutable versions of a space's content, each naming its page tree's root.
import { preparedQuery } from '../prepared.ts';
import type { Db, NewRevision, RevisionRow } from '../schema.ts';

export async function insertRevision(db: Db, revision: NewRevision): Promise<void> {
  await db.insertInto('revisions').values(revision).execute();
}

const revisionQuery = preparedQuery<'revisionId', RevisionRow>((db, param) => db.selectFrom('revisions').selectAll().where('id', '=', param('revisionId')));

/** Every read of a revision's content starts here. */
export async function findRevision(db: Db, revisionId: string): Promise<RevisionRow | undefined> {
  return (await revisionQuery(db, { revisionId }))[0];
}

/** Records that a revision belongs to a space (its history or one of its change requests). */
export async function addSpaceRevision(db: Db, spaceId: string, revisionId: string): Promise<void> {
  await db
    .insertInto('space_revisions')
    .values({ space_id: spaceId, revision_id: revisionId })
    .onConflict((conflict) => conflict.columns(['space_id', 'revision_id']).doNothing())
    .execute();
}

export async function isRevisionOfSpace(db: Db, spaceId: string, revisionId: string): Promise<boolean> {
  const row = await db
    .selectFrom('space_revisions')
    .select('revision_id')
    .where('space_id', '=', spaceId)
    .where('revision_id', '=', revisionId)
    .executeTakeFirst();
  return row !== undefined;
}
