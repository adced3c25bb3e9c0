// The Git Sync job: runs one import or export of a space with its remote.
//
// An import fetches the ref's last commit, reads it in GitBook's format
// (content/gitbook/repository.ts) and makes one revision from the revision of the last
// sync (pages keep their ids where their files keep their paths), which then merges into
// the space as a change request would: a fast-forward, else three-way. Conflicts leave
// the space alone and the import waits in a change request, which exports wait for too.
//
// An export writes a revision's pages and files onto the ref's head and pushes, one
// commit per merge the space waits to export, each authored by the person who made it
// (Quire commits). A ref that moved since the last sync is imported and merged first.
// The commit is recorded on the connection before it is pushed, so a run that died
// after its push finds it on the remote and pushes nothing twice. An export of waiting
// merges that fails is retried with back-off until it succeeds.
//
// Only a successful operation sets the connection (remote, sealed credentials, branch,
// the person it acts as); credentials are never stored or logged in clear.
import { randomBytes } from 'node:crypto';
import { posix } from 'node:path';
import { computedPagesBlocksOf, readConfig, RepositoryFormatError, readRepository, type RepositorySource } from '../content/gitbook/repository.ts';
import { findChangeRequest } from '../db/repos/changeRequests.ts';
import {
  countGitSyncExports,
  deleteGitSyncExport,
  deleteGitSyncExportsBefore,
  endGitSyncOperation,
  findLastRevisionGitOfSpace,
  findRevisionGit,
  findSpaceGitSync,
  foldGitSyncExportsInto,
  listGitSyncExports,
  startGitSyncOperationUnlessRunning,
  updateGitSyncOperation,
  updateSpaceGitSync,
  upsertRevisionGit,
} from '../db/repos/gitSync.ts';
import { isRevisionOfSpace } from '../db/repos/revisions.ts';
import { findSpace } from '../db/repos/spaces.ts';
import { findUserById } from '../db/repos/users.ts';
import type { Db, GitBlob, GitPaths, GitSyncExportRow, RevisionGitRow, SpaceGitSyncRow, UserRow } from '../db/schema.ts';
import { AppError, NotFound } from '../errors.ts';
import { enqueueJob, RetryUntilDone, startJobSoon } from '../jobs/queue.ts';
import { isoNow } from '../lib/clock.ts';
import { GitRemoteError, GitWorkspace, type GitPerson } from '../lib/gitRemote.ts';
import { newId } from '../lib/ids.ts';
import { createFetcher, FetchRefused } from '../lib/safeFetch.ts';
import { seal, unseal } from '../lib/secretBox.ts';
import { mergeRevisionIntoSpace } from './changeRequestContent.ts';
import { openChangeRequest } from './changeRequests.ts';
import type { Actor, ServiceContext } from './context.ts';
import { authorizeSpaceDrafts } from './contentAccess.ts';
import { afterCommit, recordEvent } from './events.ts';
import { revisionAsRepository, storeImportedRevision } from './gitbookRepository.ts';
import { redirectSpacePaths } from './siteRedirects.ts';

export const GIT_SYNC_JOB = 'git-sync';
const QUIRE: GitPerson = { name: 'Quire', email: 'git-sync@quire.invalid' };

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

/** The connection as an operation's target. */
export function connectionTarget(row: SpaceGitSyncRow): GitTarget {
  return { sealedUrl: row.sealed_url!, url: row.url, ref: row.ref, projectDirectory: row.project_directory, treeUrl: row.tree_url, commitUrl: row.commit_url, provider: row.provider };
}

function sameRemote(row: SpaceGitSyncRow, target: GitTarget): boolean {
  return row.url === target.url && row.ref === target.ref && row.project_directory === target.projectDirectory;
}

/** The sync an operation starts from: the connection's, or none for another remote or branch. */
function syncedWith(row: SpaceGitSyncRow, target: GitTarget): SpaceGitSyncRow {
  if (sameRemote(row, target)) return row;
  return { ...row, last_commit: null, last_revision: null, pushing: null, conflict_commit: null, conflict_revision: null, conflict_change_request: null };
}

export function runningOperation(ctx: ServiceContext, direction: 'import' | 'export') {
  const now = isoNow(ctx.clock);
  return { operation_id: newId(), operation_direction: direction, operation_state: 'running' as const, operation_started_at: now, operation_ended_at: null, operation_error: null, operation_warnings: '[]', updated_at: now };
}

