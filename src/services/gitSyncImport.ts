// Git Sync's import: the ref's last commit read in GitBook's format
// (content/gitbook/repository.ts) and made one revision from the revision of the last
// sync (pages keep their ids where their files keep their paths; what is unchanged since
// is reused), which then merges into the space as a change request would: a
// fast-forward, else three-way. Conflicts leave the space alone and the import waits in
// a change request, which exports wait for too. An imported revision names its commit's
// author.
import { readRepository, type RepositorySource } from '../content/gitbook/repository.ts';
import { deleteGitSyncExportsBefore, foldGitSyncExportsInto, updateSpaceGitSync, upsertRevisionGit } from '../db/repos/gitSync.ts';
import { isRevisionOfSpace } from '../db/repos/revisions.ts';
import { findSpace } from '../db/repos/spaces.ts';
import type { Db, GitBlob, GitPaths, SpaceGitSyncRow } from '../db/schema.ts';
import { NotFound } from '../errors.ts';
import { isoNow } from '../lib/clock.ts';
import { GitRemoteError, type GitWorkspace } from '../lib/gitRemote.ts';
import { mergeRevisionIntoSpace } from './changeRequestContent.ts';
import { openChangeRequest } from './changeRequests.ts';
import type { Actor, ServiceContext } from './context.ts';
import { storeImportedRevision } from './gitbookRepository.ts';
import { commitUrl, conflictWaiting, connect, finish, type GitSyncPayload } from './gitSyncState.ts';
import { redirectSpacePaths } from './siteRedirects.ts';

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
export async function importInto(ctx: ServiceContext, actor: Actor, workspace: GitWorkspace, row: SpaceGitSyncRow, payload: GitSyncPayload): Promise<string | undefined> {
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
