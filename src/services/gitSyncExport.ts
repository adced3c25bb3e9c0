// Git Sync's export: a revision's pages and files written onto the ref's head and
// pushed, one commit per merge the space waits to export, each authored by the person who
// made it (Quire commits); a page untouched since the last sync keeps its file. A ref
// that moved since the last sync is imported and merged first. The commit is recorded on
// the connection before it is pushed, so a run that died after its push finds it on the
// remote and pushes nothing twice.
import { posix } from 'node:path';
import { computedPagesBlocksOf, readConfig } from '../content/gitbook/repository.ts';
import { deleteGitSyncExport, findLastRevisionGitOfSpace, findRevisionGit, findSpaceGitSync, listGitSyncExports, updateGitSyncOperation, updateSpaceGitSync, upsertRevisionGit } from '../db/repos/gitSync.ts';
import { findSpace } from '../db/repos/spaces.ts';
import { findUserById } from '../db/repos/users.ts';
import type { GitBlob, GitPaths, GitSyncExportRow, RevisionGitRow, SpaceGitSyncRow, UserRow } from '../db/schema.ts';
import { NotFound } from '../errors.ts';
import { isoNow } from '../lib/clock.ts';
import type { GitPerson, GitWorkspace } from '../lib/gitRemote.ts';
import type { Actor, ServiceContext } from './context.ts';
import { revisionAsRepository } from './gitbookRepository.ts';
import { importInto } from './gitSyncImport.ts';
import { commitUrl, connect, finish, type GitSyncPayload } from './gitSyncState.ts';

const QUIRE: GitPerson = { name: 'Quire', email: 'git-sync@quire.invalid' };

/** The branch as the export last left it: its head, files and the sync they match. */
interface ExportState {
  head: string | undefined;
  files: Map<string, string>;
  row: SpaceGitSyncRow;
}

/** Exports onto the ref: the waiting merges one commit each, or the space as it is now in one. */
export async function exportFrom(ctx: ServiceContext, actor: Actor, workspace: GitWorkspace, start: SpaceGitSyncRow, payload: GitSyncPayload): Promise<void> {
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
