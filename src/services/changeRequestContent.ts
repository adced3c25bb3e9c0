// Writing a change request's content, bringing the space's changes into it (update),
// and publishing it into the space (merge). Each accepted batch of edits (applied in
// memory by content/batch.ts) makes one new revision; merges are three-way
// (content/merge.ts, planned outside the transaction by plannedMerge.ts) and a
// conflict changes nothing.
import { BadRequest, Conflict, Forbidden } from '../errors.ts';
import { applyBatch, InvalidChange, type BatchOutcome, type ContentChangeInput } from '../content/batch.ts';
import { includesOf } from '../content/document.ts';
import { documentShapeError } from '../content/gitbook/shape.ts';
import type { Hash } from '../content/objects.ts';
import type { FlatTree } from '../content/tree.ts';
import { updateChangeRequest } from '../db/repos/changeRequests.ts';
import { isRevisionOfSpace } from '../db/repos/revisions.ts';
import { lockRow } from '../db/dialect.ts';
import { baseOf, type Db, type ChangeRequestWithAuthor, type SpaceRow } from '../db/schema.ts';
import { enqueueJob, startJobSoon } from '../jobs/queue.ts';
import { isoNow } from '../lib/clock.ts';
import { presentBatchOutcome, presentConflicts } from '../presenters/changeRequestContent.ts';
import { runSized } from '../workers/pool.ts';
import type { Actor, ServiceContext } from './context.ts';
import { authorizeSpaceDrafts } from './contentAccess.ts';
import { afterCommit, commitRevision } from './events.ts';
import { lockChangeRequest, presentChangeRequestOf } from './changeRequests.ts';
import { fetchFileSources } from './fileSources.ts';
import { PREPARE_WRITTEN_DOCUMENTS_JOB, prepareWrittenDocuments, type WrittenDocuments } from './pageDocuments.ts';
import { isPlanned, MergeNeeded, withPlannedMerge, type PlannedMerge } from './plannedMerge.ts';
import { listsOf, presentFile, requireRevision, treeOf } from './revisionContent.ts';
import { markdownsOf, storeRevision } from './revisions.ts';

export type { ContentChangeInput, Document, FileInput } from '../content/batch.ts';
export { MAX_FILE_BYTES } from '../content/batch.ts';

/** The most JSON one document may hold: a little more than the markdown limit, as JSON is wordier. */
const MAX_JSON_DOCUMENT = 5_000_000;

function assertEditable(space: SpaceRow, changeRequest: ChangeRequestWithAuthor): void {
  if (space.edit_mode === 'locked') {
    throw new Forbidden('This space is locked (editMode "locked"): its content cannot change until it is unlocked');
  }
  if (changeRequest.status === 'merged') {
    throw new Conflict(`Change request #${changeRequest.number} is merged; it can no longer change`);
  }
}

/**
 * The JSONDocuments of a batch as the markdown Quire stores, written before any
 * transaction (large ones on a worker thread), their pages linked by id. A JSON
 * document's title and metadata come from the change's fields, never from its blocks.
 */
async function writeJsonDocuments(changes: ContentChangeInput[]): Promise<Map<object, string>> {
  const written = new Map<object, string>();
  for (const [index, change] of changes.entries()) {
    if (!('document' in change) || typeof change.document !== 'object' || !('document' in change.document)) continue;
    const where = `changes[${index}].document.document`;
    const wrong = documentShapeError(change.document.document);
    if (wrong) throw new BadRequest(`${where}: ${wrong}`);
    const size = JSON.stringify(change.document.document).length;
    if (size > MAX_JSON_DOCUMENT) throw new BadRequest(`${where}: a document holds at most ${MAX_JSON_DOCUMENT / 1_000_000} MB of JSON; this one holds ${(size / 1_000_000).toFixed(1)} MB`);
    try {
      written.set(change.document, await runSized('documentToMarkdown', { document: change.document.document }, size));
    } catch (error) {
      // A document of GitBook's shape always writes: one that cannot holds data of another type than GitBook's somewhere.
      if (!(error instanceof Error && error.name === 'TypeError')) throw error;
      throw new BadRequest(`${where}: a node's data is not what GitBook's document model holds there (a hint's style as a number, a table's records as text…): ${error.message}`);
    }
  }
  return written;
}

/** The trees revert_page changes go back to: a revision of the space, or the change request's base (key ""). */
async function loadRevertTargets(trx: Db, spaceId: string, changeRequest: ChangeRequestWithAuthor, changes: ContentChangeInput[]) {
  const targets = new Map<string, FlatTree>();
  for (const [index, change] of changes.entries()) {
    if (change.operation !== 'revert_page' || targets.has(change.revision ?? '')) continue;
    const revisionId = change.revision ?? baseOf(changeRequest);
    if (change.revision && !(await isRevisionOfSpace(trx, spaceId, change.revision))) {
      throw new BadRequest(`changes[${index}].revision: no revision "${change.revision}" in this space`);
    }
    targets.set(change.revision ?? '', await treeOf(trx, (await requireRevision(trx, revisionId)).root_hash));
  }
  return targets;
}

