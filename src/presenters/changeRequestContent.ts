// What an edit of a change request's content answers (GitBook's
// ChangeRequestContentUpdate, less the change request), and the conflicts of a merge
// with the page or reusable content each one is about.
import type { BatchOutcome } from '../content/batch.ts';
import type { MergeConflict } from '../content/merge.ts';
import type { ReusableConflict, ReusableEntry } from '../content/reusables.ts';
import { pagePath, type FlatTree } from '../content/tree.ts';

/**
 * Each page the batch touched, with where to read it, the files it inserted (presented by
 * the caller, whose links they are), and the reusable contents it wrote (Quire's: GitBook
 * has no change for them).
 */
export function presentBatchOutcome<File>(publicUrl: string, spaceId: string, changeRequestId: string, outcome: BatchOutcome, insertedFiles: File[]) {
  const content = `${publicUrl}/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content`;
  return {
    changes: [
      ...[...outcome.pages].map(([pageId, { object, ref }]) => {
        const page = { object: 'page' as const, id: pageId, urls: { location: `${content}/page/${pageId}` } };
        if (object === 'deleted_page') return { object, page: pageId };
        return object === 'created_page' ? { object, ...(ref !== undefined ? { ref } : {}), page } : { object, page };
      }),
      ...[...outcome.reusableContents].map(([id, { object }]) =>
        object === 'deleted_reusable_content'
          ? { object, reusableContent: id }
          : { object, reusableContent: { object: 'reusable-content' as const, id, urls: { location: `${content}/reusable-contents/${id}` } } },
      ),
    ],
    insertedFiles,
  };
}

/** Conflicts with the page each one is about, for the person who resolves them. */
export function presentConflicts(conflicts: Array<MergeConflict | ReusableConflict>, trees: FlatTree[], reusables: ReusableEntry[][]) {
  return conflicts.map((conflict) => {
    if ('reusableContentId' in conflict) {
      const entry = reusables.flat().find((candidate) => candidate.id === conflict.reusableContentId)!;
      return { reusableContent: { id: entry.id, title: entry.title }, kind: conflict.kind, ...(conflict.regions ? { regions: conflict.regions } : {}) };
    }
    const tree = trees.find((candidate) => candidate.has(conflict.pageId))!;
    const page = tree.get(conflict.pageId)!;
    return {
      page: { id: page.id, path: pagePath(tree, page.id), title: page.meta.title },
      kind: conflict.kind,
      ...(conflict.field ? { field: conflict.field } : {}),
      ...(conflict.regions ? { regions: conflict.regions } : {}),
    };
  });
}
