// Git Sync: POST /v1/spaces/{spaceId}/git/import and …/git/export start a durable job
// and answer 204; GET …/git/info answers the connection and its last operation.
//
// An import fetches the ref's last commit, reads it in GitBook's format
// (content/gitbook/repository.ts) and makes one revision from the revision of the last
// sync (pages keep their ids where their files keep their paths), which then merges into
// the space as a change request would: a fast-forward, else three-way. Conflicts leave
// the space alone and the import waits in a change request. An export writes the
// space's pages and files onto the ref's head and pushes; a ref that moved since the
// last sync is imported and merged first. The URL's credentials are sealed in the job
// and never stored or logged in clear.
import { posix } from 'node:path';
import { computedPagesBlocksOf, readConfig, RepositoryFormatError, readRepository, type RepositorySource } from '../content/gitbook/repository.ts';
import { deleteSpaceGitSync, endGitSyncOperation, findLastRevisionGitOfSpace, findRevisionGit, findSpaceGitSync, updateSpaceGitSync, upsertRevisionGit, upsertSpaceGitSync } from '../db/repos/gitSync.ts';
import { isRevisionOfSpace } from '../db/repos/revisions.ts';
import { findSpace } from '../db/repos/spaces.ts';
import { findUserById } from '../db/repos/users.ts';
import type { Db, GitBlob, GitPaths, SpaceGitSyncRow } from '../db/schema.ts';
import { AppError, BadRequest, NotFound } from '../errors.ts';
import { enqueueJob, RetryLater, startJobSoon } from '../jobs/queue.ts';
import { isoNow } from '../lib/clock.ts';
import { GitRemoteError, GitWorkspace, withoutCredentials } from '../lib/gitRemote.ts';
import { newId } from '../lib/ids.ts';
import { createFetcher, FetchRefused } from '../lib/safeFetch.ts';
import { seal, unseal } from '../lib/secretBox.ts';
import { presentGitSyncState } from '../presenters/gitSync.ts';
import { mergeRevisionIntoSpace } from './changeRequestContent.ts';
import { openChangeRequest } from './changeRequests.ts';
import type { Actor, ServiceContext } from './context.ts';
import { authorizeSpaceDrafts } from './contentAccess.ts';
import { revisionAsRepository, storeImportedRevision } from './gitbookRepository.ts';
import { redirectSpacePaths } from './siteRedirects.ts';
import { afterCommit, recordEvent } from './events.ts';

export const GIT_SYNC_JOB = 'git-sync';
const COMMITTER = { name: 'Quire', email: 'git-sync@quire.invalid' };

interface GitOperationInput {
  url: string;
  ref: string;
  repoProjectDirectory?: string;
  repoTreeURL?: string;
  repoCommitURL?: string;
  repoCacheID?: string;
  force?: boolean;
  timestamp?: string;
  gitInfo?: { provider?: string; url?: string };
}

export type GitImportInput = GitOperationInput & { standalone?: boolean };
export type GitExportInput = GitOperationInput & { commitMessage: string; standalone?: boolean };

interface GitSyncPayload {
  spaceId: string;
  userId: string;
  operation: string;
  direction: 'import' | 'export';
  /** The URL as given, credentials included, sealed with the secrets key. */
  sealedUrl: string;
  ref: string;
  projectDirectory: string;
  force: boolean;
  standalone: boolean;
  commitMessage?: string;
}

function checkedRef(ref: string, direction: 'import' | 'export'): string {
  const full = ref.startsWith('refs/') ? ref : `refs/heads/${ref}`;
  if (!/^refs\/(heads|tags)\/[^\s~^:?*[\\]+$/.test(full) || full.includes('..') || full.endsWith('/') || full.endsWith('.lock')) {
    throw new BadRequest(`ref: "${ref}" is not a git ref; give a branch as "refs/heads/main"`);
  }
  if (direction === 'export' && !full.startsWith('refs/heads/')) throw new BadRequest(`ref: an export pushes to a branch ("refs/heads/…"), not ${full}`);
  return full;
}

function checkedUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new BadRequest('url: not a URL; give the repository\'s HTTPS address, such as https://github.com/acme/docs.git');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new BadRequest(`url: Git Sync speaks git over HTTP(S); ${parsed.protocol} URLs are not supported. Put a token in an https URL: https://user:token@host/repo.git`);
  }
  return url;
}

