// The revisions service: loading a revision and what it is made of (its page tree, its
// files and reusable-content lists, its pages' markdown, the commit it matches) from
// the content store, through the caches of the service context (ctx.revisions,
// services/revisionCaches.ts): a revision never changes, so one read serves every later
// request. Reads inside a transaction keep nothing a rollback could take back, except
// trees, which are named by their content. Storing a revision (storeRevision) keeps its
// tree for the reads that follow.
import { NotFound } from '../errors.ts';
import { getAll, MemoryObjectStore, type Hash } from '../content/objects.ts';
import { childrenByParent, childrenOfSettledTree, findPageByPath, outlineOf, readTree, writeTree, type FlatPage, type FlatTree, type TreeOutline } from '../content/tree.ts';
import { writeFiles, type FileEntry } from '../content/files.ts';
import { writeReusables, type ReusableEntry } from '../content/reusables.ts';
import { NO_TAGS, writeTagLibrary, type TagLibrary } from '../content/tagLibrary.ts';
import { isoNow } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { verifyLink } from '../lib/signedLinks.ts';
import { WeightBoundedCache } from '../lib/weightBoundedCache.ts';
import { databaseObjectStore } from '../db/repos/contentObjects.ts';
import { addSpaceRevision, findRevision, insertRevision } from '../db/repos/revisions.ts';
import { findRevisionGit, revisionGitStamp } from '../db/repos/gitSync.ts';
import type { Db, GitPaths, RevisionRow } from '../db/schema.ts';
import { gitPathsOf } from '../presenters/revision.ts';
import type { RevisionCaches, RevisionGit, SharedLists } from './revisionCaches.ts';
import type { Actor, ServiceContext } from './context.ts';

export { gitPathsOf };
export type { RevisionGit };

/** What the loaders need of the context: the caches they read through. */
export type RevisionsContext = Pick<ServiceContext, 'revisions'>;

export interface RevisionView {
  revision: RevisionRow;
  tree: FlatTree;
  /** Shared by every reader of the revision, and frozen. */
  files: readonly FileEntry[];
  reusables: readonly ReusableEntry[];
  tags: TagLibrary;
  /** Read as published content, by someone with no role on the space: its file links are the stable ones. */
  published?: boolean;
  /** The pages closed to this reader of published content, left out of `tree` (content/adaptive.ts: pagesReadBy); '' or absent: none. */
  leftOut?: string;
  /** A reader of published content's claims: what they read of a page has its conditional blocks decided by them. Absent for members. */
  claims?: Record<string, unknown>;
  /** The commit the revision matches, for API reads (Git Sync). */
  git?: RevisionGit;
}

/** Texts of content objects, from `kept` or read together; kept when read outside a transaction. */
async function objectTexts(db: Db, kept: WeightBoundedCache<string>, hashes: Hash[]): Promise<string[]> {
  const texts = hashes.map((hash) => kept.get(hash));
  if (!texts.includes(undefined)) return texts as string[];
  const read = await getAll(databaseObjectStore(db), hashes);
  if (!db.isTransaction) for (const hash of hashes) kept.keep(hash, read.get(hash)!);
  return hashes.map((hash) => read.get(hash)!);
}

/**
 * A cached tree holding the page with the same markdown: most likely the tree of its
 * space at another revision, whose unchanged pages a tree read back shares (readTree).
 * Without it, a space's tree pushed out and read back beside its open change request's
 * tree held a second copy of each page (~300 B a page). Ids alone may repeat across
 * spaces (copies, imports of one repository); their markdown tells the spaces apart.
 */
function cachedTreeHolding(caches: RevisionCaches, page: FlatPage): FlatTree | undefined {
  return caches.trees.find((tree) => tree.get(page.id)?.blob === page.blob);
}

/** Reads a tree, once for all the requests outside transactions that want it at the same time (RevisionCaches.reading). */
async function readOnce(caches: RevisionCaches, db: Db, root: Hash): Promise<FlatTree> {
  const holding = (page: FlatPage) => cachedTreeHolding(caches, page);
  if (db.isTransaction) return readTree(databaseObjectStore(db), root, holding);
  const shared = caches.reading.get(root);
  if (shared) {
    // The read goes through another request's connection; if that one fails, this request reads on its own.
    const read = await shared.catch(() => undefined);
    if (read) return read;
  }
  const read = readTree(databaseObjectStore(db), root, holding);
  caches.reading.set(root, read);
  try {
    return await read;
  } finally {
    if (caches.reading.get(root) === read) caches.reading.delete(root);
  }
}

/** A revision's tree. */
export async function treeOf(ctx: RevisionsContext, db: Db, root: Hash): Promise<FlatTree> {
  const cached = ctx.revisions.trees.get(root);
  if (cached) return cached;
  const tree = await readOnce(ctx.revisions, db, root);
  ctx.revisions.trees.keep(root, tree);
  return tree;
}

