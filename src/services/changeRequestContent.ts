// Writing a change request's content, bringing the space's changes into it (update),
// and publishing it into the space (merge). Each accepted batch of edits makes one new
// revision; merges are three-way (src/content/merge.ts) and a conflict changes nothing.
import { BadRequest, Conflict, Forbidden } from '../errors.ts';
import { applyChanges, type PageChange } from '../content/changes.ts';
import { mergeTrees, type MergeConflict, type TextMerger } from '../content/merge.ts';
import { mergeReusables, writeReusables, type ReusableConflict, type ReusableEntry } from '../content/reusables.ts';
import { ContentError, getAll, hashOf, MemoryObjectStore, type Hash } from '../content/objects.ts';
import { childrenByParent, findPageByPath, pagePath, writeTree, type FlatTree, type PageMeta } from '../content/tree.ts';
import { isSafeLinkUrl, SAFE_LINK_SCHEMES } from '../content/gitbook/safety.ts';
import { documentShapeError } from '../content/gitbook/shape.ts';
import type { JSONDocument } from '../content/gitbook/model.ts';
import { runSized } from '../workers/pool.ts';
import { mergeFiles, writeFiles, type FileEntry } from '../content/files.ts';
import { RepositoryFormatError, splitFrontMatter, splitTitle } from '../content/gitbook/repository.ts';
import { updateChangeRequest } from '../db/repos/changeRequests.ts';
import { databaseObjectStore } from '../db/repos/contentObjects.ts';
import { addSpaceRevision, insertRevision, isRevisionOfSpace } from '../db/repos/revisions.ts';
import { lockRow } from '../db/dialect.ts';
import { baseOf, type Db, type ChangeRequestWithAuthor, type SpaceRow } from '../db/schema.ts';
import { isoNow } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { decodeBase64, imageFacts } from '../lib/uploads.ts';
import { createFetcher, FetchRefused } from '../lib/safeFetch.ts';
import type { Actor, ServiceContext } from './context.ts';
import { authorizeSpaceDrafts } from './contentAccess.ts';
import { afterCommit, commitRevision } from './events.ts';
import { presentChangeRequestOf, requireChangeRequest } from './changeRequests.ts';
import { listsOf, presentFile, rememberTree, requireRevision, treeOf } from './revisionContent.ts';
import { checkedCondition } from '../lib/conditions.ts';
import { slugify, uniquePath } from '../lib/slugs.ts';

interface PageFields {
  title?: string;
  slug?: string;
  emoji?: string;
  icon?: string;
  description?: string;
  hidden?: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  /** Adaptive content: when readers of published content see the page; '' removes it. Stored as Git Sync's front matter names it, `if`. */
  condition?: string;
}

/** A page's content as sent: markdown (a string or {markdown}) or GitBook's JSONDocument ({document}). */
/** The most JSON one document may hold: a little more than the markdown limit, as JSON is wordier. */
const MAX_JSON_DOCUMENT = 5_000_000;

export type Document = string | { markdown: string } | { document: JSONDocument };

export type ContentChangeInput =
  | (PageFields & {
      operation: 'insert_page';
      /** document (default), group (a heading for its sub-pages) or link (to href). */
      type?: 'document' | 'group' | 'link';
      href?: string;
      document?: Document;
      into?: string;
      at?: number;
      ref?: string;
    })
  | (PageFields & { operation: 'update_page'; page: string; document?: Document; into?: string | null; at?: number })
  | { operation: 'delete_page'; page: string }
  | { operation: 'revert_page'; page: string; revision?: string }
  | { operation: 'insert_files'; files: FileInput[] };

/** A file to insert: its bytes inline (base64), or a URL Quire fetches them from. */
export interface FileInput {
  name: string;
  contentType?: string;
  base64?: string;
  url?: string;
  ref?: string;
}

/** What a batch did, page by page in the order each was first touched, and the files it inserted. */
export interface BatchOutcome {
  pages: Map<string, { object: 'created_page' | 'updated_page' | 'deleted_page'; ref?: string }>;
  insertedFiles: FileEntry[];
}

/** Largest file accepted in one insert_files change, decoded. */
export const MAX_FILE_BYTES = 1024 * 1024;

