// The Git Sync job: runs one import (gitSyncImport.ts) or export (gitSyncExport.ts) of a
// space with its remote, as the person it acts as, and says how it went: on the
// connection (git/info), in one log line, and to integrations (space_gitsync_*). An
// export of waiting merges that fails is retried with back-off until it succeeds; when
// an operation ends, merges still waiting are exported. Only a successful operation sets
// the connection (gitSyncState.ts); credentials are never stored or logged in clear.
import { findChangeRequest } from '../db/repos/changeRequests.ts';
import { deleteGitSyncExportsBefore, findSpaceGitSync, foldGitSyncExportsInto, startGitSyncOperationUnlessRunning, updateGitSyncOperation, updateSpaceGitSync } from '../db/repos/gitSync.ts';
import { findSpace } from '../db/repos/spaces.ts';
import { findUserById } from '../db/repos/users.ts';
import type { Db, SpaceGitSyncRow } from '../db/schema.ts';
import { AppError } from '../errors.ts';
import { enqueueJob, RetryUntilDone, startJobSoon } from '../jobs/queue.ts';
import { isoNow } from '../lib/clock.ts';
import { GitRemoteError, GitWorkspace } from '../lib/gitRemote.ts';
import { createFetcher, FetchRefused } from '../lib/safeFetch.ts';
import { unseal } from '../lib/secretBox.ts';
import { RepositoryFormatError } from '../content/gitbook/repository.ts';
import type { Actor, ServiceContext } from './context.ts';
import { authorizeSpaceDrafts } from './contentAccess.ts';
import { afterCommit, recordEvent } from './events.ts';
import { exportFrom } from './gitSyncExport.ts';
import { importInto } from './gitSyncImport.ts';
import { conflictWaiting, connectionTarget, finish, mergesWaiting, runningOperation, syncedWith, type GitSyncPayload } from './gitSyncState.ts';

/** Whether a failure is the operation's outcome (said to the person) rather than a fault of Quire's. */
function isOutcome(error: unknown): error is Error {
  return error instanceof GitRemoteError || error instanceof RepositoryFormatError || error instanceof AppError || error instanceof FetchRefused;
}

export const GIT_SYNC_JOB = 'git-sync';

/** An operation of the connection as the person it acts as, unless one is running (another process may have started it); answers its job. */
export async function startConnectionOperation(ctx: ServiceContext, trx: Db, row: SpaceGitSyncRow, direction: 'import' | 'export'): Promise<string | undefined> {
  const operation = runningOperation(ctx, direction);
  if (!(await startGitSyncOperationUnlessRunning(trx, row.space_id, operation))) return undefined;
  const payload: GitSyncPayload = { spaceId: row.space_id, userId: row.user_id!, operation: operation.operation_id, direction, target: connectionTarget(row), force: false, standalone: false, changes: direction === 'export' };
  return enqueueJob(trx, ctx.clock, GIT_SYNC_JOB, payload);
}

/**
 * Starts the export of the space's waiting merges, unless an operation is running (it
 * looks for waiting merges when it ends), none waits, or an import's conflict waits in
 * a change request.
 */
export async function exportWaitingChanges(ctx: ServiceContext, spaceId: string): Promise<void> {
  const jobId = await ctx.db.transaction().execute(async (trx) => {
    const row = await findSpaceGitSync(trx, spaceId);
    if (!row?.sealed_url || !row.user_id || row.operation_state === 'running' || !(await mergesWaiting(trx, row))) return undefined;
    return startConnectionOperation(ctx, trx, row, 'export');
  });
  if (jobId) startJobSoon(ctx, jobId, runGitSync);
}

/** A job queued before operations named their target whole: its remote, branch and folder, with the rest the row's. */
type QueuedPayload = GitSyncPayload | (Omit<GitSyncPayload, 'target'> & { sealedUrl: string; ref: string; projectDirectory: string });