/** An import of the space waits in this change request while it is open: exporting would overwrite the repository's side. */
export async function conflictWaiting(db: Db, row: SpaceGitSyncRow) {
  if (!row.conflict_change_request) return undefined;
  const changeRequest = await findChangeRequest(db, row.space_id, row.conflict_change_request);
  return changeRequest && (changeRequest.status === 'open' || changeRequest.status === 'draft') ? changeRequest : undefined;
}

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
    if (!row?.sealed_url || !row.user_id || row.exports_changes !== 1 || row.operation_state === 'running') return undefined;
    if ((await countGitSyncExports(trx, spaceId)) === 0 || (await conflictWaiting(trx, row))) return undefined;
    return startConnectionOperation(ctx, trx, row, 'export');
  });
  if (jobId) startJobSoon(ctx, jobId, runGitSync);
}

/** Whether a failure is the operation's outcome (said to the person) rather than a fault of Quire's. */
function isOutcome(error: unknown): error is Error {
  return error instanceof GitRemoteError || error instanceof RepositoryFormatError || error instanceof AppError || error instanceof FetchRefused;
}

/** Ends the operation, unless another has been asked for since. */
function finish(ctx: ServiceContext, db: Db, payload: GitSyncPayload, changes: Partial<SpaceGitSyncRow>): Promise<void> {
  return endGitSyncOperation(db, payload.spaceId, payload.operation, { ...changes, operation_ended_at: isoNow(ctx.clock) });
}

/**
 * What a successful operation sets: its remote becomes the connection, acting as the
 * person who ran it, with a webhook secret made once; an export sets up the export of
 * merges. Merges waiting for another remote or branch are forgotten.
 */
