// Reading the content of revisions: their page trees from the content store (cached,
// since a revision never changes) and their pages' markdown.
import { NotFound } from '../errors.ts';
import { getAll, type Hash } from '../content/objects.ts';
import { readTree, type FlatPage, type FlatTree, type ReadTree } from '../content/tree.ts';
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

export async function presentPageWithMarkdown(ctx: ServiceContext, spaceId: string, view: RevisionView, page: FlatPage) {
  return presentPage(ctx.config.publicUrl, spaceId, view.tree, page, { markdown: await markdownOf(ctx.db, page) });
}

/** Finds a page by its path of slugs ("guides/install"). */
export function pageAtPath(tree: FlatTree, path: string): FlatPage {
  const slugs = path.split('/').filter(Boolean);
  let parentId: string | null = null;
  let found: FlatPage | undefined;
  for (const slug of slugs) {
    found = [...tree.values()].find((page) => page.parentId === parentId && page.meta.slug === slug);
    if (!found) break;
    parentId = found.id;
  }
  if (!found || slugs.length === 0) throw new NotFound(`No page at path "${path}"`);
  return found;
}
