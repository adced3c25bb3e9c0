import { sql } from 'kysely';
import { preparedQuery } from '../prepared.ts';
import type { Db, GitSyncExportRow, RevisionGitRow, SpaceGitSyncRow } from '../schema.ts';

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

/** Starts an operation unless one is running: of several processes asking at once, one starts it. Answers whether this one did. */
export async function startGitSyncOperationUnlessRunning(db: Db, spaceId: string, operation: Partial<SpaceGitSyncRow>): Promise<boolean> {
  const result = await db.updateTable('space_git_syncs').set(operation).where('space_id', '=', spaceId).where('operation_state', '!=', 'running').executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Changes the row while this operation is the last asked for; answers whether it still was. */
export async function updateGitSyncOperation(db: Db, spaceId: string, operationId: string, changes: Partial<SpaceGitSyncRow>): Promise<boolean> {
  const result = await db.updateTable('space_git_syncs').set(changes).where('space_id', '=', spaceId).where('operation_id', '=', operationId).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
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

// ─── Merges waiting to be exported ──────────────────────────────────────────────────

/** Queues a merge after the space's others, in the transaction that made it (which the space's revision swap serializes). */
export async function insertGitSyncExport(db: Db, row: Omit<GitSyncExportRow, 'position'>): Promise<void> {
  const last = await db.selectFrom('git_sync_exports').select((eb) => eb.fn.max('position').as('position')).where('space_id', '=', row.space_id).executeTakeFirst();
  await db
    .insertInto('git_sync_exports')
    .values({ ...row, position: Number(last?.position ?? 0) + 1 })
    .onConflict((conflict) => conflict.columns(['space_id', 'revision_id']).doNothing())
    .execute();
}

/** The space's merges waiting for their commits, oldest first. */
export function listGitSyncExports(db: Db, spaceId: string): Promise<GitSyncExportRow[]> {
  return db.selectFrom('git_sync_exports').selectAll().where('space_id', '=', spaceId).orderBy('position').execute();
}

export async function countGitSyncExports(db: Db, spaceId: string): Promise<number> {
  const row = await db.selectFrom('git_sync_exports').select((eb) => eb.fn.countAll<number | string>().as('count')).where('space_id', '=', spaceId).executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function deleteGitSyncExport(db: Db, spaceId: string, revisionId: string): Promise<void> {
  await db.deleteFrom('git_sync_exports').where('space_id', '=', spaceId).where('revision_id', '=', revisionId).execute();
}

/** Forgets the waiting merges queued before the one at `position` (a later revision already in sync holds them), or all of them. */
export async function deleteGitSyncExportsBefore(db: Db, spaceId: string, position?: number): Promise<void> {
  let query = db.deleteFrom('git_sync_exports').where('space_id', '=', spaceId);
  if (position !== undefined) query = query.where('position', '<', position);
  await query.execute();
}

/**
 * The merges queued before this revision's are in it: they wait no more, and its commit
 * says what they were, in order, by the last one's author.
 */
export async function foldGitSyncExportsInto(db: Db, spaceId: string, revisionId: string): Promise<void> {
  const waiting = await listGitSyncExports(db, spaceId);
  const into = waiting.find((row) => row.revision_id === revisionId);
  if (!into) return deleteGitSyncExportsBefore(db, spaceId);
  const earlier = waiting.filter((row) => row.position < into.position);
  if (earlier.length === 0) return;
  const summary = [...earlier, into].map((row) => row.summary).join('\n\n');
  await db.updateTable('git_sync_exports').set({ summary, author_id: earlier.at(-1)!.author_id ?? into.author_id }).where('space_id', '=', spaceId).where('revision_id', '=', revisionId).execute();
  await deleteGitSyncExportsBefore(db, spaceId, into.position);
}

/** Connected spaces (not in the trash) whose poll is due, claimed by moving their next poll: of several processes, one claims each space. */
export async function claimDueGitSyncPolls(db: Db, now: string, next: string, limit: number): Promise<SpaceGitSyncRow[]> {
  const due = await db
    .selectFrom('space_git_syncs')
    .innerJoin('spaces', 'spaces.id', 'space_git_syncs.space_id')
    .selectAll('space_git_syncs')
    .where('spaces.deleted_at', 'is', null)
    .where('sealed_url', 'is not', null)
    .where((eb) => eb.or([eb('next_poll_at', 'is', null), eb('next_poll_at', '<=', now)]))
    .orderBy('next_poll_at')
    .limit(limit)
    .execute();
  const claimed: SpaceGitSyncRow[] = [];
  for (const row of due) {
    let update = db.updateTable('space_git_syncs').set({ next_poll_at: next }).where('space_id', '=', row.space_id);
    update = row.next_poll_at === null ? update.where('next_poll_at', 'is', null) : update.where('next_poll_at', '=', row.next_poll_at);
    if (Number((await update.executeTakeFirst()).numUpdatedRows) > 0) claimed.push({ ...row, next_poll_at: next });
  }
  return claimed;
}