function assertEditable(space: SpaceRow, changeRequest: ChangeRequestWithAuthor): void {
  if (space.edit_mode === 'locked') {
    throw new Forbidden('This space is locked (editMode "locked"): its content cannot change until it is unlocked');
  }
  if (changeRequest.status === 'merged') {
    throw new Conflict(`Change request #${changeRequest.number} is merged; it can no longer change`);
  }
}



interface ReadDocument {
  /** Metadata from front matter (title, description, emoji, icon, hidden…). */
  front: PageFields;
  heading?: string;
  body: string;
}

const FRONT_FIELDS = ['title', 'description', 'emoji', 'icon', 'hidden', 'noIndex', 'noRobotsIndex'] as const;

/**
 * Reads a markdown document as Git Sync does: YAML front matter sets metadata and a
 * leading "# Heading" becomes the title (when the front matter names none); what
 * becomes metadata leaves the stored body.
 */
function readDocument(document: string | { markdown: string }, where: string): ReadDocument {
  let split;
  try {
    split = splitFrontMatter(typeof document === 'string' ? document : document.markdown, `${where}.document`);
  } catch (error) {
    if (error instanceof RepositoryFormatError) throw new BadRequest(error.message);
    throw error;
  }
  const front: PageFields = {};
  for (const field of FRONT_FIELDS) {
    const value = split.front[field];
    if (value === undefined) continue;
    const wanted = field === 'hidden' || field === 'noIndex' || field === 'noRobotsIndex' ? 'boolean' : 'string';
    if (typeof value !== wanted) throw new BadRequest(`${where}.document: front matter "${field}" must be a ${wanted}`);
    (front as Record<string, unknown>)[field] = value;
  }
  // GitBook's front matter names a page's condition `if`.
  if (split.front.if !== undefined) {
    if (typeof split.front.if !== 'string') throw new BadRequest(`${where}.document: front matter "if" must be a string`);
    front.condition = split.front.if;
  }
  // A leading heading is the title, unless the front matter named one: then it is content.
  if (front.title !== undefined) return { front, body: split.body };
  const { title, body } = splitTitle(split.body);
  return title !== undefined ? { front, heading: title, body } : { front, body };
}

/**
 * The JSONDocuments of a batch as the markdown Quire stores, written before any
 * transaction (large ones on a worker thread), their pages linked by id. A JSON
 * document's title and metadata come from the change's fields, never from its blocks.
 */
async function writeJsonDocuments(changes: ContentChangeInput[]): Promise<Map<object, string>> {
  const written = new Map<object, string>();
  for (const [index, change] of changes.entries()) {
    if (!('document' in change) || typeof change.document !== 'object' || !('document' in change.document)) continue;
    const where = `changes[${index}].document.document`;
    const wrong = documentShapeError(change.document.document);
    if (wrong) throw new BadRequest(`${where}: ${wrong}`);
    const size = JSON.stringify(change.document.document).length;
    if (size > MAX_JSON_DOCUMENT) throw new BadRequest(`${where}: a document holds at most ${MAX_JSON_DOCUMENT / 1_000_000} MB of JSON; this one holds ${(size / 1_000_000).toFixed(1)} MB`);
    written.set(change.document, await runSized('documentToMarkdown', { document: change.document.document }, size));
  }
  return written;
}

/** Where a document's own condition is named, for its error. */
const FRONT_CONDITION = (where: string) => `${where}.document: front matter "if"`;

/** The page metadata fields set; `conditionField` names where the condition came from, for its error. */
function metaFields(fields: PageFields, conditionField: string): Partial<PageMeta> {
  const meta: Partial<PageMeta> = {};
  for (const key of ['title', 'slug', 'emoji', 'icon', 'description', 'hidden', 'noIndex', 'noRobotsIndex'] as const) {
    if (fields[key] !== undefined) meta[key] = fields[key] as never;
  }
  if (fields.condition !== undefined) meta.if = fields.condition === '' ? undefined : checkedCondition(conditionField, fields.condition);
  return meta;
}