export async function editChangeRequestContent(
  ctx: ServiceContext,
  actor: Actor,
  spaceId: string,
  idOrNumber: string,
  changes: ContentChangeInput[],
  /** More work to commit with the new revision, or not at all. */
  alsoInTransaction?: (trx: Db, revisionId: string) => Promise<void>,
) {
  const written = await writeJsonDocuments(changes);
  const fetched = await fetchFileSources(ctx, changes);
  const writtenMarkdown = new Set(written.values());
  const { presented, outcome, preparing } = await ctx.db.transaction().execute(async (trx) => {
    const { space } = await authorizeSpaceDrafts(trx, actor, spaceId, 'edit');
    const changeRequest = await lockChangeRequest(trx, spaceId, idOrNumber);
    assertEditable(space, changeRequest);
    const revision = await requireRevision(trx, changeRequest.revision_id);
    const baseTree = await treeOf(trx, revision.root_hash);
    const revertTargets = await loadRevertTargets(trx, spaceId, changeRequest, changes);
    const blobs = new Map<Hash, string>();
    const { files, reusables, tags } = await listsOf(trx, revision);
    const titles = new Map(reusables.map((reusable) => [reusable.id, reusable.title]));
    const { tree, outcome } = appliedBatch(written, fetched, baseTree, changes, isoNow(ctx.clock), blobs, revertTargets, files, reusables);
    await assertNotIncluded(ctx, trx, tree, blobs, outcome, titles);
    // The change request's previous content is read no more, unless it is still its base (shared with the space).
    const superseded = changeRequest.revision_id === baseOf(changeRequest) ? undefined : revision.root_hash;
    const revisionId = await storeRevision(ctx, trx, { tree, files, reusables, tags }, [baseTree], blobs, [changeRequest.revision_id], actor, spaceId, superseded);
    await updateChangeRequest(trx, changeRequest.id, { revision_id: revisionId, updated_at: isoNow(ctx.clock) });
    await alsoInTransaction?.(trx, revisionId);
    const writtenBlobs = [...blobs].filter(([, markdown]) => writtenMarkdown.has(markdown)).map(([hash]) => hash);
    const preparing =
      writtenBlobs.length === 0
        ? undefined
        : await enqueueJob(trx, ctx.clock, PREPARE_WRITTEN_DOCUMENTS_JOB, { spaceId, changeRequestId: changeRequest.id, revisionId, blobs: writtenBlobs } satisfies WrittenDocuments);
    return { presented: await presentChangeRequestOf(ctx, trx, space, changeRequest.id), outcome, preparing };
  });
  if (preparing) startJobSoon(ctx, preparing, prepareWrittenDocuments);
  const insertedFiles = outcome.insertedFiles.map((file) => presentFile(ctx, file));
  return { changeRequest: presented, ...presentBatchOutcome(ctx.config.publicUrl, spaceId, presented.id, outcome, insertedFiles) };
}

/**
 * A reusable content the batch deletes is included by no page it leaves: its blocks would
 * vanish from them unseen. The pages are named, for the writer to take the blocks out first.
 */
async function assertNotIncluded(ctx: ServiceContext, trx: Db, tree: FlatTree, blobs: Map<Hash, string>, outcome: BatchOutcome, titles: Map<string, string>) {
  const deleted = [...outcome.reusableContents].filter(([, { object }]) => object === 'deleted_reusable_content').map(([id]) => id);
  if (deleted.length === 0) return;
  const pages = [...tree.values()].filter((page) => page.blob !== null);
  // The batch's own markdown is not stored yet: the rest is read in one query.
  const unwritten = pages.filter((page) => !blobs.has(page.blob!));
  const stored = new Map((await markdownsOf(ctx, trx, unwritten)).map((markdown, at) => [unwritten[at]!.id, markdown]));
  const includes = pages.map((page) => ({ title: page.meta.title, ids: new Set(includesOf(blobs.get(page.blob!) ?? stored.get(page.id)!)) }));
  for (const id of deleted) {
    const including = includes.filter((page) => page.ids.has(id)).map((page) => `"${page.title}"`);
    if (including.length > 0) throw new BadRequest(`The reusable content "${titles.get(id) ?? id}" is still included by ${including.slice(0, 5).join(', ')}${including.length > 5 ? ` and ${including.length - 5} more pages` : ''}: take its blocks out of those pages first`);
  }
}

/** applyBatch, its refusals answered as 400s. */
function appliedBatch(...args: Parameters<typeof applyBatch>): ReturnType<typeof applyBatch> {
  try {
    return applyBatch(...args);
  } catch (error) {
    if (error instanceof InvalidChange) throw new BadRequest(error.message);
    throw error;
  }
}

/**
 * Stores a planned merge of the change request's content (ours) and the space's
 * (theirs) as a new revision with the given parents, or answers the conflicts and
 * stores nothing.
 */
async function storeMerge(ctx: ServiceContext, trx: Db, actor: Actor, spaceId: string, planned: PlannedMerge, parents: string[]) {
  const result = planned.merged;
  if (result.conflicts.length > 0) return { conflicts: presentConflicts(result.conflicts, result.trees, result.reusableLists) };
  return { revision: await storeRevision(ctx, trx, result, result.bases, result.blobs, parents, actor, spaceId) };
}

