// Reading the content of revisions: their page trees from the content store (cached,
// since a revision never changes) and their pages' markdown.
import { hasConditionalBlocks, hasEarlierForms, linkResolverFor, namedFiles, withIncludedBlocks, withIncludedMarkdown, withKeys } from '../content/document.ts';
import { runSized } from '../workers/pool.ts';
import { pageDocument } from './pageDocuments.ts';
import { NotFound } from '../errors.ts';
import { getAll, type Hash } from '../content/objects.ts';
import { childrenByParent, childrenOfSettledTree, findPageByPath, outlineOf, readTree, type FlatPage, type FlatTree, type TreeOutline } from '../content/tree.ts';
import type { FileEntry } from '../content/files.ts';
import type { ReusableEntry } from '../content/reusables.ts';
import { signLink, verifyLink } from '../lib/signedLinks.ts';
import { databaseObjectStore } from '../db/repos/contentObjects.ts';
import { findRevision } from '../db/repos/revisions.ts';
import { findRevisionGit, revisionGitStamp } from '../db/repos/gitSync.ts';
import type { Db, GitBlob, GitPaths, RevisionGitRow, RevisionRow } from '../db/schema.ts';
import { presentPage, presentPageTree } from '../presenters/page.ts';
import { presentGitCommit } from '../presenters/gitSync.ts';
import { pageListAnswerJson } from '../lib/pageTreeJson.ts';
import { WeightBoundedCache } from '../lib/weightBoundedCache.ts';
import type { ServiceContext } from './context.ts';

/** Trees of revisions: a revision never changes, so one read serves every later request. At most 150,000 pages (about 40 MB at ~270 B a page), so memory stays bounded for large spaces while the working set of an organization of 100,000 pages stays cached. */
const trees = new WeightBoundedCache<FlatTree>(150_000, (tree) => tree.size);
/**
 * Outlines of revisions, for search, which shows pages of up to 50 spaces per query:
 * holding their whole trees would push out the trees page reads need, and reading them
 * again on every query cost most of a large organization's searches.
 */
const outlines = new WeightBoundedCache<TreeOutline>(250_000, (outline) => outline.size);
/**
 * Revisions, and their files and reusable-content lists as stored, read by every request
 * for content: neither ever changes, so reading them once saves two round trips to the
 * database on each later read. Kept when read outside a transaction, so that nothing a
 * rolled-back write held is kept. The current revisions of thousands of spaces and
 * change requests, ~300 B each; lists up to 4 million characters.
 */
const revisions = new WeightBoundedCache<RevisionRow>(2_000, () => 1);
const listTexts = new WeightBoundedCache<string>(4_000_000, (text) => text.length);
/**
 * Pages' markdown by its hash, kept as lists are: a page read as markdown read it on each
 * read, its one round trip to the database beyond the token's. Pages up to 64 KB, 4
 * million characters in all: a few thousand ordinary pages.
 */
const markdownTexts = new WeightBoundedCache<string>(4_000_000, (text) => text.length, 64_000);

/** Texts of content objects, from `kept` or read together; kept when read outside a transaction. */
async function objectTexts(db: Db, kept: WeightBoundedCache<string>, hashes: Hash[]): Promise<string[]> {
  const texts = hashes.map((hash) => kept.get(hash));
  if (!texts.includes(undefined)) return texts as string[];
  const read = await getAll(databaseObjectStore(db), hashes);
  if (!db.isTransaction) for (const hash of hashes) kept.keep(hash, read.get(hash)!);
  return hashes.map((hash) => read.get(hash)!);
}
/**
 * Trees being read outside transactions: requests that miss the cache together read a
 * tree once, not once each. A request inside a transaction reads on its own: on SQLite
 * its transaction holds the one connection, so waiting on a read through another
 * request's queries would wait for itself.
 */
const reading = new Map<Hash, Promise<FlatTree>>();

/**
 * A cached tree holding the page with the same markdown: most likely the tree of its
 * space at another revision, whose unchanged pages a tree read back shares (readTree).
 * Without it, a space's tree pushed out and read back beside its open change request's
 * tree held a second copy of each page (~300 B a page). Ids alone may repeat across
 * spaces (copies, imports of one repository); their markdown tells the spaces apart.
 */
function cachedTreeHolding(page: FlatPage): FlatTree | undefined {
  return trees.find((tree) => tree.get(page.id)?.blob === page.blob);
}