function freeSlug(tree: FlatTree, parentId: string | null, title: string, exceptId?: string): string {
  const taken = [...tree.values()].filter((page) => page.parentId === parentId && page.id !== exceptId).map((page) => page.meta.slug);
  return uniquePath(slugify(title, 'page'), taken);
}

/** Checks and describes an uploaded file; its bytes are stored as a base64 blob. */
function fileEntry(file: FileInput, where: string, blobs: Map<Hash, string>, fetched: Map<FileInput, FetchedFile>): FileEntry {
  const source = fetched.get(file);
  const { base64, bytes } = source ?? decodeBase64(file.base64!, `${where}.base64`);
  if (bytes.length > MAX_FILE_BYTES) throw new BadRequest(`${where}: files are limited to 1 MB each`);
  const image = imageFacts(bytes);
  const dimensions = image?.dimensions;
  blobs.set(hashOf(base64), base64);
  return {
    id: newId(),
    name: file.name,
    contentType: file.contentType ?? image?.contentType ?? source?.contentType ?? 'application/octet-stream',
    size: bytes.length,
    ...(dimensions ? { dimensions } : {}),
    blob: hashOf(base64),
  };
}

interface FetchedFile {
  base64: string;
  bytes: Buffer;
  contentType?: string;
}

const FILE_FETCH_TIMEOUT_MS = 15_000;

/**
 * The bytes of the batch's files given by URL, fetched before any transaction through
 * the URL-safety rules; each file gives exactly one source.
 */