/**
 * What search shows of a revision's pages; reading it does not push trees out of their
 * cache. A cached tree serves as its own outline: a copy beside it cost ~140 B a page.
 */
export async function treeOutlineOf(ctx: RevisionsContext, db: Db, root: Hash): Promise<TreeOutline> {
  const { trees, outlines } = ctx.revisions;
  const tree = trees.get(root);
  if (tree) {
    outlines.forget(root);
    return tree;
  }
  const cached = outlines.get(root);
  if (cached) return cached;
  const outline = outlineOf(await readOnce(ctx.revisions, db, root));
  outlines.keep(root, outline);
  return outline;
}

/**
 * Keeps a tree just written, so the requests that follow a merge or an edit (and the
 * search index in the same transaction) do not read it back. Positions are renumbered
 * as the store would give them back. `superseded` is the tree it replaces where nothing
 * reads that one any more (a change request's previous content): every edit of a large
 * space would otherwise push a whole tree of the same pages into the cache.
 */
export function rememberTree(ctx: RevisionsContext, root: Hash, tree: FlatTree, superseded?: Hash): void {
  const { trees } = ctx.revisions;
  if (superseded !== undefined) trees.forget(superseded);
  if (trees.has(root)) return;
  const children = childrenByParent(tree);
  const normalized: FlatTree = new Map();
  // Level by level, as readTree fills it, so every reader sees the same order.
  const parents: Array<string | null> = [null];
  for (let next = 0; next < parents.length; next++) {
    (children.get(parents[next]) ?? []).forEach((page, index) => {
      // Pages an edit left in place stay the objects of the tree it was made from, which is cached too.
      normalized.set(page.id, page.index === index ? page : { ...page, index });
      parents.push(page.id);
    });
  }
  trees.keep(root, normalized);
}

export async function requireRevision(ctx: RevisionsContext, db: Db, revisionId: string): Promise<RevisionRow> {
  const kept = ctx.revisions.revisions.get(revisionId);
  if (kept) return kept;
  const revision = await findRevision(db, revisionId);
  if (!revision) throw new NotFound(`No revision with id "${revisionId}"`);
  if (!db.isTransaction) ctx.revisions.revisions.keep(revisionId, revision);
  return revision;
}

export async function markdownOf(ctx: RevisionsContext, db: Db, page: Pick<FlatPage, 'blob'>): Promise<string> {
  if (page.blob === null) return '';
  return (await objectTexts(db, ctx.revisions.markdownTexts, [page.blob]))[0];
}

/** Several pages' markdown, those not kept read in one query. */
export async function markdownsOf(ctx: RevisionsContext, db: Db, pages: Array<Pick<FlatPage, 'blob'>>): Promise<string[]> {
  const hashes = pages.flatMap((page) => (page.blob === null ? [] : [page.blob]));
  const texts = new Map(hashes.length === 0 ? [] : (await objectTexts(db, ctx.revisions.markdownTexts, hashes)).map((text, index) => [hashes[index], text] as const));
  return pages.map((page) => (page.blob === null ? '' : texts.get(page.blob)!));
}

/** The commit a revision matches, if any; `stamp`, when the caller read it with the space, lets a kept parse serve. */
export async function revisionGitOf(ctx: RevisionsContext, db: Db, revisionId: string, stamp?: string): Promise<RevisionGit | undefined> {
  const { revisionGits } = ctx.revisions;
  const kept = revisionGits.get(revisionId);
  if (kept && stamp !== undefined && kept.stamp === stamp) return kept.git;
  const row = await findRevisionGit(db, revisionId);
  if (!row) return undefined;
  const readStamp = revisionGitStamp(row);
  if (kept?.stamp === readStamp) return kept.git;
  const git: RevisionGit = { row, paths: JSON.parse(row.paths) as GitPaths };
  if (!db.isTransaction) {
    revisionGits.forget(revisionId);
    revisionGits.keep(revisionId, { stamp: readStamp, git });
  }
  return git;
}

/** The hashes of a revision's lists: its files, its reusable contents, and its tag library where it has one. */
const listHashes = (revision: RevisionRow) => [revision.files_hash, revision.reusables_hash, ...(revision.tags_hash ? [revision.tags_hash] : [])];

/** A revision's files, reusable contents and tags parsed afresh, for writers, which change them (reads share them: loadRevision). */
export async function listsOf(ctx: RevisionsContext, db: Db, revision: RevisionRow): Promise<{ files: FileEntry[]; reusables: ReusableEntry[]; tags: TagLibrary }> {
  const [files, reusables, tags] = await objectTexts(db, ctx.revisions.listTexts, listHashes(revision));
  return { files: JSON.parse(files) as FileEntry[], reusables: JSON.parse(reusables) as ReusableEntry[], tags: tags === undefined ? NO_TAGS : (JSON.parse(tags) as TagLibrary) };
}

