// A revision's page tree, stored like git's: each page is a node object holding its
// metadata, the hash of its markdown and the hash of its children list; each list
// holds the hashes of its pages in order; the revision's root is the top-level list.
// An edit rewrites the changed page and the nodes and lists on its path to the root:
// storage grows with depth × siblings, never with the size of the space.
//
// In memory a tree is flat: page id → {parent, index, metadata, markdown hash}.
import { isDeepStrictEqual } from 'node:util';
import { configure } from 'safe-stable-stringify';
import { ContentError, getAll, hashOf, type Hash, type ObjectStore } from './objects.ts';

export interface PageMeta {
  title: string;
  slug: string;
  /** computed: pages GitBook computes from a source (`computed`), which Quire keeps but does not compute. */
  type: 'document' | 'group' | 'link' | 'computed';
  [field: string]: unknown;
}

export interface FlatPage {
  id: string;
  parentId: string | null;
  /** Position among its siblings, 0 first. */
  index: number;
  meta: PageMeta;
  /** Hash of the page's markdown, or null for pages without content (groups, links). */
  blob: Hash | null;
}

export type FlatTree = Map<string, FlatPage>;

interface PageNode {
  id: string;
  meta: PageMeta;
  blob: Hash | null;
  children: Hash;
}

/** JSON.stringify's text with every object's keys sorted; a circular value is an error, never a placeholder. */
const sortedKeysJson = configure({ deterministic: true, circularValue: TypeError, bigint: false });

/**
 * Serializes with sorted keys, so equal content always has an equal hash. A write
 * encodes the trees it was made from whole (writeTree), so this runs for every page of
 * a space: 3× faster than a JSON.stringify replacer that rebuilds each object with
 * sorted keys, and with the same text, so stored hashes stay valid.
 */
export function canonicalJson(value: unknown): string {
  return sortedKeysJson(value) as string;
}

/** Pages grouped by their parent (null: the top level), each group in order. */
function groupedByParent(pages: Iterable<FlatPage>): Map<string | null, FlatPage[]> {
  const children = new Map<string | null, FlatPage[]>();
  for (const page of pages) {
    const siblings = children.get(page.parentId) ?? [];
    siblings.push(page);
    children.set(page.parentId, siblings);
  }
  for (const siblings of children.values()) siblings.sort((a, b) => a.index - b.index);
  return children;
}

/** The children of each parent (null: the top level), in order. */
export function childrenByParent(tree: FlatTree): Map<string | null, FlatPage[]> {
  return groupedByParent(tree.values());
}

const settledGroupings = new WeakMap<FlatTree, Map<string | null, FlatPage[]>>();

/**
 * childrenByParent, made once for a tree nothing changes any more: a revision's, once
 * read or kept (never one an edit is still writing). Presenting a page, resolving a
 * link by its path and listing pages each need the grouping, and made per request it
 * cost in proportion to the space: at 5,000 pages most of a page read's CPU. A grouping
 * costs ~22 B a page where pages have ten sub-pages each.
 */
export function childrenOfSettledTree(tree: FlatTree): Map<string | null, FlatPage[]> {
  let children = settledGroupings.get(tree);
  if (!children) {
    children = childrenByParent(tree);
    settledGroupings.set(tree, children);
  }
  return children;
}

/**
 * Pages in reading order, each page before its sub-pages: the whole tree, or one page and
 * what is under it. Readers' pages leave hidden pages out, and what is under them.
 */
export function inReadingOrder(tree: FlatTree, options: { from?: string; leaveOutHidden?: boolean } = {}): FlatPage[] {
  const children = childrenByParent(tree);
  const shown = (page: FlatPage) => !options.leaveOutHidden || page.meta.hidden !== true;
  const walk = (parentId: string | null): FlatPage[] => (children.get(parentId) ?? []).filter(shown).flatMap((page) => [page, ...walk(page.id)]);
  if (options.from === undefined) return walk(null);
  const start = tree.get(options.from);
  return start ? [start, ...walk(start.id)] : [];
}

/**
 * The tree without the given pages and what is under them, for a reader who may not read
 * those: the same tree when there are none.
 */
