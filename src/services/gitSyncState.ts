// Git Sync's state of a space: where an operation goes (its target), the connection it
// sets once it succeeds, how it ends, and an import's conflict that exports wait for.
// Shared by the job (gitSyncRun.ts), its import and its export, and by the requests
// (gitSync.ts).
import { randomBytes } from 'node:crypto';
import { findChangeRequest } from '../db/repos/changeRequests.ts';
import { countGitSyncExports, deleteGitSyncExportsBefore, endGitSyncOperation } from '../db/repos/gitSync.ts';
import type { Db, SpaceGitSyncRow } from '../db/schema.ts';
import { isoNow } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { seal } from '../lib/secretBox.ts';
import type { ServiceContext } from './context.ts';

/** Where an operation goes: the remote (with its credentials, sealed) and what is shown of it. */
export interface GitTarget {
  sealedUrl: string;
  url: string;
  ref: string;
  projectDirectory: string;
  treeUrl: string | null;
  commitUrl: string | null;
  provider: string | null;
}

export interface GitSyncPayload {
  spaceId: string;
  userId: string;
  operation: string;
  direction: 'import' | 'export';
  target: GitTarget;
  force: boolean;
  standalone: boolean;
  commitMessage?: string;
  /** The export of the space's waiting merges, a commit each, retried until done. */
  changes?: boolean;
}

/** What a target sets of the connection's row (the credentials apart). */
export function targetColumns(target: GitTarget) {
  return { url: target.url, ref: target.ref, project_directory: target.projectDirectory, tree_url: target.treeUrl, commit_url: target.commitUrl, provider: target.provider };
}

/** The connection as an operation's target. */
export function connectionTarget(row: SpaceGitSyncRow): GitTarget {
  return { sealedUrl: row.sealed_url!, url: row.url, ref: row.ref, projectDirectory: row.project_directory, treeUrl: row.tree_url, commitUrl: row.commit_url, provider: row.provider };
}

export function sameRemote(row: SpaceGitSyncRow, target: GitTarget): boolean {
  return row.url === target.url && row.ref === target.ref && row.project_directory === target.projectDirectory;
}

/** The sync an operation starts from: the connection's, or none for another remote or branch. */
export function syncedWith(row: SpaceGitSyncRow, target: GitTarget): SpaceGitSyncRow {
  if (sameRemote(row, target)) return row;
  return { ...row, last_commit: null, last_revision: null, pushing: null, conflict_commit: null, conflict_revision: null, conflict_change_request: null };
}

export function runningOperation(ctx: ServiceContext, direction: 'import' | 'export') {
  const now = isoNow(ctx.clock);
  return { operation_id: newId(), operation_direction: direction, operation_state: 'running' as const, operation_started_at: now, operation_ended_at: null, operation_error: null, operation_warnings: '[]', updated_at: now };
}

/** Whether merges wait for their commits and may go: the space exports its changes, some wait, and no import's conflict holds them back. */
export async function mergesWaiting(db: Db, row: SpaceGitSyncRow): Promise<boolean> {
  return row.exports_changes === 1 && (await countGitSyncExports(db, row.space_id)) > 0 && !(await conflictWaiting(db, row));
}

/** An import of the space waits in this change request while it is open: exporting would overwrite the repository's side. */
export async function conflictWaiting(db: Db, row: SpaceGitSyncRow) {
  if (!row.conflict_change_request) return undefined;
  const changeRequest = await findChangeRequest(db, row.space_id, row.conflict_change_request);
  return changeRequest && (changeRequest.status === 'open' || changeRequest.status === 'draft') ? changeRequest : undefined;
}


/** Ends the operation, unless another has been asked for since. */
export function finish(ctx: ServiceContext, db: Db, payload: GitSyncPayload, changes: Partial<SpaceGitSyncRow>): Promise<void> {
  return endGitSyncOperation(db, payload.spaceId, payload.operation, { ...changes, operation_ended_at: isoNow(ctx.clock) });
}

/**
 * What a successful operation sets: its remote becomes the connection, acting as the
 * person who ran it, with a webhook secret made once; an export sets up the export of
 * merges. Merges waiting for another remote or branch are forgotten.
 */
export async function connect(ctx: ServiceContext, trx: Db, payload: GitSyncPayload, row: SpaceGitSyncRow): Promise<Partial<SpaceGitSyncRow>> {
  const { target } = payload;
  const same = sameRemote(row, target);
  if (!same) await deleteGitSyncExportsBefore(trx, payload.spaceId);
  return {
    ...targetColumns(target),
    sealed_url: target.sealedUrl,
    user_id: payload.userId,
    exports_changes: payload.direction === 'export' || (same && row.exports_changes === 1) ? 1 : 0,
    sealed_webhook_secret: row.sealed_webhook_secret ?? seal(ctx.secretsKey(), randomBytes(24).toString('base64url')),
    failure_error: null,
    failure_at: null,
  };
}

/** Where a person sees the commit: under the repoCommitURL given, else the repository. */
export function commitUrl(target: GitTarget, commit: string): string {
  return target.commitUrl ? `${target.commitUrl.replace(/\/+$/, '')}/${commit}` : target.url;
}