/** The lists as reads share them (RevisionCaches.sharedLists). */
async function sharedListsOf(caches: RevisionCaches, db: Db, revision: RevisionRow): Promise<SharedLists> {
  const hashes = listHashes(revision);
  const key = hashes.join(' ');
  const kept = caches.sharedLists.get(key);
  if (kept) return kept;
  const texts = await objectTexts(db, caches.listTexts, hashes);
  const [files, reusables] = texts.slice(0, 2).map((text) => Object.freeze((JSON.parse(text) as object[]).map(deepFreeze)));
  const tags = texts[2] === undefined ? NO_TAGS : deepFreeze(JSON.parse(texts[2]) as TagLibrary);
  const lists = { files: files as readonly FileEntry[], reusables: reusables as readonly ReusableEntry[], tags, length: texts.reduce((sum, text) => sum + text.length, 0) };
  if (!db.isTransaction) caches.sharedLists.keep(key, lists);
  return lists;
}

function deepFreeze<Value>(value: Value): Value {
  if (typeof value === 'object' && value !== null) for (const child of Object.values(Object.freeze(value))) deepFreeze(child);
  return value;
}

export async function loadRevision(ctx: ServiceContext, revisionId: string): Promise<RevisionView> {
  const revision = await requireRevision(ctx, ctx.db, revisionId);
  const [tree, { files, reusables, tags }] = await Promise.all([treeOf(ctx, ctx.db, revision.root_hash), sharedListsOf(ctx.revisions, ctx.db, revision)]);
  return { revision, tree, files, reusables, tags };
}

/** The bytes behind a download link, or undefined when the link is forged or expired. */
export async function downloadFile(ctx: ServiceContext, token: string) {
  const link = verifyLink<{ blob: string; name: string; type: string }>(token, ctx.linkKey, ctx.clock.now());
  if (!link) return undefined;
  const base64 = (await databaseObjectStore(ctx.db).get([link.blob])).get(link.blob);
  return base64 === undefined ? undefined : { bytes: Buffer.from(base64, 'base64'), name: link.name, contentType: link.type };
}

export function requirePage(tree: FlatTree, pageId: string): FlatPage {
  const page = tree.get(pageId);
  if (!page) throw new NotFound(`No page with id "${pageId}" in this revision`);
  return page;
}

/** Finds a page by its path of slugs ("guides/install"). */
export function pageAtPath(tree: FlatTree, path: string): FlatPage {
  const found = findPageByPath(childrenOfSettledTree(tree), path);
  if (!found) throw new NotFound(`No page at path "${path}"`);
  return found;
}

export function requireFile(view: Pick<RevisionView, 'files'>, fileId: string): FileEntry {
  const file = view.files.find((candidate) => candidate.id === fileId);
  if (!file) throw new NotFound(`No file with id "${fileId}" in this revision`);
  return file;
}

export function requireReusableContent(view: Pick<RevisionView, 'reusables'>, reusableContentId: string): ReusableEntry {
  const reusable = view.reusables.find((candidate) => candidate.id === reusableContentId);
  if (!reusable) throw new NotFound(`No reusable content with id "${reusableContentId}" in this revision`);
  return reusable;
}

/** Stores a tree (and new markdown) as a revision following `parents`. */
export async function storeRevision(
  ctx: ServiceContext,
  trx: Db,
  content: { tree: FlatTree; files: FileEntry[]; reusables: ReusableEntry[]; tags: TagLibrary },
  /** The trees it was made from: what it shares with them is stored already. */
  bases: FlatTree[],
  blobs: Map<Hash, string>,
  parents: string[],
  actor: Actor,
  spaceId: string,
  /** The tree this revision replaces, where nothing reads that one any more (rememberTree). */
  superseded?: Hash,
): Promise<string> {
  // The new objects of every kind are gathered first and written together: one
  // statement where they fit, where each kind was a round trip of its own.
  const fresh = new MemoryObjectStore();
  await fresh.put(blobs);
  const root = await writeTree(fresh, content.tree, bases);
  const filesHash = await writeFiles(fresh, content.files);
  const reusablesHash = await writeReusables(fresh, content.reusables);
  const tagsHash = await writeTagLibrary(fresh, content.tags);
  await databaseObjectStore(trx).put(fresh.objects);
  rememberTree(ctx, root, content.tree, superseded);
  const revisionId = newId();
  await insertRevision(trx, {
    id: revisionId,
    parents: JSON.stringify(parents),
    root_hash: root,
    files_hash: filesHash,
    reusables_hash: reusablesHash,
    tags_hash: tagsHash,
    created_by: actor.user.id,
    created_at: isoNow(ctx.clock),
  });
  await addSpaceRevision(trx, spaceId, revisionId);
  return revisionId;
}
