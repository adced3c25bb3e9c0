// A revision's content as its readers get it: pages' markdown with what they include
// and what their claims show, and the JSON answers of page lists, pages and documents,
// kept as sent (ctx.revisions) and spliced rather than parsed and serialized again.
// Loading revisions is services/revisions.ts's; presenting them presenters/revision.ts's.
import { hasConditionalBlocks, hasEarlierForms, linkResolverFor, namedFiles, withIncludedBlocks, withIncludedMarkdown, withKeys } from '../content/document.ts';
import { childrenOfSettledTree, type FlatPage, type FlatTree } from '../content/tree.ts';
import type { FileEntry } from '../content/files.ts';
import type { ReusableEntry } from '../content/reusables.ts';
import type { TagLibrary } from '../content/tagLibrary.ts';
import type { Hash } from '../content/objects.ts';
import { runSized } from '../workers/pool.ts';
import { revisionGitStamp } from '../db/repos/gitSync.ts';
import type { Db, GitBlob, RevisionRow } from '../db/schema.ts';
import { pageListAnswerJson } from '../lib/pageTreeJson.ts';
import { presentPage } from '../presenters/page.ts';
import { presentFile as presentFileWith, presentRevision, type FileLinks } from '../presenters/revision.ts';
import type { ServiceContext } from './context.ts';
import { pageDocument } from './pageDocuments.ts';
import { KEPT_LIST_LENGTH, processRevisionCaches } from './revisionCaches.ts';
import * as revisions from './revisions.ts';
import { gitPathsOf, type RevisionView } from './revisions.ts';

export { loadRevision, type RevisionView } from './revisions.ts';

/** What a file's download link is made of, now, in this context. */
export function fileLinks(ctx: ServiceContext): FileLinks {
  return { publicUrl: ctx.config.publicUrl, linkKey: ctx.linkKey, now: ctx.clock.now() };
}

/** A file with a signed download link (presenters/revision.ts), made now. */
export function presentFile(ctx: ServiceContext, file: FileEntry, git?: GitBlob, published = false) {
  return presentFileWith(fileLinks(ctx), file, git, published);
}

// The loaders with a database handle alone, for the writers that do not pass the
// context yet (changeRequestContent.ts, plannedMerge.ts, gitbookRepository.ts): they
// read through the process's caches, which the server's context holds too.
const PROCESS = { revisions: processRevisionCaches };
export const treeOf = (db: Db, root: Hash): Promise<FlatTree> => revisions.treeOf(PROCESS, db, root);
export const requireRevision = (db: Db, revisionId: string): Promise<RevisionRow> => revisions.requireRevision(PROCESS, db, revisionId);
export const listsOf = (db: Db, revision: RevisionRow): Promise<{ files: FileEntry[]; reusables: ReusableEntry[]; tags: TagLibrary }> => revisions.listsOf(PROCESS, db, revision);
export const rememberTree = (root: Hash, tree: FlatTree, superseded?: Hash): void => revisions.rememberTree(PROCESS, root, tree, superseded);

/**
 * A page's markdown as a reader of markdown gets it (a page's `.md`, llms-full.txt,
 * search): what it includes in place (withIncludedMarkdown). `stored`: its own
 * markdown, when read already.
 */
export async function markdownWithIncludes(ctx: ServiceContext, view: Pick<RevisionView, 'reusables'>, page: Pick<FlatPage, 'blob'>, stored?: string): Promise<string> {
  const markdown = stored ?? (await revisions.markdownOf(ctx, ctx.db, page));
  const included = view.reusables.filter((reusable) => markdown.includes(reusable.id));
  const texts = new Map(await Promise.all(included.map(async (reusable) => [reusable.id, await revisions.markdownOf(ctx, ctx.db, reusable)] as const)));
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
  const kept = ctx.revisions.pageListAnswers.get(key) ?? ctx.revisions.lastLargePageList.get(key);
  if (kept) return kept;
  const children = childrenOfSettledTree(view.tree);
  const git = gitPathsOf(view).pages;
  const json = pageListAnswerJson(
    children.get(null) ?? [],
    (page) => children.get(page.id) ?? [],
    (page) => presentPage(ctx.config.publicUrl, spaceId, view.tree, page, { nested: false, git, conditions: !view.published }),
  );
  (json.length <= KEPT_LIST_LENGTH ? ctx.revisions.pageListAnswers : ctx.revisions.lastLargePageList).keep(key, json);
  return json;
}

const EMPTY_PAGES = '"pages":[]';

/**
 * The revision as JSON text, as GitBook's content API answers it: its page tree is the
 * page list's kept text (pageListJson) put in place, its files signed now. Presented anew,
 * a tree of 5,000 pages took 80-300 ms of the one event loop that the app's scripts and
 * session check wait behind.
 */
export function revisionJson(ctx: ServiceContext, spaceId: string, view: RevisionView): string | Buffer {
  const list = pageListJson(ctx, spaceId, view);
  const text = JSON.stringify(presentRevision(fileLinks(ctx), spaceId, view, []));
  // The first: `object`, `id` and `parents` (ids) come before it.
  const at = text.indexOf(EMPTY_PAGES);
  // The list is `{"pages":[…]}`: its inside is the revision's `"pages":[…]`.
  const pages = typeof list === 'string' ? Buffer.from(list.slice(1, -1)) : list.subarray(1, list.length - 1);
  return Buffer.concat([Buffer.from(text.slice(0, at)), pages, Buffer.from(text.slice(at + EMPTY_PAGES.length))]);
}

export type PageFormat = 'markdown' | 'document';

/** How a page's content is read: its markdown, or GitBook's document, with the reusable contents it includes in place when `dereferenced`. */
export interface PageContentForm {
  format?: PageFormat;
  dereferenced?: boolean;
}

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
  const kept = ctx.revisions.pageAnswers.get(key);
  if (kept !== undefined) return kept;
  const git = gitPathsOf(view).pages;
  const children = childrenOfSettledTree(view.tree);
  let json: string;
  // An answer with conditions decided for its reader is theirs alone: made, never kept.
  let readersOwn: boolean;
  if (format === 'markdown') {
    const markdown = await markdownInCurrentForms(await revisions.markdownOf(ctx, ctx.db, page));
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
  if (!readersOwn) ctx.revisions.pageAnswers.keep(key, json);
  return json;
}

/** A document's JSON with its links resolved where it is read from, as every reader shares it: kept by what it is made of. */
async function sharedDocumentJson(ctx: ServiceContext, view: RevisionView, content: Pick<FlatPage, 'blob'>, fromPageId?: string): Promise<string> {
  const key = `${treeKey(view)} ${view.revision.files_hash} ${fromPageId ?? ''} ${content.blob}`;
  const kept = ctx.revisions.resolvedDocuments.get(key);
  if (kept !== undefined) return kept;
  const { document } = await pageDocument(ctx, content);
  const json = JSON.stringify(withKeys(document, linkResolverFor(view.tree, fromPageId, namedFiles(view.files))));
  ctx.revisions.resolvedDocuments.keep(key, json);
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
  const kept = ctx.revisions.resolvedDocuments.get(key);
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
  ctx.revisions.resolvedDocuments.keep(key, json);
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