function checkedDirectory(directory: string | undefined): string {
  const clean = posix.normalize((directory ?? '').replace(/^\/+|\/+$/g, '') || '.');
  if (clean.startsWith('..')) throw new BadRequest('repoProjectDirectory: the project directory must be inside the repository');
  return clean === '.' ? '' : clean;
}

function providerOf(url: string, given: string | undefined): string | null {
  if (given) return given;
  const host = new URL(url).hostname;
  return host === 'github.com' ? 'github' : host === 'gitlab.com' ? 'gitlab' : null;
}

/** Starts an import or an export; a request older than the last one asked for (by `timestamp`) is stale and does nothing. */
async function requestOperation(ctx: ServiceContext, actor: Actor, spaceId: string, direction: 'import' | 'export', input: GitImportInput & Partial<GitExportInput>): Promise<void> {
  const url = checkedUrl(input.url);
  const ref = checkedRef(input.ref, direction);
  const projectDirectory = checkedDirectory(input.repoProjectDirectory);
  const timestamp = input.timestamp ? new Date(input.timestamp).toISOString() : undefined;
  const jobId = await ctx.db.transaction().execute(async (trx) => {
    await authorizeSpaceDrafts(trx, actor, spaceId, 'triggerGitSync');
    const existing = await findSpaceGitSync(trx, spaceId);
    if (timestamp && existing?.last_timestamp && timestamp < existing.last_timestamp) return undefined;
    const shown = withoutCredentials(url);
    // A different repository or ref starts afresh: nothing is in sync with it yet.
    const same = existing?.url === shown && existing.ref === ref;
    const connection: SpaceGitSyncRow = {
      space_id: spaceId,
      url: shown,
      ref,
      project_directory: projectDirectory,
      tree_url: input.gitInfo?.url ?? input.repoTreeURL ?? existing?.tree_url ?? null,
      commit_url: input.repoCommitURL ?? existing?.commit_url ?? null,
      provider: providerOf(url, input.gitInfo?.provider) ?? existing?.provider ?? null,
      last_commit: same ? existing.last_commit : null,
      last_revision: same ? existing.last_revision : null,
      last_timestamp: timestamp ?? existing?.last_timestamp ?? null,
      export_sealed_url: same ? existing.export_sealed_url : null,
      export_user_id: same ? existing.export_user_id : null,
      ...runningOperation(ctx, direction),
    };
    return startOperation(ctx, trx, connection, {
      spaceId,
      userId: actor.user.id,
      direction,
      sealedUrl: seal(ctx.secretsKey(), url),
      ref,
      projectDirectory,
      force: input.force ?? false,
      standalone: input.standalone ?? false,
      ...(direction === 'export' ? { commitMessage: input.commitMessage } : {}),
    });
  });
  if (jobId) startJobSoon(ctx, jobId, runGitSync);
}

function runningOperation(ctx: ServiceContext, direction: 'import' | 'export') {
  const now = isoNow(ctx.clock);
  return {
    operation_id: newId(),
    operation_direction: direction,
    operation_state: 'running' as const,
    operation_started_at: now,
    operation_ended_at: null,
    operation_error: null,
    operation_warnings: '[]',
    updated_at: now,
  };
}

/** Records the connection with its new running operation and queues the job that runs it. */
async function startOperation(ctx: ServiceContext, trx: Db, connection: SpaceGitSyncRow, payload: Omit<GitSyncPayload, 'operation'>): Promise<string> {
  await upsertSpaceGitSync(trx, connection);
  return enqueueJob(trx, ctx.clock, GIT_SYNC_JOB, { ...payload, operation: connection.operation_id });
}

/** Whether the space's changes go to git: an export (not standalone) set it up, and nobody has disconnected it since. */
export async function exportsChanges(db: Db, spaceId: string): Promise<boolean> {
  return (await findSpaceGitSync(db, spaceId))?.export_sealed_url != null;
}