export function treeWithout(tree: FlatTree, leftOut: ReadonlySet<string>): FlatTree {
  if (leftOut.size === 0) return tree;
  const kept: FlatTree = new Map();
  for (const page of tree.values()) if (!withinAny(tree, page.id, leftOut)) kept.set(page.id, page);
  return kept;
}

/**
 * The page and the pages above it, nearest first, and whether they reach the top of the
 * tree: a parent missing from the tree, or a loop, ends them short.
 */
export function pageAndAncestors<Page extends { id: string; parentId: string | null }>(tree: ReadonlyMap<string, Page>, pageId: string): { pages: Page[]; reachTop: boolean } {
  const pages: Page[] = [];
  let page = tree.get(pageId);
  while (page && pages.length < tree.size) {
    pages.push(page);
    if (!page.parentId) return { pages, reachTop: true };
    page = tree.get(page.parentId);
  }
  return { pages, reachTop: false };
}

/** Whether the page or a page above it is one of `pageIds`. */
export function withinAny(tree: FlatTree | TreeOutline, pageId: string, pageIds: ReadonlySet<string>): boolean {
  return pageAndAncestors<FlatPage | OutlinePage>(tree, pageId).pages.some((page) => pageIds.has(page.id));
}

/** A page as search shows it: where it sits, and what of its metadata a result carries or decides who sees it. */
export interface OutlinePage {
  id: string;
  parentId: string | null;
  meta: Pick<PageMeta, 'title'> & { description?: unknown; hidden?: unknown; if?: unknown };
}

/** What search needs of a revision's pages; a fraction of the tree's memory, so every space searched stays cached. */
export type TreeOutline = ReadonlyMap<string, OutlinePage>;

export function outlineOf(tree: FlatTree): TreeOutline {
  const outline = new Map<string, OutlinePage>();
  for (const page of tree.values()) {
    const { title, description, hidden, if: condition } = page.meta;
    const meta = { title, ...(description !== undefined ? { description } : {}), ...(hidden !== undefined ? { hidden } : {}), ...(condition !== undefined ? { if: condition } : {}) };
    outline.set(page.id, { id: page.id, parentId: page.parentId, meta });
  }
  return outline;
}

/** Whether readers see a page: it is in the tree, and neither it nor a page above it is hidden. As inReadingOrder decides, for one page. */
export function shownToReaders(tree: FlatTree | TreeOutline, pageId: string): boolean {
  const { pages, reachTop } = pageAndAncestors<FlatPage | OutlinePage>(tree, pageId);
  return reachTop && pages.every((page) => page.meta.hidden !== true);
}

/** A tree as its objects: each page's node and children list hashes, and every object's hash. */
interface EncodedTree {
  root: Hash;
  pages: Map<string, { page: FlatPage; node: Hash; children: Hash }>;
  objects: Set<Hash>;
}

const EMPTY_LIST = '[]';
const EMPTY_LIST_HASH = hashOf(EMPTY_LIST);

/**
 * Encodes a tree as its objects, each new one handed to `record` (children before their
 * parents). A page unchanged since one of `bases` (the same metadata object, markdown and
 * sub-pages) is the node that base already has: an edit hashes the pages and lists on
 * its path to the root, not every page of the space again.
 */
function encodeTree(tree: FlatTree, bases: EncodedTree[] = [], record: (hash: Hash, text: string) => void = () => {}): EncodedTree {
  const children = childrenByParent(tree);
  const pages: EncodedTree['pages'] = new Map();
  const objects = new Set<Hash>();
  const encode = (text: string): Hash => {
    const hash = text === EMPTY_LIST ? EMPTY_LIST_HASH : hashOf(text);
    if (!objects.has(hash)) record(hash, text);
    objects.add(hash);
    return hash;
  };
  const unchanged = (page: FlatPage, childList: Hash) => {
    for (const base of bases) {
      const before = base.pages.get(page.id);
      if (before && before.page.meta === page.meta && before.page.blob === page.blob && before.children === childList) return before.node;
    }
    return undefined;
  };
  const encodeList = (parentId: string | null, depth: number): Hash => {
    if (depth > 1000) throw new ContentError('the page tree is nested more than 1,000 levels deep');
    const hashes = (children.get(parentId) ?? []).map((page) => {
      const childList = encodeList(page.id, depth + 1);
      const known = unchanged(page, childList);
      const node = known ?? encode(canonicalJson({ id: page.id, meta: page.meta, blob: page.blob, children: childList } satisfies PageNode));
      objects.add(node);
      pages.set(page.id, { page, node, children: childList });
      return node;
    });
    return encode(JSON.stringify(hashes));
  };
  return { root: encodeList(null, 0), pages, objects };
}

