// A three-way merge of revisions, made outside any transaction (its text merges on
// worker threads) and taken by the transaction that needs it if the revisions are still
// those: the retry loop that merges, updates and Git Sync's imports share.
import { mergeFiles } from '../content/files.ts';
import { includesOf } from '../content/document.ts';
import { mergeTrees, type MergeConflict, type MergeResult, type ReadBlobs, type TextMerger } from '../content/merge.ts';
import { getAll } from '../content/objects.ts';
import { mergeReusables, type ReusableEntry } from '../content/reusables.ts';
import { mergeTagLibraries } from '../content/tagLibrary.ts';
import { databaseObjectStore } from '../db/repos/contentObjects.ts';
import type { Db } from '../db/schema.ts';
import { runSized } from '../workers/pool.ts';
import type { ServiceContext } from './context.ts';
import { listsOf, requireRevision, treeOf } from './revisionContent.ts';

export interface ThreeWay {
  base: string;
  ours: string;
  theirs: string;
}

/** Merges three revisions; answers the merged tree, or the conflicts. Reads only: revisions never change. */
export async function mergeRevisions(db: Db, revisions: ThreeWay) {
  const store = databaseObjectStore(db);
  const [base, ours, theirs] = await Promise.all(
    [revisions.base, revisions.ours, revisions.theirs].map(async (id) => {
      const revision = await requireRevision(db, id);
      return { tree: await treeOf(db, revision.root_hash), ...(await listsOf(db, revision)) };
    }),
  );
  const mergeTextElsewhere: TextMerger = (b, o, t) => runSized('mergeText', { base: b, ours: o, theirs: t }, b.length + o.length + t.length);
  const readBlobs: ReadBlobs = (hashes) => store.get(hashes);
  const result = await mergeTrees(base.tree, ours.tree, theirs.tree, readBlobs, mergeTextElsewhere);
  const reusables = await mergeReusables(base.reusables, ours.reusables, theirs.reusables, (hashes) => getAll(store, hashes), mergeTextElsewhere);
  const includingDeleted = await pagesIncludingDeleted(result, [base.reusables, ours.reusables, theirs.reusables], reusables.reusables, readBlobs);
  return {
    ...result,
    blobs: new Map([...result.blobs, ...reusables.blobs]),
    conflicts: [...result.conflicts, ...reusables.conflicts, ...includingDeleted],
    files: mergeFiles(ours.files, theirs.files),
    reusables: reusables.reusables,
    tags: mergeTagLibraries(base.tags, ours.tags, theirs.tags),
    bases: [ours.tree, theirs.tree],
    trees: [ours.tree, theirs.tree, base.tree],
    reusableLists: [ours.reusables, theirs.reusables, base.reusables],
  };
}

/**
 * The pages of a merge that include a reusable content the merge deletes: one side
 * deleted it where no page of its own included it (the batch refuses otherwise), while
 * the other side's pages came to include it. Read only when the merge deletes one.
 */
async function pagesIncludingDeleted(merged: MergeResult, sides: ReusableEntry[][], kept: ReusableEntry[], readBlobs: ReadBlobs): Promise<MergeConflict[]> {
  const keptIds = new Set(kept.map((entry) => entry.id));
  const deleted = new Set(sides.flat().map((entry) => entry.id).filter((id) => !keptIds.has(id)));
  if (deleted.size === 0) return [];
  const pages = [...merged.tree.values()].filter((page) => page.blob !== null);
  const stored = await readBlobs([...new Set(pages.map((page) => page.blob!).filter((hash) => !merged.blobs.has(hash)))]);
  return pages
    .filter((page) => includesOf(merged.blobs.get(page.blob!) ?? stored.get(page.blob!) ?? '').some((id) => deleted.has(id)))
    .map((page) => ({ pageId: page.id, kind: 'includes-deleted-reusable-content' as const }));
}

export type PlannedMerge = { revisions: ThreeWay; merged: Awaited<ReturnType<typeof mergeRevisions>> };

/** What a merge step answers when it needs a three-way merge that is not planned yet. */
export class MergeNeeded {
  constructor(readonly revisions: ThreeWay) {}
}

/**
 * Runs a merge or an update in one transaction, with the three-way merge it needs made
 * before it: `step` answers MergeNeeded when it finds a merge to make that is not the
 * planned one; the merge then runs outside any transaction (the text merges on
 * worker threads), and `step` runs again, taking it if the revisions are still those.
 */
export async function withPlannedMerge<T>(ctx: ServiceContext, step: (trx: Db, planned: PlannedMerge | undefined) => Promise<T | MergeNeeded>): Promise<T> {
  let planned: PlannedMerge | undefined;
  for (;;) {
    const outcome = await ctx.db.transaction().execute((trx) => step(trx, planned));
    if (!(outcome instanceof MergeNeeded)) return outcome;
    planned = { revisions: outcome.revisions, merged: await mergeRevisions(ctx.db, outcome.revisions) };
  }
}

export function isPlanned(planned: PlannedMerge | undefined, revisions: ThreeWay): planned is PlannedMerge {
  return planned !== undefined && planned.revisions.base === revisions.base && planned.revisions.ours === revisions.ours && planned.revisions.theirs === revisions.theirs;
}
