// GitBook's page-level adaptive content: which pages of a tree a reader with some claims
// reads, a page whose condition (`if` in its front matter) does not hold being left out
// with what is under it.
import { conditionHolds } from '../lib/conditions.ts';
import { treeWithout, withinAny, type FlatTree, type TreeOutline } from './tree.ts';

/** Each tree's (or outline's) pages that have a condition, found once: most trees have none. */
const conditionalPages = new WeakMap<FlatTree | TreeOutline, Array<{ id: string; condition: string }>>();

/** The pages whose own condition does not hold for a reader with these claims. */
function pagesClosedTo(tree: FlatTree | TreeOutline, claims: Record<string, unknown>): Set<string> {
  let conditional = conditionalPages.get(tree);
  if (!conditional) {
    conditional = [...tree.values()].flatMap((page) => (page.meta.if === undefined ? [] : [{ id: page.id, condition: String(page.meta.if) }]));
    conditionalPages.set(tree, conditional);
  }
  return new Set(conditional.filter(({ condition }) => !conditionHolds(condition, claims)).map(({ id }) => id));
}

/** Trees as readers with some pages closed to them read them, by the pages left out: a few variants a tree, so that what is kept by tree serves them again. */
const treesReadBy = new WeakMap<FlatTree, Map<string, FlatTree>>();
const VARIANTS_KEPT = 8;

/**
 * What a reader with these claims reads of a space's pages: every page but those whose
 * condition (GitBook's page-level adaptive content, `if` in a page's front matter) does
 * not hold for their claims, and what is under those, as for sections and site spaces
 * (shownStructure). `leftOut` names the pages left out, '' when none: answers made of
 * the tree are kept by it. Members read without claims, and read every page.
 */
export function pagesReadBy(tree: FlatTree, claims: Record<string, unknown> | undefined): { tree: FlatTree; leftOut: string } {
  const closed = claims === undefined ? new Set<string>() : pagesClosedTo(tree, claims);
  if (closed.size === 0) return { tree, leftOut: '' };
  const leftOut = [...closed].sort().join(' ');
  let variants = treesReadBy.get(tree);
  if (!variants) treesReadBy.set(tree, (variants = new Map()));
  let read = variants.get(leftOut);
  if (!read) {
    read = treeWithout(tree, closed);
    if (variants.size >= VARIANTS_KEPT) variants.delete(variants.keys().next().value!);
    variants.set(leftOut, read);
  }
  return { tree: read, leftOut };
}

/** pagesReadBy for one page of an outline (search's): whether neither it nor a page above it is closed to the reader. */
export function pageReadBy(outline: TreeOutline, pageId: string, claims: Record<string, unknown> | undefined): boolean {
  return claims === undefined || !withinAny(outline, pageId, pagesClosedTo(outline, claims));
}