/**
 * A subscriber to the space's content changes: exports the space to the branch its
 * last export went to, as the person who set that up, unless the content is already
 * there (it came from git). It waits while another operation runs, which may bring the
 * change to git itself.
 */
export async function exportContentChange(ctx: ServiceContext, change: { spaceId: string; summary: string }): Promise<void> {
  const jobId = await ctx.db.transaction().execute(async (trx) => {
    const row = await findSpaceGitSync(trx, change.spaceId);
    if (!row?.export_sealed_url || !row.export_user_id) return undefined;
    if (row.operation_state === 'running') throw new RetryLater(`Git Sync is running an ${row.operation_direction} of space ${change.spaceId}; its next export waits for it`);
    const space = await findSpace(trx, change.spaceId);
    if (!space || space.deleted_at !== null || space.revision_id === row.last_revision) return undefined;
    const user = await findUserById(trx, row.export_user_id);
    // A refusal (404, 403) ends the exports; any other failure is the delivery's, retried.
    const allowed = user && (await authorizeSpaceDrafts(trx, { user, tokenId: 'git-sync' }, change.spaceId, 'triggerGitSync').then(() => true, (error: unknown) => {
      if (error instanceof AppError) return false;
      throw error;
    }));
    if (!allowed) {
      await updateSpaceGitSync(trx, change.spaceId, {
        export_sealed_url: null,
        export_user_id: null,
        operation_state: 'failure',
        operation_error: 'Changes are no longer exported: the person who set up the export may no longer sync this space. Export again to set it up',
        operation_ended_at: isoNow(ctx.clock),
      });
      return undefined;
    }
    return startOperation(ctx, trx, { ...row, ...runningOperation(ctx, 'export') }, {
      spaceId: change.spaceId,
      userId: row.export_user_id,
      direction: 'export',
      sealedUrl: row.export_sealed_url,
      ref: row.ref,
      projectDirectory: row.project_directory,
      force: false,
      standalone: false,
      commitMessage: change.summary,
    });
  });
  if (jobId) startJobSoon(ctx, jobId, runGitSync);
}

/** Forgets the space's connection to git: no more exports of its changes; revisions keep the commits they match. */
export async function disconnectGitSync(ctx: ServiceContext, actor: Actor, spaceId: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    await authorizeSpaceDrafts(trx, actor, spaceId, 'triggerGitSync');
    if (!(await deleteSpaceGitSync(trx, spaceId))) throw new NotFound(`Space "${spaceId}" is not synced with a git repository`);
  });
}

export function importGitRepository(ctx: ServiceContext, actor: Actor, spaceId: string, input: GitImportInput): Promise<void> {
  return requestOperation(ctx, actor, spaceId, 'import', input);
}

export function exportToGitRepository(ctx: ServiceContext, actor: Actor, spaceId: string, input: GitExportInput): Promise<void> {
  return requestOperation(ctx, actor, spaceId, 'export', input);
}

/** The space's Git Sync connection and its last operation; 404 when it has none. */
export async function getSpaceGitInfo(ctx: ServiceContext, actor: Actor, spaceId: string) {
  await authorizeSpaceDrafts(ctx.db, actor, spaceId, 'view');
  const row = await findSpaceGitSync(ctx.db, spaceId);
  if (!row) throw new NotFound(`Space "${spaceId}" is not synced with a git repository`);
  return presentGitSyncState(row);
}

/** Whether a failure is the operation's outcome (said to the person) rather than a fault of Quire's. */
function isOutcome(error: unknown): error is Error {
  return error instanceof GitRemoteError || error instanceof RepositoryFormatError || error instanceof AppError || error instanceof FetchRefused;
}

/** Ends the operation, unless another has been asked for since. */
function finish(ctx: ServiceContext, db: Db, payload: GitSyncPayload, changes: Partial<SpaceGitSyncRow>): Promise<void> {
  return endGitSyncOperation(db, payload.spaceId, payload.operation, { ...changes, operation_ended_at: isoNow(ctx.clock) });
}