async function connect(ctx: ServiceContext, trx: Db, payload: GitSyncPayload, row: SpaceGitSyncRow): Promise<Partial<SpaceGitSyncRow>> {
  const { target } = payload;
  const same = sameRemote(row, target);
  if (!same) await deleteGitSyncExportsBefore(trx, payload.spaceId);
  return {
    url: target.url,
    ref: target.ref,
    project_directory: target.projectDirectory,
    tree_url: target.treeUrl,
    commit_url: target.commitUrl,
    provider: target.provider,
    sealed_url: target.sealedUrl,
    user_id: payload.userId,
    exports_changes: payload.direction === 'export' || (same && row.exports_changes === 1) ? 1 : 0,
    sealed_webhook_secret: row.sealed_webhook_secret ?? seal(ctx.secretsKey(), randomBytes(24).toString('base64url')),
    failure_error: null,
    failure_at: null,
  };
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

/** Where a person sees the commit: under the repoCommitURL given, else the repository. */
function commitUrl(target: GitTarget, commit: string): string {
  return target.commitUrl ? `${target.commitUrl.replace(/\/+$/, '')}/${commit}` : target.url;
}

// ─── Import ─────────────────────────────────────────────────────────────────────────

/** A commit's files as a repository to read, file by file (markdown the process read before from memory), and their blob oids. */
async function repositoryAt(ctx: ServiceContext, workspace: GitWorkspace, commit: string, projectDirectory: string) {
  const oids = await workspace.files(commit);
  const read = async (path: string) => {
    const oid = oids.get(path)!;
    if (!/\.md$/i.test(path)) return workspace.read(oid);
    const known = ctx.revisions.gitFiles.get(oid);
    if (known) return known;
    const bytes = await workspace.read(oid);
    ctx.revisions.gitFiles.keep(oid, bytes);
    return bytes;
  };
  const source: RepositorySource = { paths: [...oids.keys()], read };
  return { source, oids, repository: await readRepository(source, projectDirectory) };
}

/** The revision the next import starts from: the one of the last sync, unless forced or gone. */
async function importBase(db: Db, row: SpaceGitSyncRow, spaceId: string, force: boolean): Promise<string> {
  const space = await findSpace(db, spaceId);
  if (!space) throw new NotFound(`No space with id "${spaceId}"`);
  if (!force && row.last_revision && (await isRevisionOfSpace(db, spaceId, row.last_revision))) return row.last_revision;
  return space.revision_id;
}

/** Imports the ref's last commit; answers the revision the space is at afterwards, or undefined when the import waits in a change request. */
async function importInto(ctx: ServiceContext, actor: Actor, workspace: GitWorkspace, row: SpaceGitSyncRow, payload: GitSyncPayload): Promise<string | undefined> {
  const { target } = payload;
  const commit = await workspace.fetch(target.ref);
  if (!commit) throw new GitRemoteError(`${target.url} has no ${target.ref}; push to it first, or export the space to create it`);
  const waiting = commit === row.conflict_commit && !payload.force ? await conflictWaiting(ctx.db, row) : undefined;
  if (waiting) {
    const error = `The import of ${commit.slice(0, 7)} waits in change request #${waiting.number}: resolve it there, or import with force to take the repository's version`;
    await finish(ctx, ctx.db, payload, { operation_state: 'failure', operation_error: error, failure_error: error, failure_at: isoNow(ctx.clock) });
    return undefined;
  }
  if (commit === row.last_commit && !payload.force && !payload.standalone && payload.direction === 'import') {
    // Nothing new in the repository (a webhook sent twice, say): no revision to make.
    await ctx.db.transaction().execute(async (trx) => finish(ctx, trx, payload, { ...(await connect(ctx, trx, payload, row)), operation_state: 'success', operation_warnings: '[]' }));
    return (await findSpace(ctx.db, payload.spaceId))?.revision_id;
  }
  const { source, oids, repository } = await repositoryAt(ctx, workspace, commit, target.projectDirectory);
  const { message, author } = await workspace.commitInfo(commit);
  const base = await importBase(ctx.db, row, payload.spaceId, payload.force);
  const prefix = repository.config.root ? `${repository.config.root}/` : '';
  const rooted = (paths: Record<string, GitBlob>): Record<string, GitBlob> => Object.fromEntries(Object.entries(paths).map(([id, [path, oid]]) => [id, [prefix + path, oid]]));
  const { revision: imported, content } = await storeImportedRevision(ctx, actor, payload.spaceId, {
    source,
    repository,
    base,
    oidOf: (path) => oids.get(path),
    alsoInTransaction: async (trx, revisionId, read) => {
      const paths: GitPaths = { pages: rooted(read.pagePaths), files: rooted(read.filePaths), reusables: rooted(read.reusablePaths), root: prefix };
      await upsertRevisionGit(trx, {
        revision_id: revisionId,
        commit_oid: commit,
        message,
        url: commitUrl(target, commit),
        ref: target.ref,
        created_by_quire: 0,
        paths: JSON.stringify(paths),
        created_at: isoNow(ctx.clock),
        author_name: author.name,
        author_email: author.email,
      });
    },
  });
  const synced = { last_commit: commit, last_revision: imported, operation_warnings: JSON.stringify(content.warnings) };
  const subject = `Git Sync: ${target.ref.replace(/^refs\/heads\//, '')} at ${commit.slice(0, 7)}`;
  if (payload.standalone) {
    await ctx.db.transaction().execute(async (trx) => {
      const changeRequest = await openChangeRequest(ctx, trx, actor, payload.spaceId, { subject, base, revision: imported });
      await finish(ctx, trx, payload, { operation_state: 'success', operation_warnings: JSON.stringify([...content.warnings, `the import is in change request #${changeRequest.number}, for review`]) });
    });
    return undefined;
  }
  return mergeRevisionIntoSpace(ctx, actor, payload.spaceId, { base, revision: imported, summary: subject }, async (trx, outcome) => {
    if ('conflicts' in outcome) {
      const changeRequest = await openChangeRequest(ctx, trx, actor, payload.spaceId, { subject, base, revision: imported });
      const pages = [...new Set(outcome.conflicts.map((conflict) => `"${'page' in conflict ? conflict.page.title : conflict.reusableContent.title}"`))].join(', ');
      const error = `The repository and the space both changed ${pages} since the last sync. The import waits in change request #${changeRequest.number}: resolve it there, or import with force to take the repository's version`;
      await finish(ctx, trx, payload, {
        operation_state: 'failure',
        operation_error: error,
        failure_error: error,
        failure_at: isoNow(ctx.clock),
        operation_warnings: JSON.stringify(content.warnings),
        conflict_commit: commit,
        conflict_revision: imported,
        conflict_change_request: changeRequest.id,
      });
      return undefined;
    }
    await redirectSpacePaths(ctx, trx, payload.spaceId, content.redirects);
    // The merges waiting for their commits are in the merged revision now: one commit carries them, on top of the repository's.
    if (outcome.revision === imported) await deleteGitSyncExportsBefore(trx, payload.spaceId);
    else await foldGitSyncExportsInto(trx, payload.spaceId, outcome.revision);
    const resolved = { conflict_commit: null, conflict_revision: null, conflict_change_request: null };
    if (payload.direction === 'import') await finish(ctx, trx, payload, { ...(await connect(ctx, trx, payload, row)), ...synced, ...resolved, operation_state: 'success' });
    else await updateSpaceGitSync(trx, payload.spaceId, { ...synced, ...resolved });
    return outcome.revision;
  });
}

// ─── Export ─────────────────────────────────────────────────────────────────────────

/** The branch as the export last left it: its head, files and the sync they match. */
interface ExportState {
  head: string | undefined;
  files: Map<string, string>;
  row: SpaceGitSyncRow;
}

/** Exports onto the ref: the waiting merges one commit each, or the space as it is now in one. */
async function exportFrom(ctx: ServiceContext, actor: Actor, workspace: GitWorkspace, start: SpaceGitSyncRow, payload: GitSyncPayload): Promise<void> {
  let row = start;
  let head = await workspace.fetch(payload.target.ref);
  const pushed = row.pushing ? (JSON.parse(row.pushing) as RevisionGitRow) : undefined;
  if (pushed && head === pushed.commit_oid) {
    // A run that died after its push: the commit is there; record it and push nothing again.
    await recordExported(ctx, payload, pushed);
    row = { ...row, last_commit: pushed.commit_oid, last_revision: pushed.revision_id };
  }
  if (head && row.last_commit && head !== row.last_commit && !payload.force) {
    // The repository moved since the last sync: its changes come in first, never overwritten.
    const merged = await importInto(ctx, actor, workspace, row, payload);
    if (merged === undefined) return;
    row = (await findSpaceGitSync(ctx.db, payload.spaceId))!;
    head = row.last_commit ?? head;
  }
  let state: ExportState = { head, files: head ? await workspace.files(head) : new Map(), row };
  if (payload.changes) {
    for (;;) {
      const current = await findSpaceGitSync(ctx.db, payload.spaceId);
      if (current?.operation_id !== payload.operation) return;
      const [next] = await listGitSyncExports(ctx.db, payload.spaceId);
      if (!next) break;
      if (next.revision_id === state.row.last_revision) await deleteGitSyncExport(ctx.db, payload.spaceId, next.revision_id);
      else state = await exportRevision(ctx, workspace, state, payload, { id: next.revision_id, message: next.summary, author: await authorOf(ctx, next.author_id), waiting: next });
    }
  } else {
    // What waits now is in the space's revision, read after it.
    const waiting = payload.standalone ? [] : await listGitSyncExports(ctx.db, payload.spaceId);
    const space = await findSpace(ctx.db, payload.spaceId);
    if (!space) throw new NotFound(`No space with id "${payload.spaceId}"`);
    state = await exportRevision(ctx, workspace, state, payload, { id: space.revision_id, message: payload.commitMessage || 'Update from Quire', author: personOf(actor.user) });
    for (const done of waiting) await deleteGitSyncExport(ctx.db, payload.spaceId, done.revision_id);
  }
  await ctx.db.transaction().execute(async (trx) => finish(ctx, trx, payload, { operation_state: 'success', ...(payload.standalone ? {} : await connect(ctx, trx, payload, start)) }));
}

function personOf(user: Pick<UserRow, 'display_name' | 'email'>): GitPerson {
  return { name: user.display_name, email: user.email };
}

/** A merge's author as git names them; Quire for someone no longer here. */
async function authorOf(ctx: ServiceContext, userId: string | null): Promise<GitPerson> {
  const user = userId ? await findUserById(ctx.db, userId) : undefined;
  return user ? personOf(user) : QUIRE;
}

/** Writes one revision onto the branch as a commit of its author, pushes it, and records it; answers the branch as it is then. */
async function exportRevision(
  ctx: ServiceContext,
  workspace: GitWorkspace,
  state: ExportState,
  payload: GitSyncPayload,
  revision: { id: string; message: string; author: GitPerson; waiting?: GitSyncExportRow },
): Promise<ExportState> {
  const { target } = payload;
  const space = await findSpace(ctx.db, payload.spaceId);
  if (!space) throw new NotFound(`No space with id "${payload.spaceId}"`);
  const { head, files: existing } = state;
  const configPath = posix.join(target.projectDirectory || '.', '.gitbook.yaml');
  const config = readConfig(existing.has(configPath) ? (await workspace.read(existing.get(configPath)!)).toString('utf8') : undefined, target.projectDirectory);
  const prefix = config.root ? `${config.root}/` : '';
  const previous = state.row.last_revision ? await findRevisionGit(ctx.db, state.row.last_revision) : undefined;
  const previousPaths: GitPaths = previous ? JSON.parse(previous.paths) : { pages: {}, files: {} };
  // What the last sync with this branch wrote goes; what Quire never wrote stays.
  const written = new Map(existing);
  for (const [path] of [...Object.values(previousPaths.pages), ...Object.values(previousPaths.files), ...Object.values(previousPaths.reusables ?? {})]) written.delete(path);
  const oids = new Map<string, string>();
  const present = new Set(existing.values());
  // Pages keep their files' paths on any branch: a space first exported to a new branch
  // keeps the layout of the repository it was last synced with, within this export's root.
  const otherBranch = previous ? undefined : await findLastRevisionGitOfSpace(ctx.db, payload.spaceId);
  const keptPaths: GitPaths = otherBranch ? JSON.parse(otherBranch.paths) : previousPaths;
  const keptRoot = keptPaths.root ?? prefix;
  const strip = (path: string) => (keptRoot && path.startsWith(keptRoot) ? path.slice(keptRoot.length) : path);
  const keptOf = (paths: Record<string, GitBlob>) => new Map(Object.entries(paths).map(([id, [path]]) => [id, strip(path)]));
  // Pages GitBook computes are listed in SUMMARY.md by their source, which Quire does not compute: they stay where they are listed.
  const summary = existing.get(prefix + config.summary);
  const computedPages = summary ? computedPagesBlocksOf((await workspace.read(summary)).toString('utf8'), config.summary) : [];
  const kept = { pages: keptOf(keptPaths.pages), reusables: keptOf(keptPaths.reusables ?? {}), computedPages };
  const place = (path: string, oid: string) => {
    oids.set(path, oid);
    written.set(prefix + path, oid);
  };
  // A page untouched since the last sync with this branch, whose file the branch still holds as then, keeps that file.
  const synced = previous && {
    revisionId: previous.revision_id,
    pageBlobs: new Map(Object.entries(previousPaths.pages).flatMap(([id, [path, oid]]) => (existing.get(path) === oid ? [[id, oid] as const] : []))),
    files: keptOf(previousPaths.files),
    keep: place,
  };
  const layout = await revisionAsRepository(
    ctx.db,
    { organization_id: space.organization_id, revision_id: revision.id },
    config,
    kept,
    async (path, bytes) => place(path, await workspace.writeBlob(bytes, present)),
    synced,
  );
  const rooted = (paths: Map<string, string>): Record<string, GitBlob> => Object.fromEntries([...paths].map(([id, path]) => [id, [prefix + path, oids.get(path)!]]));
  const paths: GitPaths = { pages: rooted(layout.pagePaths), files: rooted(layout.filePaths), reusables: rooted(layout.reusablePaths), root: prefix };
  const sameAsHead = head !== undefined && written.size === existing.size && [...written].every(([path, oid]) => existing.get(path) === oid);
  const record = (commit: string, createdByQuire: 0 | 1, author: GitPerson | undefined): RevisionGitRow => ({
    revision_id: revision.id,
    commit_oid: commit,
    message: revision.message,
    url: commitUrl(target, commit),
    ref: target.ref,
    created_by_quire: createdByQuire,
    paths: JSON.stringify(paths),
    created_at: isoNow(ctx.clock),
    author_name: author?.name ?? null,
    author_email: author?.email ?? null,
  });
  if (sameAsHead) {
    await recordExported(ctx, payload, record(head, 0, undefined), revision.waiting);
    return { head, files: existing, row: { ...state.row, last_commit: head, last_revision: revision.id } };
  }
  const commit = await workspace.commit(written, head, revision.message, revision.author, QUIRE);
  const pushing = record(commit, 1, revision.author);
  // Recorded before the push: a run that dies after it finds the commit and pushes nothing twice.
  if (!(await updateGitSyncOperation(ctx.db, payload.spaceId, payload.operation, { pushing: JSON.stringify(pushing) }))) return state;
  await workspace.push(commit, target.ref, payload.force);
  await recordExported(ctx, payload, pushing, revision.waiting);
  return { head: commit, files: written, row: { ...state.row, last_commit: commit, last_revision: revision.id } };
}

/** A revision now on the branch: its commit, the sync it is (but for a snapshot), and the merge that waited for it. */
async function recordExported(ctx: ServiceContext, payload: GitSyncPayload, commit: RevisionGitRow, waiting?: GitSyncExportRow): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    await upsertRevisionGit(trx, commit);
    await updateSpaceGitSync(trx, payload.spaceId, { pushing: null, ...(payload.standalone ? {} : { last_commit: commit.commit_oid, last_revision: commit.revision_id }) });
    if (waiting) await deleteGitSyncExport(trx, payload.spaceId, waiting.revision_id);
  });
}