/** The job: runs the space's last asked-for operation; a superseded or finished one does nothing. */
export async function runGitSync(ctx: ServiceContext, queued: QueuedPayload): Promise<void> {
  const row = await findSpaceGitSync(ctx.db, queued.spaceId);
  if (!row || row.operation_id !== queued.operation || row.operation_state === 'success') return;
  const payload: GitSyncPayload =
    'target' in queued
      ? queued
      : { ...queued, target: { ...connectionTarget(row), sealedUrl: queued.sealedUrl, ref: queued.ref, projectDirectory: queued.projectDirectory } };
  // A failed export of waiting merges runs again; any other operation that ended stays as it ended.
  if (row.operation_state === 'failure') {
    if (!payload.changes || !(await updateGitSyncOperation(ctx.db, payload.spaceId, payload.operation, { operation_state: 'running', operation_ended_at: null }))) return;
  }
  const log = ctx.log.child({ spaceId: payload.spaceId, git: payload.target.url, ref: payload.target.ref, direction: payload.direction });
  log.info('git sync started');
  await announceGitSync(ctx, payload, 'space_gitsync_started');
  let retry: RetryUntilDone | undefined;
  try {
    const actor = await actingPerson(ctx, payload);
    if (actor) {
      const synced = syncedWith(await adoptResolvedConflict(ctx, row), payload.target);
      const workspace = await GitWorkspace.open(unseal(ctx.secretsKey(), payload.target.sealedUrl), createFetcher(ctx.config.allowPrivateUrls));
      try {
        if (payload.direction === 'import') await importInto(ctx, actor, workspace, synced, payload);
        else await exportFrom(ctx, actor, workspace, synced, payload);
      } finally {
        await workspace.close();
      }
      log.info('git sync finished');
    }
  } catch (error) {
    if (!isOutcome(error)) log.error({ err: error }, 'git sync failed unexpectedly');
    const message = isOutcome(error) ? error.message : `Git Sync failed unexpectedly (${(error as Error).message}); the server's log has the details`;
    await finish(ctx, ctx.db, payload, { operation_state: 'failure', operation_error: message, failure_error: message, failure_at: isoNow(ctx.clock) });
    // The queue's one line names the space and the remote; an operation a person asked for is theirs to run again.
    if (payload.changes) retry = new RetryUntilDone(`Git Sync could not export the merges of space ${payload.spaceId} to ${payload.target.url} (${payload.target.ref}): ${message}`);
    else log.warn(`git sync failed: ${message}`);
  }
  await announceGitSync(ctx, payload, 'space_gitsync_completed');
  if (retry) throw retry;
  await exportWaitingChanges(ctx, payload.spaceId);
}

/**
 * The person the operation acts as. For the export of merges, one who may no longer
 * sync the space ends those exports, which says why; undefined then.
 */
async function actingPerson(ctx: ServiceContext, payload: GitSyncPayload): Promise<Actor | undefined> {
  const user = await findUserById(ctx.db, payload.userId);
  if (!payload.changes) {
    if (!user) throw new GitRemoteError('The person who started this sync no longer exists; start it again');
    return { user, tokenId: 'git-sync' };
  }
  const actor = user ? { user, tokenId: 'git-sync' } : undefined;
  const allowed = actor && (await authorizeSpaceDrafts(ctx.db, actor, payload.spaceId, 'triggerGitSync').then(
    (authorized) => authorized.space.deleted_at === null,
    (error: unknown) => {
      if (error instanceof AppError) return false;
      throw error;
    },
  ));
  if (allowed) return actor;
  await ctx.db.transaction().execute(async (trx) => {
    await deleteGitSyncExportsBefore(trx, payload.spaceId);
    await finish(ctx, trx, payload, {
      exports_changes: 0,
      operation_state: 'failure',
      operation_error: 'Changes are no longer exported: the person who set up the export may no longer sync this space. Export again to set it up',
    });
  });
  return undefined;
}

/**
 * Once the change request an import's conflict waits in is merged or closed, the
 * repository's commit counts as seen: the next import merges from it, and the next
 * export commits onto it. Merges the change request's merge took in wait no more.
 */
async function adoptResolvedConflict(ctx: ServiceContext, row: SpaceGitSyncRow): Promise<SpaceGitSyncRow> {
  if (!row.conflict_change_request || (await conflictWaiting(ctx.db, row))) return row;
  const changeRequest = await findChangeRequest(ctx.db, row.space_id, row.conflict_change_request);
  const seen = { last_commit: row.conflict_commit, last_revision: row.conflict_revision, conflict_commit: null, conflict_revision: null, conflict_change_request: null };
  await ctx.db.transaction().execute(async (trx) => {
    await updateSpaceGitSync(trx, row.space_id, seen);
    if (changeRequest?.status === 'merged' && changeRequest.revision_merged) await foldGitSyncExportsInto(trx, row.space_id, changeRequest.revision_merged);
  });
  return { ...row, ...seen };
}

/** Tells the space's integrations that an operation started, or how it ended (GitBook's space_gitsync_* events). */
async function announceGitSync(ctx: ServiceContext, payload: GitSyncPayload, type: 'space_gitsync_started' | 'space_gitsync_completed'): Promise<void> {
  const committed = await ctx.db.transaction().execute(async (trx) => {
    const [row, space] = await Promise.all([findSpaceGitSync(trx, payload.spaceId), findSpace(trx, payload.spaceId)]);
    if (!row || !space || row.operation_id !== payload.operation) return undefined;
    const state = type === 'space_gitsync_completed' ? { state: row.operation_state === 'success' ? ('success' as const) : ('failure' as const) } : {};
    return recordEvent(ctx, trx, { type, organizationId: space.organization_id, spaceId: space.id, revisionId: space.revision_id, commitId: row.last_commit ?? '', ...state });
  });
  await afterCommit(ctx, committed);
}