/** Publishes a change request into its space: a fast-forward when the space did not move, else a three-way merge. */
export async function mergeChangeRequest(ctx: ServiceContext, actor: Actor, spaceId: string, idOrNumber: string) {
  const outcome = await withPlannedMerge(ctx, async (trx, planned) => {
    await lockRow(trx, 'spaces', spaceId);
    const { space } = await authorizeSpaceDrafts(trx, actor, spaceId, 'merge');
    const changeRequest = await lockChangeRequest(trx, spaceId, idOrNumber);
    assertEditable(space, changeRequest);
    const base = baseOf(changeRequest);
    let merged = changeRequest.revision_id;
    if (space.revision_id !== base) {
      const revisions = { base, ours: changeRequest.revision_id, theirs: space.revision_id };
      if (!isPlanned(planned, revisions)) return new MergeNeeded(revisions);
      const result = await storeMerge(ctx, trx, actor, spaceId, planned, [space.revision_id, changeRequest.revision_id]);
      if ('conflicts' in result) return { revision: space.revision_id, result: 'conflicts' as const, conflicts: result.conflicts };
      merged = result.revision;
    }
    const summary = `Merge change request #${changeRequest.number}${changeRequest.subject ? `: ${changeRequest.subject}` : ''}`;
    const committed = await commitRevision(ctx, trx, actor, { organizationId: space.organization_id, spaceId, from: space.revision_id, to: merged, summary });
    await updateChangeRequest(trx, changeRequest.id, { status: 'merged', revision_merged: merged, updated_at: isoNow(ctx.clock) });
    return { revision: merged, result: 'merge' as const, committed };
  });
  if (outcome.result !== 'merge') return outcome;
  const { committed, ...answer } = outcome;
  await afterCommit(ctx, committed);
  return answer;
}

/**
 * Brings a revision made from `base` outside the editor (a Git Sync import) into the
 * space: a fast-forward when the space is still at `base`, else a three-way merge as
 * change requests merge. Conflicts change nothing. `alsoInTransaction` commits with
 * the outcome.
 */
export async function mergeRevisionIntoSpace<T>(
  ctx: ServiceContext,
  actor: Actor,
  spaceId: string,
  revisions: { base: string; revision: string; summary: string },
  alsoInTransaction: (trx: Db, outcome: { revision: string } | { conflicts: ReturnType<typeof presentConflicts> }) => Promise<T>,
): Promise<T> {
  const answer = await withPlannedMerge(ctx, async (trx, planned) => {
    await lockRow(trx, 'spaces', spaceId);
    const { space } = await authorizeSpaceDrafts(trx, actor, spaceId, 'triggerGitSync');
    let merged = revisions.revision;
    if (space.revision_id !== revisions.base) {
      const threeWay = { base: revisions.base, ours: revisions.revision, theirs: space.revision_id };
      if (!isPlanned(planned, threeWay)) return new MergeNeeded(threeWay);
      const result = await storeMerge(ctx, trx, actor, spaceId, planned, [space.revision_id, revisions.revision]);
      if (result.conflicts) return { value: await alsoInTransaction(trx, { conflicts: result.conflicts }) };
      merged = result.revision!;
    }
    const committed = await commitRevision(ctx, trx, actor, { organizationId: space.organization_id, spaceId, from: space.revision_id, to: merged, summary: revisions.summary });
    return { value: await alsoInTransaction(trx, { revision: merged }), committed };
  });
  await afterCommit(ctx, answer.committed);
  return answer.value;
}

/** Brings the space's current content into a change request. */
export async function updateChangeRequestFromSpace(ctx: ServiceContext, actor: Actor, spaceId: string, idOrNumber: string) {
  return withPlannedMerge(ctx, async (trx, planned) => {
    const { space } = await authorizeSpaceDrafts(trx, actor, spaceId, 'edit');
    const changeRequest = await lockChangeRequest(trx, spaceId, idOrNumber);
    assertEditable(space, changeRequest);
    const base = baseOf(changeRequest);
    if (space.revision_id === base) return { revision: changeRequest.revision_id, result: 'update' as const };
    let updated = space.revision_id;
    if (changeRequest.revision_id !== base) {
      const revisions = { base, ours: changeRequest.revision_id, theirs: space.revision_id };
      if (!isPlanned(planned, revisions)) return new MergeNeeded(revisions);
      const result = await storeMerge(ctx, trx, actor, spaceId, planned, [changeRequest.revision_id, space.revision_id]);
      if ('conflicts' in result) return { revision: changeRequest.revision_id, result: 'conflicts' as const, conflicts: result.conflicts };
      updated = result.revision;
    }
    await updateChangeRequest(trx, changeRequest.id, {
      revision_id: updated,
      revision_merged_ancestor: space.revision_id,
      updated_at: isoNow(ctx.clock),
    });
    return { revision: updated, result: 'update' as const };
  });
}
