import { sql } from 'kysely';
import { preparedQuery } from '../prepared.ts';
import type { Db, RevisionGitRow, SpaceGitSyncRow } from '../schema.ts';

export function findSpaceGitSync(db: Db, spaceId: string): Promise<SpaceGitSyncRow | undefined> {
  return db.selectFrom('space_git_syncs').selectAll().where('space_id', '=', spaceId).executeTakeFirst();
}

export async function upsertSpaceGitSync(db: Db, row: SpaceGitSyncRow): Promise<void> {
  const { space_id: _key, ...changes } = row;
  await db.insertInto('space_git_syncs').values(row).onConflict((conflict) => conflict.column('space_id').doUpdateSet(changes)).execute();
}

/** Answers whether there was a connection to forget. */
export async function deleteSpaceGitSync(db: Db, spaceId: string): Promise<boolean> {
  const result = await db.deleteFrom('space_git_syncs').where('space_id', '=', spaceId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function updateSpaceGitSync(db: Db, spaceId: string, changes: Partial<SpaceGitSyncRow>): Promise<void> {
  await db.updateTable('space_git_syncs').set(changes).where('space_id', '=', spaceId).execute();
}

/** Records the end of an operation, unless another has been asked for since. */
export async function endGitSyncOperation(db: Db, spaceId: string, operationId: string, changes: Partial<SpaceGitSyncRow> & { operation_ended_at: string }): Promise<void> {
  await db.updateTable('space_git_syncs').set({ ...changes, updated_at: changes.operation_ended_at }).where('space_id', '=', spaceId).where('operation_id', '=', operationId).execute();
}

/**
 * What changes when a revision's Git metadata is written again (each sync or export
 * writes its commit, branch and time): the same stamp is the same row. As SQL, for the
 * current revision of spaces as s (null when it matches no commit), and from a row read.
 */
export const REVISION_GIT_STAMP = sql<string | null>`(select rg.commit_oid || ' ' || rg.ref || ' ' || rg.created_at from revision_git rg where rg.revision_id = s.revision_id)`.as(
  'revision_git_stamp',
);

export function revisionGitStamp(row: RevisionGitRow): string {
  return `${row.commit_oid} ${row.ref} ${row.created_at}`;
}

const revisionGitQuery = preparedQuery<'revisionId', RevisionGitRow>(
  (db, param) => db.selectFrom('revision_git').selectAll().where('revision_id', '=', param('revisionId')),
  { remember: true },
);

/** The commit a revision matches, if any: read by every API read of content, so prepared and remembered. */
export async function findRevisionGit(db: Db, revisionId: string): Promise<RevisionGitRow | undefined> {
  return (await revisionGitQuery(db, { revisionId }))[0];
}

/** The last commit any revision of the space was synced with, on whatever branch: where its pages' files were last. */
export function findLastRevisionGitOfSpace(db: Db, spaceId: string): Promise<RevisionGitRow | undefined> {
  return db
    .selectFrom('revision_git')
    .innerJoin('space_revisions', 'space_revisions.revision_id', 'revision_git.revision_id')
    .selectAll('revision_git')
    .where('space_revisions.space_id', '=', spaceId)
    .orderBy('revision_git.created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function upsertRevisionGit(db: Db, row: RevisionGitRow): Promise<void> {
  const { revision_id: _key, ...changes } = row;
  await db.insertInto('revision_git').values(row).onConflict((conflict) => conflict.column('revision_id').doUpdateSet(changes)).execute();
}