/** The job: runs the space's last asked-for operation once; a superseded or finished one does nothing. */
export async function runGitSync(ctx: ServiceContext, payload: GitSyncPayload): Promise<void> {
  const row = await findSpaceGitSync(ctx.db, payload.spaceId);
  if (!row || row.operation_id !== payload.operation || row.operation_state !== 'running') return;
  const user = await findUserById(ctx.db, payload.userId);
  const url = unseal(ctx.secretsKey(), payload.sealedUrl);
  const log = ctx.log.child({ spaceId: payload.spaceId, git: row.url, ref: payload.ref, direction: payload.direction });
  log.info('git sync started');
  await announceGitSync(ctx, payload, 'space_gitsync_started');
  try {
    if (!user) throw new GitRemoteError('The person who started this sync no longer exists; start it again');
    const actor: Actor = { user, tokenId: 'git-sync' };
    const workspace = await GitWorkspace.open(url, createFetcher(ctx.config.allowPrivateUrls));
    try {
      if (payload.direction === 'import') await importInto(ctx, actor, workspace, row, payload);
      else await exportFrom(ctx, actor, workspace, row, payload);
    } finally {
      await workspace.close();
    }
    log.info('git sync finished');
  } catch (error) {
    if (!isOutcome(error)) log.error({ err: error }, 'git sync failed unexpectedly');
    else log.warn(`git sync failed: ${error.message}`);
    const message = isOutcome(error) ? error.message : `Git Sync failed unexpectedly (${(error as Error).message}); the server's log has the details`;
    await finish(ctx, ctx.db as Db, payload, { operation_state: 'failure', operation_error: message });
  }
  await announceGitSync(ctx, payload, 'space_gitsync_completed');
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

// ─── Import ─────────────────────────────────────────────────────────────────────────

/** A commit's files as a repository to read, file by file, and their blob oids. */
async function repositoryAt(workspace: GitWorkspace, commit: string, projectDirectory: string) {
  const oids = await workspace.files(commit);
  const source: RepositorySource = { paths: [...oids.keys()], read: (path) => workspace.read(oids.get(path)!) };
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
  const commit = await workspace.fetch(payload.ref);
  if (!commit) throw new GitRemoteError(`${row.url} has no ${payload.ref}; push to it first, or export the space to create it`);
  if (commit === row.last_commit && !payload.force && !payload.standalone && payload.direction === 'import') {
    // Nothing new in the repository (a webhook sent twice, say): no revision to make.
    await finish(ctx, ctx.db, payload, { operation_state: 'success', operation_warnings: '[]' });
    return (await findSpace(ctx.db, payload.spaceId))?.revision_id;
  }
  const { source, oids, repository } = await repositoryAt(workspace, commit, payload.projectDirectory);
  const message = await workspace.commitMessage(commit);
  const base = await importBase(ctx.db, row, payload.spaceId, payload.force);
  const prefix = repository.config.root ? `${repository.config.root}/` : '';
  const { revision: imported, content } = await storeImportedRevision(ctx, actor, payload.spaceId, {
    source,
    repository,
    base,
    oidOf: (path) => oids.get(path),
    alsoInTransaction: async (trx, revisionId, read) => {
      const paths: GitPaths = {
        pages: Object.fromEntries(Object.entries(read.pagePaths).map(([id, [path, oid]]) => [id, [prefix + path, oid]])),
        files: Object.fromEntries(Object.entries(read.filePaths).map(([id, [path, oid]]) => [id, [prefix + path, oid]])),
        reusables: Object.fromEntries(Object.entries(read.reusablePaths).map(([id, [path, oid]]) => [id, [prefix + path, oid]])),
        root: prefix,
      };
      await upsertRevisionGit(trx, { revision_id: revisionId, commit_oid: commit, message, url: commitUrl(row, commit), ref: payload.ref, created_by_quire: 0, paths: JSON.stringify(paths), created_at: isoNow(ctx.clock) });
    },
  });
  const synced = { last_commit: commit, last_revision: imported, operation_warnings: JSON.stringify(content.warnings) };
  const subject = `Git Sync: ${payload.ref.replace(/^refs\/heads\//, '')} at ${commit.slice(0, 7)}`;
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
      await finish(ctx, trx, payload, {
        operation_state: 'failure',
        operation_error: `The repository and the space both changed ${pages} since the last sync. The import waits in change request #${changeRequest.number}: resolve it there, or import with force to take the repository's version`,
        operation_warnings: JSON.stringify(content.warnings),
      });
      return undefined;
    }
    await redirectSpacePaths(ctx, trx, payload.spaceId, content.redirects);
    if (payload.direction === 'import') await finish(ctx, trx, payload, { ...synced, operation_state: 'success' });
    else await updateSpaceGitSync(trx, payload.spaceId, synced);
    return outcome.revision;
  });
}