async function readOnce(db: Db, root: Hash): Promise<FlatTree> {
  if (db.isTransaction) return readTree(databaseObjectStore(db), root, cachedTreeHolding);
  const shared = reading.get(root);
  if (shared) {
    // The read goes through another request's connection; if that one fails, this request reads on its own.
    const read = await shared.catch(() => undefined);
    if (read) return read;
  }
  const read = readTree(databaseObjectStore(db), root, cachedTreeHolding);
  reading.set(root, read);
  try {
    return await read;
  } finally {
    if (reading.get(root) === read) reading.delete(root);
  }
}

/** A revision's tree. */
export async function treeOf(db: Db, root: Hash): Promise<FlatTree> {
  const cached = trees.get(root);
  if (cached) return cached;
  const tree = await readOnce(db, root);
  trees.keep(root, tree);
  return tree;
}

/**
 * What search shows of a revision's pages; reading it does not push trees out of their
 * cache. A cached tree serves as its own outline: a copy beside it cost ~140 B a page.
 */
export async function treeOutlineOf(db: Db, root: Hash): Promise<TreeOutline> {
  const tree = trees.get(root);
  if (tree) {
    outlines.forget(root);
    return tree;
  }
  const cached = outlines.get(root);
  if (cached) return cached;
  const outline = outlineOf(await readOnce(db, root));
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
export function rememberTree(root: Hash, tree: FlatTree, superseded?: Hash): void {
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

export async function requireRevision(db: Db, revisionId: string): Promise<RevisionRow> {
  const kept = revisions.get(revisionId);
  if (kept) return kept;
  const revision = await findRevision(db, revisionId);
  if (!revision) throw new NotFound(`No revision with id "${revisionId}"`);
  if (!db.isTransaction) revisions.keep(revisionId, revision);
  return revision;
}

export async function markdownOf(db: Db, page: Pick<FlatPage, 'blob'>): Promise<string> {
  if (page.blob === null) return '';
  return (await objectTexts(db, markdownTexts, [page.blob]))[0];
}

/** Several pages' markdown, those not kept read in one query. */
export async function markdownsOf(db: Db, pages: Array<Pick<FlatPage, 'blob'>>): Promise<string[]> {
  const hashes = pages.flatMap((page) => (page.blob === null ? [] : [page.blob]));
  const texts = new Map(hashes.length === 0 ? [] : (await objectTexts(db, markdownTexts, hashes)).map((text, index) => [hashes[index], text] as const));
  return pages.map((page) => (page.blob === null ? '' : texts.get(page.blob)!));
}

/**
 * A page's markdown as a reader of markdown gets it (a page's `.md`, llms-full.txt,
 * search): what it includes in place (withIncludedMarkdown). `stored`: its own
 * markdown, when read already.
 */
export async function markdownWithIncludes(ctx: ServiceContext, view: Pick<RevisionView, 'reusables'>, page: Pick<FlatPage, 'blob'>, stored?: string): Promise<string> {
  const markdown = stored ?? (await markdownOf(ctx.db, page));
  const included = view.reusables.filter((reusable) => markdown.includes(reusable.id));
  const texts = new Map(await Promise.all(included.map(async (reusable) => [reusable.id, await markdownOf(ctx.db, reusable)] as const)));
  return withIncludedMarkdown(markdown, (id) => texts.get(id));
}

/**
 * Markdown as its readers get it: GitBook's earlier forms (an `{% api-method %}` a
 * repository synced years ago) written as today's blocks, as its document reads them
 * and GitBook answers them, not as stored.
 */
export async function markdownInCurrentForms(markdown: string): Promise<string> {
  return hasEarlierForms(markdown) ? runSized('markdownInCurrentForms', { markdown }, markdown.length) : markdown;
}

/** Markdown as a reader with these claims reads it: what a condition shows only some readers is not written for the others; earlier forms as today's. */
export async function markdownReadBy(markdown: string, claims: Record<string, unknown>): Promise<string> {
  return hasConditionalBlocks(markdown) ? runSized('markdownReadBy', { markdown, claims }, markdown.length) : markdownInCurrentForms(markdown);
}

export function requirePage(tree: FlatTree, pageId: string): FlatPage {
  const page = tree.get(pageId);
  if (!page) throw new NotFound(`No page with id "${pageId}" in this revision`);
  return page;
}

export interface RevisionView {
  revision: RevisionRow;
  tree: FlatTree;
  /** Shared by every reader of the revision, and frozen. */
  files: readonly FileEntry[];
  reusables: readonly ReusableEntry[];
  /** Read as published content, by someone with no role on the space: its file links are the stable ones. */
  published?: boolean;
  /** The pages closed to this reader of published content, left out of `tree` (services/siteStructure.ts: pagesReadBy); '' or absent: none. */
  leftOut?: string;
  /** A reader of published content's claims: what they read of a page has its conditional blocks decided by them. Absent for members. */
  claims?: Record<string, unknown>;
  /** The commit the revision matches, for API reads (Git Sync). */
  git?: RevisionGit;
}

/** A revision's Git metadata, with where its pages and files sit in the commit parsed. Shared by readers: never changed. */
export interface RevisionGit {
  row: RevisionGitRow;
  paths: GitPaths;
}

const NO_GIT_PATHS: GitPaths = Object.freeze({ pages: Object.freeze({}), files: Object.freeze({}) });

/** Where the revision's pages and files sit in its commit (none when it matches no commit). */
export function gitPathsOf(view: RevisionView): GitPaths {
  return view.git?.paths ?? NO_GIT_PATHS;
}

/**
 * Git metadata of revisions, parsed, by revision, with the stamp of the row they were
 * read from. A sync or export may write a revision's row again, so an entry serves only
 * a read that knows the row's current stamp (read with the space, repos/gitSync.ts) and
 * finds the same. The paths of a synced space of 5,000 pages are ~500 KB of JSON, which
 * took 5 ms to parse on every read of any of its pages. Up to 200,000 paths are kept.
 */
const revisionGits = new WeightBoundedCache<{ stamp: string; git: RevisionGit }>(200_000, ({ git }) => pathCount(git.paths));

function pathCount(paths: GitPaths): number {
  return 1 + Object.keys(paths.pages).length + Object.keys(paths.files).length + Object.keys(paths.reusables ?? {}).length;
}

/** The commit a revision matches, if any; `stamp`, when the caller read it with the space, lets a kept parse serve. */
export async function revisionGitOf(db: Db, revisionId: string, stamp?: string): Promise<RevisionGit | undefined> {
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

/**
 * Page lists as sent, by space, tree and Git commit: what a page list presents is made
 * only of those (and the server's public URL), none of which a revision's reader can
 * change. Presenting and serializing a list takes ~100 µs for 20 pages and ~20 ms for
 * 5,000 (page by page: pageListAnswerJson), on every read; GitBook's renderer reads its
 * site's page list for most pages it renders. Lists up to 256 KB of JSON (about 500
 * pages) are kept, 4 MB in all, and of larger ones only the last read: serving an
 * organization of 5,000-page spaces (2.6 MB lists), keeping one held the process as
 * keeping none did, while keeping 8 MB of them held 25 MB more (the allocator's
 * fragments between them), where that process is already over its 200 MB (README,
 * Performance).
 */
const KEPT_LIST_LENGTH = 256_000;
const pageListAnswers = new WeightBoundedCache<string | Buffer>(4_000_000, (json) => json.length, KEPT_LIST_LENGTH);
const lastLargePageList = new WeightBoundedCache<string | Buffer>(1, () => 1);

/** The tree a view reads, as a cache key: the revision's, less the pages closed to its reader. */
function treeKey(view: RevisionView): string {
  return view.leftOut ? `${view.revision.root_hash}-${view.leftOut}` : view.revision.root_hash;
}

/**
 * What every presented page of a revision is made of, as a cache key: the address its
 * URLs start with, the space, the tree, the Git commit its pages sit in, and whether
 * its reader is shown pages' conditions (members are; readers of published content not).
 */
function presentedPagesKey(ctx: ServiceContext, spaceId: string, view: RevisionView): string {
  return `${ctx.config.publicUrl} ${spaceId} ${treeKey(view)} ${view.git ? revisionGitStamp(view.git.row) : ''} ${view.published ? 'published' : ''}`;
}

/** The JSON of the revision's pages, nested, as a page list answers them: serialized once per space, tree and commit. */
export function pageListJson(ctx: ServiceContext, spaceId: string, view: RevisionView): string | Buffer {
  const key = presentedPagesKey(ctx, spaceId, view);
  const kept = pageListAnswers.get(key) ?? lastLargePageList.get(key);
  if (kept) return kept;
  const children = childrenOfSettledTree(view.tree);
  const git = gitPathsOf(view).pages;
  const json = pageListAnswerJson(
    children.get(null) ?? [],
    (page) => children.get(page.id) ?? [],
    (page) => presentPage(ctx.config.publicUrl, spaceId, view.tree, page, { nested: false, git, conditions: !view.published }),
  );
  (json.length <= KEPT_LIST_LENGTH ? pageListAnswers : lastLargePageList).keep(key, json);
  return json;
}

/** A revision's files and reusable contents parsed afresh, for writers, which change them (reads share them: loadRevision). */
export async function listsOf(db: Db, revision: RevisionRow): Promise<{ files: FileEntry[]; reusables: ReusableEntry[] }> {
  const [files, reusables] = await objectTexts(db, listTexts, [revision.files_hash, revision.reusables_hash]);
  return { files: JSON.parse(files) as FileEntry[], reusables: JSON.parse(reusables) as ReusableEntry[] };
}

/**
 * Revisions' lists as reads share them: parsed once and frozen, up to 1 million
 * characters of JSON a revision (some 4,000 files), 4 million in all. Every content read
 * parsed its revision's lists afresh: ~24 µs for a space of 60 images, more than the
 * rest of a page read.
 */
const sharedLists = new WeightBoundedCache<SharedLists & { length: number }>(4_000_000, (lists) => lists.length, 1_000_000);

type SharedLists = Pick<RevisionView, 'files' | 'reusables'>;

async function sharedListsOf(db: Db, revision: RevisionRow): Promise<SharedLists> {
  const key = `${revision.files_hash} ${revision.reusables_hash}`;
  const kept = sharedLists.get(key);
  if (kept) return kept;
  const texts = await objectTexts(db, listTexts, [revision.files_hash, revision.reusables_hash]);
  const [files, reusables] = texts.map((text) => Object.freeze((JSON.parse(text) as object[]).map(deepFreeze)));
  const lists = { files: files as readonly FileEntry[], reusables: reusables as readonly ReusableEntry[], length: texts[0].length + texts[1].length };
  if (!db.isTransaction) sharedLists.keep(key, lists);
  return lists;
}

function deepFreeze<Value>(value: Value): Value {
  if (typeof value === 'object' && value !== null) for (const child of Object.values(Object.freeze(value))) deepFreeze(child);
  return value;
}

export async function loadRevision(ctx: ServiceContext, revisionId: string): Promise<RevisionView> {
  const revision = await requireRevision(ctx.db, revisionId);
  const [tree, { files, reusables }] = await Promise.all([treeOf(ctx.db, revision.root_hash), sharedListsOf(ctx.db, revision)]);
  return { revision, tree, files, reusables };
}

const DOWNLOAD_LINK_MS = 60 * 60 * 1000;
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * When a download link ends. Members get links for an hour. Readers of published content
 * (GitBook's renderer among them, which caches pages for days) get links that stay the
 * same for a calendar week and last a week beyond it: the same file has the same URL in
 * every answer of the week, and a cached page's images keep loading.
 */
function linkExpiry(now: Date, published: boolean): Date {
  if (!published) return new Date(now.getTime() + DOWNLOAD_LINK_MS);
  return new Date(Math.floor(now.getTime() / WEEK_MS) * WEEK_MS + 2 * WEEK_MS);
}

/** A file with a signed download link: for an hour, or for readers of published content, stable for a week (linkExpiry). */
export function presentFile(ctx: ServiceContext, file: FileEntry, git?: GitBlob, published = false) {
  const token = signLink({ blob: file.blob, name: file.name, type: file.contentType }, ctx.linkKey, linkExpiry(ctx.clock.now(), published));
  return {
    id: file.id,
    name: file.name,
    contentType: file.contentType,
    size: file.size,
    ...(file.dimensions ? { dimensions: file.dimensions } : {}),
    downloadURL: `${ctx.config.publicUrl}/files/download/${token}`,
    ...(git ? { git: { oid: git[1], path: git[0] } } : {}),
  };
}

export function requireFile(view: RevisionView, fileId: string): FileEntry {
  const file = view.files.find((candidate) => candidate.id === fileId);
  if (!file) throw new NotFound(`No file with id "${fileId}" in this revision`);
  return file;
}

/** The bytes behind a download link, or undefined when the link is forged or expired. */
export async function downloadFile(ctx: ServiceContext, token: string) {
  const link = verifyLink<{ blob: string; name: string; type: string }>(token, ctx.linkKey, ctx.clock.now());
  if (!link) return undefined;
  const base64 = (await databaseObjectStore(ctx.db).get([link.blob])).get(link.blob);
  return base64 === undefined ? undefined : { bytes: Buffer.from(base64, 'base64'), name: link.name, contentType: link.type };
}

/** GitBook's RevisionReusableContent: its document's id is the hash of its markdown, as a page's is. */
export function presentReusableContent(reusable: ReusableEntry, git?: GitBlob) {
  return { id: reusable.id, title: reusable.title, document: reusable.blob, ...(git ? { git: { oid: git[1], path: git[0] } } : {}) };
}

export function requireReusableContent(view: RevisionView, reusableContentId: string): ReusableEntry {
  const reusable = view.reusables.find((candidate) => candidate.id === reusableContentId);
  if (!reusable) throw new NotFound(`No reusable content with id "${reusableContentId}" in this revision`);
  return reusable;
}

export function presentRevision(ctx: ServiceContext, spaceId: string, view: RevisionView) {
  const git = gitPathsOf(view);
  return {
    object: 'revision' as const,
    id: view.revision.id,
    parents: JSON.parse(view.revision.parents) as string[],
    pages: presentPageTree(ctx.config.publicUrl, spaceId, view.tree, childrenOfSettledTree(view.tree), git.pages, !view.published),
    files: view.files.map((file) => presentFile(ctx, file, git.files[file.id], view.published)),
    reusableContents: view.reusables.map((reusable) => presentReusableContent(reusable, git.reusables?.[reusable.id])),
    tags: [],
    createdAt: view.revision.created_at,
    type: 'edits' as const,
    ...(view.git ? { git: presentGitCommit(view.git.row, !view.published) } : {}),
    urls: { app: `${ctx.config.publicUrl}/s/${spaceId}/~/revisions/${view.revision.id}/` },
  };
}

export type PageFormat = 'markdown' | 'document';

/** How a page's content is read: its markdown, or GitBook's document, with the reusable contents it includes in place when `dereferenced`. */
export interface PageContentForm {
  format?: PageFormat;
  dereferenced?: boolean;
}

/**
 * Pages with their markdown or document, as sent, by everything they are made of: the
 * address, the space, the tree (the page, its sub-pages, its content), the files its
 * links resolve to and the Git commit it sits in. Up to 64 KB each, 4 MB in all.
 * Presenting the page and serializing it was a fifth of a page read's CPU.
 */
const pageAnswers = new WeightBoundedCache<string>(4_000_000, (json) => json.length, 64_000);

/**
 * A page with its content, as JSON text: markdown as stored, or GitBook's JSON document
 * derived from it, spliced in as kept (sharedDocumentJson) rather than parsed and
 * serialized again, which was a third of the read; for a reader of published content,
 * either with its conditional blocks decided by their claims.
 */
export async function pageWithContentJson(
  ctx: ServiceContext,
  spaceId: string,
  view: RevisionView,
  page: FlatPage,
  { format = 'markdown', dereferenced = false }: PageContentForm = {},
): Promise<string> {
  const key = `${format}${format === 'document' && dereferenced ? ' dereferenced' : ''} ${presentedPagesKey(ctx, spaceId, view)} ${view.revision.files_hash} ${page.id}`;
  const kept = pageAnswers.get(key);
  if (kept !== undefined) return kept;
  const git = gitPathsOf(view).pages;
  const children = childrenOfSettledTree(view.tree);
  let json: string;
  // An answer with conditions decided for its reader is theirs alone: made, never kept.
  let readersOwn: boolean;
  if (format === 'markdown') {
    const markdown = await markdownInCurrentForms(await markdownOf(ctx.db, page));
    const readable = view.claims ? await markdownReadBy(markdown, view.claims) : markdown;
    readersOwn = readable !== markdown;
    json = JSON.stringify(presentPage(ctx.config.publicUrl, spaceId, view.tree, page, { markdown: readable, git, children, conditions: !view.published }));
  } else {
    const presented = JSON.stringify(presentPage(ctx.config.publicUrl, spaceId, view.tree, page, { git, children, conditions: !view.published }));
    const shared = await sharedDocumentJson(ctx, view, page, page.id);
    const document = dereferenced ? await dereferencedDocumentJson(ctx, view, page, shared) : shared;
    const readable = await documentJsonReadBy(view, document);
    readersOwn = readable !== document;
    json = `${presented.slice(0, -1)},"document":${readable}}`;
  }
  if (!readersOwn) pageAnswers.keep(key, json);
  return json;
}

/**
 * Documents with their links resolved where they sit, as sent, by tree, files, page and
 * content: resolving depends on nothing else. GitBook's renderer reads a page's document
 * for each render; parsing the stored document, resolving and keying it and serializing
 * it again was ~110 of a read's ~170 µs. Documents up to 64 KB of JSON are kept, 4 MB in all.
 */
const resolvedDocuments = new WeightBoundedCache<string>(4_000_000, (json) => json.length, 64_000);

/** A document's JSON with its links resolved where it is read from, as every reader shares it: kept by what it is made of. */
async function sharedDocumentJson(ctx: ServiceContext, view: RevisionView, content: Pick<FlatPage, 'blob'>, fromPageId?: string): Promise<string> {
  const key = `${treeKey(view)} ${view.revision.files_hash} ${fromPageId ?? ''} ${content.blob}`;
  const kept = resolvedDocuments.get(key);
  if (kept !== undefined) return kept;
  const { document } = await pageDocument(ctx, content);
  const json = JSON.stringify(withKeys(document, linkResolverFor(view.tree, fromPageId, namedFiles(view.files))));
  resolvedDocuments.keep(key, json);
  return json;
}

/** How a document's JSON holds a block shown on a condition. */
const CONDITIONAL_BLOCK_JSON = '"type":"if"';

/** How a document's JSON holds an include of reusable content. */
const INCLUDE_BLOCK_JSON = '"type":"reusable-content"';

/**
 * A page's document JSON with the blocks of each reusable content it includes in place
 * of the include, as GitBook's API answers `dereferenced` (its renderer asks for
 * documents so, and draws an include itself only as a fallback it reports as an error).
 * The included blocks' links resolve as the reusable content's own document's do, from
 * the space's top, and their keys follow the include's ("k3.0"), so that none repeats a
 * key of the page. The shared JSON when the page includes nothing.
 */
async function dereferencedDocumentJson(ctx: ServiceContext, view: RevisionView, page: Pick<FlatPage, 'id' | 'blob'>, shared: string): Promise<string> {
  if (!shared.includes(INCLUDE_BLOCK_JSON)) return shared;
  const key = `dereferenced ${treeKey(view)} ${view.revision.files_hash} ${view.revision.reusables_hash} ${page.id} ${page.blob}`;
  const kept = resolvedDocuments.get(key);
  if (kept !== undefined) return kept;
  const written = new Map<string, string>();
  for (const reusable of view.reusables) {
    if (shared.includes(reusable.id)) written.set(reusable.id, JSON.stringify((await pageDocument(ctx, reusable)).document.nodes));
  }
  const fromTop = linkResolverFor(view.tree, undefined, namedFiles(view.files));
  const json = JSON.stringify(
    withIncludedBlocks(JSON.parse(shared) as { nodes: unknown[] }, (id, include) => {
      const nodes = written.get(id);
      return nodes === undefined ? undefined : withKeys({ nodes: JSON.parse(nodes) as unknown[] }, fromTop, `${String(include.key)}.`).nodes;
    }),
  );
  resolvedDocuments.keep(key, json);
  return json;
}

/**
 * A document's JSON as its reader reads it: for a reader of published content, each
 * block shown on a condition decided by their claims, as GitBook's API answers its
 * renderer (which leaves `if` blocks to the API and draws nothing for them). The shared
 * JSON, kept for everyone, when there is nothing to decide.
 */
async function documentJsonReadBy(view: RevisionView, json: string): Promise<string> {
  if (!view.claims || !json.includes(CONDITIONAL_BLOCK_JSON)) return json;
  return runSized('documentJsonReadBy', { json, claims: view.claims }, json.length);
}

/** The JSON of a reusable content's document as its reader reads it. */
export async function reusableDocumentJson(ctx: ServiceContext, view: RevisionView, reusable: Pick<FlatPage, 'blob'>): Promise<string> {
  return documentJsonReadBy(view, await sharedDocumentJson(ctx, view, reusable));
}

/** The JSON of a page's document as its reader reads it, `dereferenced` or not. */
export async function pageDocumentJson(ctx: ServiceContext, view: RevisionView, page: Pick<FlatPage, 'id' | 'blob'>, dereferenced = false): Promise<string> {
  const shared = await sharedDocumentJson(ctx, view, page, page.id);
  return documentJsonReadBy(view, dereferenced ? await dereferencedDocumentJson(ctx, view, page, shared) : shared);
}

/** Finds a page by its path of slugs ("guides/install"). */
export function pageAtPath(tree: FlatTree, path: string): FlatPage {
  const found = findPageByPath(childrenOfSettledTree(tree), path);
  if (!found) throw new NotFound(`No page at path "${path}"`);
  return found;
}
