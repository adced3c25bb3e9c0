// Reading the content of revisions: their page trees from the content store (cached,
// since a revision never changes) and their pages' markdown.
import { NotFound } from '../errors.ts';
import { getAll, type Hash } from '../content/objects.ts';
import { findPageByPath, readTree, type FlatPage, type FlatTree, type ReadTree } from '../content/tree.ts';
import { linkResolverFor, markdownToDocument } from '../content/document.ts';
import { databaseObjectStore } from '../db/repos/contentObjects.ts';
import { findRevision, type RevisionRow } from '../db/repos/revisions.ts';
import type { Db } from '../db/schema.ts';
import { presentPage, presentPageTree } from '../presenters/page.ts';
import type { ServiceContext } from './context.ts';

const TREES_KEPT = 200;
const trees = new Map<Hash, ReadTree>();

/** A revision's tree; trees are immutable, so one read serves every later request. */
export async function treeOf(db: Db, root: Hash): Promise<ReadTree> {
  const cached = trees.get(root);
  if (cached) {
    trees.delete(root);
    trees.set(root, cached);
    return cached;
  }
  const read = await readTree(databaseObjectStore(db), root);
  if (trees.size >= TREES_KEPT) trees.delete(trees.keys().next().value!);
  trees.set(root, read);
  return read;
}

export async function requireRevision(db: Db, revisionId: string): Promise<RevisionRow> {
  const revision = await findRevision(db, revisionId);
  if (!revision) throw new NotFound(`No revision with id "${revisionId}"`);
  return revision;
}

export async function markdownOf(db: Db, page: FlatPage): Promise<string> {
  if (page.blob === null) return '';
  return (await getAll(databaseObjectStore(db), [page.blob])).get(page.blob)!;
}

export function requirePage(tree: FlatTree, pageId: string): FlatPage {
  const page = tree.get(pageId);
  if (!page) throw new NotFound(`No page with id "${pageId}" in this revision`);
  return page;
}

export interface RevisionView {
  revision: RevisionRow;
  tree: FlatTree;
}

export async function loadRevision(ctx: ServiceContext, revisionId: string): Promise<RevisionView> {
  const revision = await requireRevision(ctx.db, revisionId);
  return { revision, tree: (await treeOf(ctx.db, revision.root_hash)).tree };
}

export function presentRevision(ctx: ServiceContext, spaceId: string, view: RevisionView) {
  return {
    object: 'revision' as const,
    id: view.revision.id,
    parents: JSON.parse(view.revision.parents) as string[],
    pages: presentPageTree(ctx.config.publicUrl, spaceId, view.tree),
    files: [],
    reusableContents: [],
    createdAt: view.revision.created_at,
    type: 'edits' as const,
    urls: { app: `${ctx.config.publicUrl}/s/${spaceId}/~/revisions/${view.revision.id}/` },
  };
}

export type PageFormat = 'markdown' | 'document';

/** A page with its content: markdown as stored, or GitBook's JSON document derived from it. */
export async function presentPageWithContent(
  ctx: ServiceContext,
  spaceId: string,
  view: RevisionView,
  page: FlatPage,
  format: PageFormat = 'markdown',
) {
  const markdown = await markdownOf(ctx.db, page);
  const presented = presentPage(ctx.config.publicUrl, spaceId, view.tree, page, format === 'markdown' ? { markdown } : {});
  return format === 'document' ? { ...presented, document: markdownToDocument(markdown, linkResolverFor(view.tree)) } : presented;
}

/** Finds a page by its path of slugs ("guides/install"). */
export function pageAtPath(tree: FlatTree, path: string): FlatPage {
  const found = findPageByPath(tree, path);
  if (!found) throw new NotFound(`No page at path "${path}"`);
  return found;
}