/** Where a person sees the commit: under the repoCommitURL given, else the repository. */
function commitUrl(row: SpaceGitSyncRow, commit: string): string {
  return row.commit_url ? `${row.commit_url.replace(/\/+$/, '')}/${commit}` : row.url;
}

// ─── Export ─────────────────────────────────────────────────────────────────────────

/** Exports the space onto the ref; answers nothing, records the commit. */
async function exportFrom(ctx: ServiceContext, actor: Actor, workspace: GitWorkspace, row: SpaceGitSyncRow, payload: GitSyncPayload): Promise<void> {
  let head = await workspace.fetch(payload.ref);
  let current = row;
  if (head && row.last_commit && head !== row.last_commit && !payload.force) {
    // The repository moved since the last sync: its changes come in first, never overwritten.
    const merged = await importInto(ctx, actor, workspace, row, payload);
    if (merged === undefined) return;
    current = (await findSpaceGitSync(ctx.db, payload.spaceId))!;
    head = current.last_commit ?? head;
  }
  const space = await findSpace(ctx.db, payload.spaceId);
  if (!space) throw new NotFound(`No space with id "${payload.spaceId}"`);
  const revisionId = space.revision_id;
  const existing = head ? await workspace.files(head) : new Map<string, string>();
  const configPath = posix.join(payload.projectDirectory || '.', '.gitbook.yaml');
  const config = readConfig(existing.has(configPath) ? (await workspace.read(existing.get(configPath)!)).toString('utf8') : undefined, payload.projectDirectory);
  const prefix = config.root ? `${config.root}/` : '';
  const previous = current.last_revision ? await findRevisionGit(ctx.db, current.last_revision) : undefined;
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
  const layout = await revisionAsRepository(ctx.db, space, config, kept, async (path, bytes) => {
    const oid = await workspace.writeBlob(bytes, present);
    oids.set(path, oid);
    written.set(prefix + path, oid);
  });
  const paths: GitPaths = {
    pages: Object.fromEntries([...layout.pagePaths].map(([id, path]) => [id, [prefix + path, oids.get(path)!]])),
    files: Object.fromEntries([...layout.filePaths].map(([id, path]) => [id, [prefix + path, oids.get(path)!]])),
    reusables: Object.fromEntries([...layout.reusablePaths].map(([id, path]) => [id, [prefix + path, oids.get(path)!]])),
    root: prefix,
  };
  const sameAsHead = head && written.size === existing.size && [...written].every(([path, oid]) => existing.get(path) === oid);
  let commit = head;
  if (!sameAsHead || !head) {
    commit = await workspace.commit(written, head, payload.commitMessage || 'Update from Quire', COMMITTER);
    await workspace.push(commit, payload.ref, payload.force);
  }
  await ctx.db.transaction().execute(async (trx) => {
    await upsertRevisionGit(trx, { revision_id: revisionId, commit_oid: commit!, message: payload.commitMessage ?? '', url: commitUrl(row, commit!), ref: payload.ref, created_by_quire: sameAsHead ? 0 : 1, paths: JSON.stringify(paths), created_at: isoNow(ctx.clock) });
    // An export that links the space to the branch sets up the export of its next changes.
    const exportSetUp = payload.standalone ? {} : { export_sealed_url: payload.sealedUrl, export_user_id: payload.userId };
    await finish(ctx, trx, payload, { last_commit: commit!, last_revision: revisionId, operation_state: 'success', ...exportSetUp });
  });
}