/**
 * Writes a tree, storing only the objects the store may not have: those of none of
 * `bases`, the trees it was made from (written before). Their hashes are worked out here
 * (about 10 ms for 5,000 pages), not kept with every cached tree, where two hashes a
 * page cost a third of the tree's memory.
 */
export async function writeTree(store: ObjectStore, tree: FlatTree, bases: FlatTree[] = []): Promise<Hash> {
  const encodedBases = bases.map((base) => encodeTree(base));
  const fresh = new Map<Hash, string>();
  const { root } = encodeTree(tree, encodedBases, (hash, text) => {
    if (!encodedBases.some((base) => base.objects.has(hash))) fresh.set(hash, text);
  });
  if (fresh.size > 0) await store.put(fresh);
  return root;
}

/**
 * Reads a tree back from its root, one batch of objects per level. `alike`, asked with
 * the first page read, may give a tree in memory likely to hold the same pages (the
 * space's tree at another revision): where a page there sits in the same place with the
 * same metadata and markdown, the tree read back holds that very object, so that the
 * trees of one space do not each hold a copy of its unchanged pages. Pages are never
 * changed in place (edits make new objects), so sharing them is safe.
 */
export async function readTree(store: ObjectStore, root: Hash, alike?: (first: FlatPage) => FlatTree | undefined): Promise<FlatTree> {
  const tree: FlatTree = new Map();
  let like: FlatTree | undefined;
  let lists: Array<{ parentId: string | null; hash: Hash }> = [{ parentId: null, hash: root }];
  while (lists.length > 0) {
    const listTexts = await getAll(store, [...new Set(lists.map((list) => list.hash))]);
    const entries = lists.flatMap(({ parentId, hash }) =>
      (JSON.parse(listTexts.get(hash)!) as Hash[]).map((nodeHash, index) => ({ parentId, index, nodeHash })),
    );
    const nodeTexts = await getAll(store, [...new Set(entries.map((entry) => entry.nodeHash))]);
    lists = [];
    for (const { parentId, index, nodeHash } of entries) {
      const node = JSON.parse(nodeTexts.get(nodeHash)!) as PageNode;
      const read: FlatPage = { id: node.id, parentId, index, meta: node.meta, blob: node.blob };
      if (tree.size === 0) like = alike?.(read);
      const known = like?.get(node.id);
      const same = known && known.parentId === parentId && known.index === index && known.blob === node.blob && isDeepStrictEqual(known.meta, node.meta);
      tree.set(node.id, same ? known : read);
      lists.push({ parentId: node.id, hash: node.children });
    }
  }
  return tree;
}

/** The path of a page from the slugs of its ancestors and its own: "guides/install". */
export function pagePath(tree: FlatTree, pageId: string): string {
  const slugs: string[] = [];
  let current = tree.get(pageId);
  while (current && slugs.length <= tree.size) {
    slugs.unshift(current.meta.slug);
    current = current.parentId ? tree.get(current.parentId) : undefined;
  }
  return slugs.join('/');
}

/** The page at a path of slugs ("guides/install"), if any, in a tree grouped by parent (childrenByParent, or childrenOfSettledTree where it is kept). */
export function findPageByPath(children: Map<string | null, FlatPage[]>, path: string): FlatPage | undefined {
  const slugs = path.split('/').filter(Boolean);
  let parentId: string | null = null;
  let found: FlatPage | undefined;
  for (const slug of slugs) {
    found = children.get(parentId)?.find((page) => page.meta.slug === slug);
    if (!found) return undefined;
    parentId = found.id;
  }
  return found;
}
