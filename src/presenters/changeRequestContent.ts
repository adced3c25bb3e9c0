// What an edit of a change request's content answers (GitBook's
// ChangeRequestContentUpdate, less the change request), and the conflicts of a merge
// with the page or reusable content each one is about.
import type { BatchOutcome } from '../content/batch.ts';
import type { MergeConflict } from '../content/merge.ts';
import type { ReusableConflict, ReusableEntry } from '../content/reusables.ts';
import { pagePath, type FlatTree } from '../content/tree.ts';

/** Each page the batch touched, with where to read it, and the files it inserted (presented by the caller, whose links they are). */
export function presentBatchOutcome<File>(publicUrl: string, spaceId: string, changeRequestId: string, pages: BatchOutcome['pages'], insertedFiles: File[]) {
  const location = (pageId: string) => `${publicUrl}/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content/page/${pageId}`;
  return {
    changes: [...pages].map(([pageId, { object, ref }]) =>
      object === 'deleted_page'
        ? { object, page: pageId }
        : { object, ...(ref !== undefined ? { ref } : {}), page: { object: 'page' as const, id: pageId, urls: { location: location(pageId) } } },
    ),
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
