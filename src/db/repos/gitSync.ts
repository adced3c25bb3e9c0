import type { Db, RevisionGitTable, SpaceGitSyncsTable } from '../schema.ts';

export type SpaceGitSyncRow = SpaceGitSyncsTable;
export type RevisionGitRow = RevisionGitTable;

export function findSpaceGitSync(db: Db, spaceId: string): Promise<SpaceGitSyncRow | undefined> {
  return db.selectFrom('space_git_syncs').selectAll().where('space_id', '=', spaceId).executeTakeFirst();
}

export async function upsertSpaceGitSync(db: Db, row: SpaceGitSyncRow): Promise<void> {
  const { space_id: _key, ...changes } = row;
  await db.insertInto('space_git_syncs').values(row).onConflict((conflict) => conflict.column('space_id').doUpdateSet(changes)).execute();
}

export async function updateSpaceGitSync(db: Db, spaceId: string, changes: Partial<SpaceGitSyncRow>): Promise<void> {
  await db.updateTable('space_git_syncs').set(changes).where('space_id', '=', spaceId).execute();
}

export function findRevisionGit(db: Db, revisionId: string): Promise<RevisionGitRow | undefined> {
  return db.selectFrom('revision_git').selectAll().where('revision_id', '=', revisionId).executeTakeFirst();
}

export async function upsertRevisionGit(db: Db, row: RevisionGitRow): Promise<void> {
  const { revision_id: _key, ...changes } = row;
  await db.insertInto('revision_git').values(row).onConflict((conflict) => conflict.column('revision_id').doUpdateSet(changes)).execute();
}