async function fetchFileSources(ctx: ServiceContext, changes: ContentChangeInput[]): Promise<Map<FileInput, FetchedFile>> {
  const fetched = new Map<FileInput, FetchedFile>();
  for (const [index, change] of changes.entries()) {
    if (change.operation !== 'insert_files') continue;
    for (const [fileIndex, file] of change.files.entries()) {
      const where = `changes[${index}].files[${fileIndex}]`;
      if ((file.base64 === undefined) === (file.url === undefined)) throw new BadRequest(`${where}: give the bytes as base64 or a url to fetch them from, one of the two`);
      if (file.url === undefined) continue;
      let response;
      try {
        response = await createFetcher(ctx.config.allowPrivateUrls)(file.url, { timeoutMs: FILE_FETCH_TIMEOUT_MS, maxBytes: MAX_FILE_BYTES });
      } catch (error) {
        if (!(error instanceof FetchRefused)) throw error;
        throw new BadRequest(error.code === 'TOO_LARGE' ? `${where}: files are limited to 1 MB each` : `${where}.url: ${error.message}`);
      }
      if (response.status >= 400) throw new BadRequest(`${where}.url: ${file.url} answered HTTP ${response.status}`);
      const contentType = String(response.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
      fetched.set(file, { base64: response.body.toString('base64'), bytes: response.body, ...(/^[\w.+-]+\/[\w.+-]+$/.test(contentType) ? { contentType } : {}) });
    }
  }
  return fetched;
}

/** Escapes text to match it literally in a regular expression. */
function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Where a link target ends: a closing bracket or quote, an anchor, a query or a space. */
const TARGET_END = `(?=[)\\]"'>#?\\s]|$)`;

/**
 * A document's links to the batch's new pages and files by their refs, as their ids:
 * GitBook's "./<ref>.md" (a page) and "./<ref>" (a file), and Quire's "/pages/<ref>" and
 * "/files/<ref>".
 */
function resolveBatchRefs(body: string, pageRefs: Map<string, string>, fileRefs: Map<string, string>): string {
  let resolved = body
    .replace(/\/files\/([A-Za-z0-9_.-]+)/g, (whole, ref: string) => (fileRefs.has(ref) ? `/files/${fileRefs.get(ref)}` : whole))
    .replace(/\/pages\/([A-Za-z0-9_.-]+)/g, (whole, ref: string) => (pageRefs.has(ref) ? `/pages/${pageRefs.get(ref)}` : whole));
  for (const [ref, id] of pageRefs) resolved = resolved.replace(new RegExp(`(?<=[(\\["'<\\s=])\\./${literal(ref)}\\.md${TARGET_END}`, 'g'), `/pages/${id}`);
  for (const [ref, id] of fileRefs) resolved = resolved.replace(new RegExp(`(?<=[(\\["'<\\s=])\\./${literal(ref)}${TARGET_END}`, 'g'), `/files/${id}`);
  return resolved;
}

/** The change that puts a page back as it was in `target` (removing it if it was not there). */
function revertChange(tree: FlatTree, target: FlatTree, pageId: string, where: string): PageChange {
  const current = tree.get(pageId);
  const then = target.get(pageId);
  if (!current && !then) throw new BadRequest(`${where}.page: no page "${pageId}" here or in that revision`);
  if (!then) return { kind: 'delete', id: pageId };
  // A page whose parent is gone since comes back at the top level.
  const parentId = then.parentId !== null && tree.has(then.parentId) ? then.parentId : null;
  const placement = { parentId, index: then.index };
  return current
    ? { kind: 'update', id: pageId, meta: then.meta, blob: then.blob, placement }
    : { kind: 'insert', id: pageId, placement, meta: then.meta, blob: then.blob };
}

/**
 * The batch's refs, each a name unique in the batch and not the path of a page already
 * there: pages' and files' ids by ref, known before any change applies, so that a
 * document may link to a page or file inserted later in the batch.
 */
function batchRefs(base: FlatTree, changes: ContentChangeInput[]) {
  const pageRefs = new Map<string, string>();
  const fileRefs = new Map<string, string>();
  const fileIds = new Map<FileInput, string>();
  const children = childrenByParent(base);
  const claim = (ref: string, where: string) => {
    if (pageRefs.has(ref) || fileRefs.has(ref)) throw new BadRequest(`${where}.ref: "${ref}" is used twice in this batch`);
    if (findPageByPath(children, ref.replace(/\.md$/i, ''))) throw new BadRequest(`${where}.ref: "${ref}" is the path of a page already there; choose another name`);
  };
  changes.forEach((change, index) => {
    if (change.operation === 'insert_page' && change.ref !== undefined) {
      claim(change.ref, `changes[${index}]`);
      pageRefs.set(change.ref, newId());
    }
    if (change.operation === 'insert_files') {
      change.files.forEach((file, fileIndex) => {
        const id = newId();
        fileIds.set(file, id);
        if (file.ref === undefined) return;
        claim(file.ref, `changes[${index}].files[${fileIndex}]`);
        fileRefs.set(file.ref, id);
      });
    }
  });
  return { pageRefs, fileRefs, fileIds };
}

/** Applies a batch to a tree, page change by page change; any invalid change rejects the whole batch. */
function applyBatch(
  written: Map<object, string>,
  fetched: Map<FileInput, FetchedFile>,
  base: FlatTree,
  changes: ContentChangeInput[],
  now: string,
  blobs: Map<Hash, string>,
  revertTargets: Map<string, FlatTree>,
  files: FileEntry[],
): { tree: FlatTree; outcome: BatchOutcome } {
  const { pageRefs: refs, fileRefs, fileIds } = batchRefs(base, changes);
  const outcome: BatchOutcome = { pages: new Map(), insertedFiles: [] };
  /**
   * A document of this batch as markdown to store: a JSONDocument is written out, its
   * pages linked by id; either may name the batch's new pages and files by their ref.
   */
  const contentOf = (document: Document, where: string): ReadDocument => {
    const read = typeof document === 'object' && 'document' in document ? { front: {}, body: written.get(document)! } : readDocument(document, where);
    return { ...read, body: resolveBatchRefs(read.body, refs, fileRefs) };
  };
  const resolve = (id: string | null | undefined) => (id ? (refs.get(id) ?? id) : id);
  let tree = base;
  changes.forEach((change, index) => {
    const where = `changes[${index}]`;
    let pageChange: PageChange;
    if (change.operation === 'insert_files') {
      change.files.forEach((file, fileIndex) => {
        const entry = { ...fileEntry(file, `${where}.files[${fileIndex}]`, blobs, fetched), id: fileIds.get(file)! };
        files.push(entry);
        outcome.insertedFiles.push(entry);
      });
      return;
    }
    if (change.operation === 'insert_page') {
      const type = change.type ?? 'document';
      if (type === 'link' && !change.href) throw new BadRequest(`${where}.href: a link page needs the URL it links to`);
      if (type === 'link' && !isSafeLinkUrl(change.href!)) {
        throw new BadRequest(`${where}.href: a link page leads to a relative path or a URL of ${SAFE_LINK_SCHEMES.join(', ')}`);
      }
      if (type !== 'document' && change.document !== undefined) throw new BadRequest(`${where}.document: only document pages have content`);
      if (type === 'document' && change.document === undefined) throw new BadRequest(`${where}.document is required for a document page`);
      const { front, heading, body } = contentOf(change.document ?? '', where);
      const parentId = resolve(change.into) ?? null;
      // As in Git Sync, the document's own front matter and heading win over the fields.
      const title = front.title ?? heading ?? change.title ?? 'Untitled';
      const id = change.ref !== undefined ? refs.get(change.ref)! : newId();
      if (type === 'document') blobs.set(hashOf(body), body);
      pageChange = {
        kind: 'insert',
        id,
        placement: { parentId, index: change.at },
        meta: {
          type,
          ...metaFields(change, `${where}.condition`),
          ...metaFields(front, FRONT_CONDITION(where)),
          ...(type === 'link' ? { href: change.href } : {}),
          title,
          slug: change.slug ?? freeSlug(tree, parentId, title),
          createdAt: now,
          updatedAt: now,
        },
        blob: type === 'document' ? hashOf(body) : null,
      };
    } else if (change.operation === 'update_page') {
      const id = resolve(change.page)!;
      const current = tree.get(id);
      if (!current) throw new BadRequest(`${where}.page: no page "${change.page}" in this change request`);
      if (change.document !== undefined && current.meta.type !== 'document') {
        throw new BadRequest(`${where}.document: only document pages have content, this is a ${current.meta.type}`);
      }
      const document = change.document !== undefined ? contentOf(change.document, where) : undefined;
      if (document) blobs.set(hashOf(document.body), document.body);
      const moves = change.into !== undefined || change.at !== undefined;
      const parentId = change.into !== undefined ? (resolve(change.into) ?? null) : current.parentId;
      const title = document?.front.title ?? document?.heading ?? change.title;
      pageChange = {
        kind: 'update',
        id,
        meta: { ...metaFields(change, `${where}.condition`), ...(document ? metaFields(document.front, FRONT_CONDITION(where)) : {}), ...(title !== undefined ? { title } : {}), updatedAt: now },
        ...(document ? { blob: hashOf(document.body) } : {}),
        ...(moves ? { placement: { parentId, index: change.at } } : {}),
      };
    } else if (change.operation === 'revert_page') {
      pageChange = revertChange(tree, revertTargets.get(change.revision ?? '')!, resolve(change.page)!, where);
    } else {
      const id = resolve(change.page)!;
      if (!tree.has(id)) throw new BadRequest(`${where}.page: no page "${change.page}" in this change request`);
      pageChange = { kind: 'delete', id };
    }
    try {
      tree = applyChanges(tree, [pageChange]);
    } catch (error) {
      if (error instanceof ContentError) throw new BadRequest(`${where}: ${error.message}`);
      throw error;
    }
    record(outcome, pageChange, change.operation === 'insert_page' ? change.ref : undefined);
  });
  return { tree, outcome };
}

/** Notes what a change did to its page: a page made and removed in one batch was never there. */
function record(outcome: BatchOutcome, change: PageChange, ref: string | undefined): void {
  const earlier = outcome.pages.get(change.id);
  if (change.kind === 'insert') outcome.pages.set(change.id, { object: 'created_page', ...(ref !== undefined ? { ref } : {}) });
  else if (change.kind === 'delete') {
    if (earlier?.object === 'created_page') outcome.pages.delete(change.id);
    else outcome.pages.set(change.id, { object: 'deleted_page' });
  } else if (!earlier) outcome.pages.set(change.id, { object: 'updated_page' });
}

/** The trees revert_page changes go back to: a revision of the space, or the change request's base (key ""). */
async function loadRevertTargets(trx: Db, spaceId: string, changeRequest: ChangeRequestWithAuthor, changes: ContentChangeInput[]) {
  const targets = new Map<string, FlatTree>();
  for (const [index, change] of changes.entries()) {
    if (change.operation !== 'revert_page' || targets.has(change.revision ?? '')) continue;
    const revisionId = change.revision ?? baseOf(changeRequest);
    if (change.revision && !(await isRevisionOfSpace(trx, spaceId, change.revision))) {
      throw new BadRequest(`changes[${index}].revision: no revision "${change.revision}" in this space`);
    }
    targets.set(change.revision ?? '', await treeOf(trx, (await requireRevision(trx, revisionId)).root_hash));
  }
  return targets;
}

/** Stores a tree (and new markdown) as a revision following `parents`. */
export async function storeRevision(
  ctx: ServiceContext,
  trx: Db,
  content: { tree: FlatTree; files: FileEntry[]; reusables: ReusableEntry[] },
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
  await databaseObjectStore(trx).put(fresh.objects);
  rememberTree(root, content.tree, superseded);
  const revisionId = newId();
  await insertRevision(trx, {
    id: revisionId,
    parents: JSON.stringify(parents),
    root_hash: root,
    files_hash: filesHash,
    reusables_hash: reusablesHash,
    created_by: actor.user.id,
    created_at: isoNow(ctx.clock),
  });
  await addSpaceRevision(trx, spaceId, revisionId);
  return revisionId;
}

export async function editChangeRequestContent(
  ctx: ServiceContext,
  actor: Actor,
  spaceId: string,
  idOrNumber: string,
  changes: ContentChangeInput[],
  /** More work to commit with the new revision, or not at all. */
  alsoInTransaction?: (trx: Db, revisionId: string) => Promise<void>,
) {
  const written = await writeJsonDocuments(changes);
  const fetched = await fetchFileSources(ctx, changes);
  const { presented, outcome } = await ctx.db.transaction().execute(async (trx) => {
    const { space } = await authorizeSpaceDrafts(trx, actor, spaceId, 'edit');
    const changeRequest = await requireChangeRequest(trx, spaceId, idOrNumber);
    assertEditable(space, changeRequest);
    const revision = await requireRevision(trx, changeRequest.revision_id);
    const baseTree = await treeOf(trx, revision.root_hash);
    const revertTargets = await loadRevertTargets(trx, spaceId, changeRequest, changes);
    const blobs = new Map<Hash, string>();
    const { files, reusables } = await listsOf(trx, revision);
    const { tree, outcome } = applyBatch(written, fetched, baseTree, changes, isoNow(ctx.clock), blobs, revertTargets, files);
    // The change request's previous content is read no more, unless it is still its base (shared with the space).
    const superseded = changeRequest.revision_id === baseOf(changeRequest) ? undefined : revision.root_hash;
    const revisionId = await storeRevision(ctx, trx, { tree, files, reusables }, [baseTree], blobs, [changeRequest.revision_id], actor, spaceId, superseded);
    await updateChangeRequest(trx, changeRequest.id, { revision_id: revisionId, updated_at: isoNow(ctx.clock) });
    await alsoInTransaction?.(trx, revisionId);
    return { presented: await presentChangeRequestOf(ctx, trx, space, changeRequest.id), outcome };
  });
  return { changeRequest: presented, ...presentBatchOutcome(ctx, spaceId, presented.id, outcome) };
}

/** GitBook's ChangeRequestContentUpdate, less the change request: each page touched, with where to read it, and the files inserted. */
function presentBatchOutcome(ctx: ServiceContext, spaceId: string, changeRequestId: string, outcome: BatchOutcome) {
  const location = (pageId: string) => `${ctx.config.publicUrl}/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content/page/${pageId}`;
  return {
    changes: [...outcome.pages].map(([pageId, { object, ref }]) =>
      object === 'deleted_page'
        ? { object, page: pageId }
        : { object, ...(ref !== undefined ? { ref } : {}), page: { object: 'page' as const, id: pageId, urls: { location: location(pageId) } } },
    ),
    insertedFiles: outcome.insertedFiles.map((file) => presentFile(ctx, file)),
  };
}

/** Conflicts with the page each one is about, for the person who resolves them. */
function presentConflicts(conflicts: Array<MergeConflict | ReusableConflict>, trees: FlatTree[], reusables: ReusableEntry[][]) {
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

interface ThreeWay {
  base: string;
  ours: string;
  theirs: string;
}

/** Merges three revisions; answers the merged tree, or the conflicts. Reads only: revisions never change. */
async function mergeRevisions(db: Db, revisions: ThreeWay) {
  const store = databaseObjectStore(db);
  const [base, ours, theirs] = await Promise.all(
    [revisions.base, revisions.ours, revisions.theirs].map(async (id) => {
      const revision = await requireRevision(db, id);
      return { tree: await treeOf(db, revision.root_hash), ...(await listsOf(db, revision)) };
    }),
  );
  const mergeTextElsewhere: TextMerger = (b, o, t) => runSized('mergeText', { base: b, ours: o, theirs: t }, b.length + o.length + t.length);
  const result = await mergeTrees(base.tree, ours.tree, theirs.tree, (hashes) => store.get(hashes), mergeTextElsewhere);
  const reusables = await mergeReusables(base.reusables, ours.reusables, theirs.reusables, (hashes) => getAll(store, hashes), mergeTextElsewhere);
  return {
    ...result,
    blobs: new Map([...result.blobs, ...reusables.blobs]),
    conflicts: [...result.conflicts, ...reusables.conflicts],
    files: mergeFiles(ours.files, theirs.files),
    reusables: reusables.reusables,
    bases: [ours.tree, theirs.tree],
    trees: [ours.tree, theirs.tree, base.tree],
    reusableLists: [ours.reusables, theirs.reusables, base.reusables],
  };
}

type PlannedMerge = { revisions: ThreeWay; merged: Awaited<ReturnType<typeof mergeRevisions>> };

/** What a merge step answers when it needs a three-way merge that is not planned yet. */
class MergeNeeded {
  constructor(readonly revisions: ThreeWay) {}
}

/**
 * Runs a merge or an update in one transaction, with the three-way merge it needs made
 * before it: `step` answers MergeNeeded when it finds a merge to make that is not the
 * planned one; the merge then runs outside any transaction (the text merges on
 * worker threads), and `step` runs again, taking it if the revisions are still those.
 */
async function withPlannedMerge<T>(ctx: ServiceContext, step: (trx: Db, planned: PlannedMerge | undefined) => Promise<T | MergeNeeded>): Promise<T> {
  let planned: PlannedMerge | undefined;
  for (;;) {
    const outcome = await ctx.db.transaction().execute((trx) => step(trx, planned));
    if (!(outcome instanceof MergeNeeded)) return outcome;
    planned = { revisions: outcome.revisions, merged: await mergeRevisions(ctx.db, outcome.revisions) };
  }
}

function isPlanned(planned: PlannedMerge | undefined, revisions: ThreeWay): planned is PlannedMerge {
  return planned !== undefined && planned.revisions.base === revisions.base && planned.revisions.ours === revisions.ours && planned.revisions.theirs === revisions.theirs;
}

/**
 * Stores a planned merge of the change request's content (ours) and the space's
 * (theirs) as a new revision with the given parents, or answers the conflicts and
 * stores nothing.
 */
async function storeMerge(ctx: ServiceContext, trx: Db, actor: Actor, spaceId: string, planned: PlannedMerge, parents: string[]) {
  const result = planned.merged;
  if (result.conflicts.length > 0) return { conflicts: presentConflicts(result.conflicts, result.trees, result.reusableLists) };
  return { revision: await storeRevision(ctx, trx, result, result.bases, result.blobs, parents, actor, spaceId) };
}

/** Publishes a change request into its space: a fast-forward when the space did not move, else a three-way merge. */
export async function mergeChangeRequest(ctx: ServiceContext, actor: Actor, spaceId: string, idOrNumber: string) {
  const outcome = await withPlannedMerge(ctx, async (trx, planned) => {
    await lockRow(trx, 'spaces', spaceId);
    const { space } = await authorizeSpaceDrafts(trx, actor, spaceId, 'merge');
    const changeRequest = await requireChangeRequest(trx, spaceId, idOrNumber);
    assertEditable(space, changeRequest);
    const base = baseOf(changeRequest);
    let merged = changeRequest.revision_id;
    if (space.revision_id !== base) {
      const revisions = { base, ours: changeRequest.revision_id, theirs: space.revision_id };
      if (!isPlanned(planned, revisions)) return new MergeNeeded(revisions);
      const result = await storeMerge(ctx, trx, actor, spaceId, planned, [space.revision_id, changeRequest.revision_id]);
      if ('conflicts' in result) return { revision: space.revision_id, result: 'conflicts' as const, conflicts: result.conflicts };
      merged = result.revision;
    }
    const summary = `Merge change request #${changeRequest.number}${changeRequest.subject ? `: ${changeRequest.subject}` : ''}`;
    const committed = await commitRevision(ctx, trx, actor, { organizationId: space.organization_id, spaceId, from: space.revision_id, to: merged, summary });
    await updateChangeRequest(trx, changeRequest.id, { status: 'merged', revision_merged: merged, updated_at: isoNow(ctx.clock) });
    return { revision: merged, result: 'merge' as const, committed };
  });
  if (outcome.result !== 'merge') return outcome;
  const { committed, ...answer } = outcome;
  await afterCommit(ctx, committed);
  return answer;
}

/**
 * Brings a revision made from `base` outside the editor (a Git Sync import) into the
 * space: a fast-forward when the space is still at `base`, else a three-way merge as
 * change requests merge. Conflicts change nothing. `alsoInTransaction` commits with
 * the outcome.
 */
export async function mergeRevisionIntoSpace<T>(
  ctx: ServiceContext,
  actor: Actor,
  spaceId: string,
  revisions: { base: string; revision: string; summary: string },
  alsoInTransaction: (trx: Db, outcome: { revision: string } | { conflicts: ReturnType<typeof presentConflicts> }) => Promise<T>,
): Promise<T> {
  const answer = await withPlannedMerge(ctx, async (trx, planned) => {
    await lockRow(trx, 'spaces', spaceId);
    const { space } = await authorizeSpaceDrafts(trx, actor, spaceId, 'triggerGitSync');
    let merged = revisions.revision;
    if (space.revision_id !== revisions.base) {
      const threeWay = { base: revisions.base, ours: revisions.revision, theirs: space.revision_id };
      if (!isPlanned(planned, threeWay)) return new MergeNeeded(threeWay);
      const result = await storeMerge(ctx, trx, actor, spaceId, planned, [space.revision_id, revisions.revision]);
      if (result.conflicts) return { value: await alsoInTransaction(trx, { conflicts: result.conflicts }) };
      merged = result.revision!;
    }
    const committed = await commitRevision(ctx, trx, actor, { organizationId: space.organization_id, spaceId, from: space.revision_id, to: merged, summary: revisions.summary });
    return { value: await alsoInTransaction(trx, { revision: merged }), committed };
  });
  await afterCommit(ctx, answer.committed);
  return answer.value;
}

/** Brings the space's current content into a change request. */
export async function updateChangeRequestFromSpace(ctx: ServiceContext, actor: Actor, spaceId: string, idOrNumber: string) {
  return withPlannedMerge(ctx, async (trx, planned) => {
    const { space } = await authorizeSpaceDrafts(trx, actor, spaceId, 'edit');
    const changeRequest = await requireChangeRequest(trx, spaceId, idOrNumber);
    assertEditable(space, changeRequest);
    const base = baseOf(changeRequest);
    if (space.revision_id === base) return { revision: changeRequest.revision_id, result: 'update' as const };
    let updated = space.revision_id;
    if (changeRequest.revision_id !== base) {
      const revisions = { base, ours: changeRequest.revision_id, theirs: space.revision_id };
      if (!isPlanned(planned, revisions)) return new MergeNeeded(revisions);
      const result = await storeMerge(ctx, trx, actor, spaceId, planned, [changeRequest.revision_id, space.revision_id]);
      if ('conflicts' in result) return { revision: changeRequest.revision_id, result: 'conflicts' as const, conflicts: result.conflicts };
      updated = result.revision;
    }
    await updateChangeRequest(trx, changeRequest.id, {
      revision_id: updated,
      revision_merged_ancestor: space.revision_id,
      updated_at: isoNow(ctx.clock),
    });
    return { revision: updated, result: 'update' as const };
  });
}
