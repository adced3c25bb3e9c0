// A batch of edits to a change request's content (GitBook's insert_page, update_page,
// delete_page, revert_page and insert_files, and Quire's insert_reusable_content,
// update_reusable_content and delete_reusable_content) applied to a page tree, in memory: the pages' metadata and
// markdown, the batch's refs resolved to ids, the files described, the reusable contents
// written. Nothing here reads or writes a store; the service stores what it answers.
import { applyChanges, type PageChange } from './changes.ts';
import type { FileEntry } from './files.ts';
import { isSafeLinkUrl, SAFE_LINK_SCHEMES } from './gitbook/safety.ts';
import type { JSONDocument } from './gitbook/model.ts';
import { ContentError, hashOf, type Hash } from './objects.ts';
import { FRONT_CONDITION, InvalidChange, metaFields, readDocument, readIncludeDocument, type PageFields, type ReadDocument } from './pageFields.ts';
import type { ReusableEntry } from './reusables.ts';
import { childrenByParent, findPageByPath, type FlatTree } from './tree.ts';
import { newId } from '../lib/ids.ts';
import { slugify, uniquePath } from '../lib/slugs.ts';
import { decodeBase64, imageFacts } from '../lib/uploads.ts';

export { InvalidChange };

/** A page's content as sent: markdown (a string or {markdown}) or GitBook's JSONDocument ({document}). */
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
  | (PageFields & { operation: 'update_page'; page: string; document?: Document; into?: string | null; at?: number; href?: string })
  | { operation: 'delete_page'; page: string }
  | { operation: 'revert_page'; page: string; revision?: string }
  | { operation: 'insert_files'; files: FileInput[] }
  /** Quire's: GitBook 0.202 writes reusable contents only from its own app. */
  | { operation: 'insert_reusable_content'; title: string; document: Document }
  | { operation: 'update_reusable_content'; reusableContent: string; title?: string; document?: Document }
  | { operation: 'delete_reusable_content'; reusableContent: string };

/** A file to insert: its bytes inline (base64), or a URL Quire fetches them from. */
export interface FileInput {
  name: string;
  contentType?: string;
  base64?: string;
  url?: string;
  ref?: string;
}

/** What a batch did, page by page in the order each was first touched, the files it inserted, and the reusable contents it wrote. */
export interface BatchOutcome {
  pages: Map<string, { object: 'created_page' | 'updated_page' | 'deleted_page'; ref?: string }>;
  insertedFiles: FileEntry[];
  reusableContents: Map<string, { object: 'created_reusable_content' | 'updated_reusable_content' | 'deleted_reusable_content' }>;
}

/** Largest file accepted in one insert_files change, decoded. */
export const MAX_FILE_BYTES = 1024 * 1024;

/** A file's bytes fetched from its URL, before the batch applies. */
export interface FetchedFile {
  base64: string;
  bytes: Buffer;
  contentType?: string;
}

function freeSlug(tree: FlatTree, parentId: string | null, title: string, exceptId?: string): string {
  const taken = [...tree.values()].filter((page) => page.parentId === parentId && page.id !== exceptId).map((page) => page.meta.slug);
  return uniquePath(slugify(title, 'page'), taken);
}

/** Checks and describes an uploaded file; its bytes are stored as a base64 blob. */
function fileEntry(file: FileInput, where: string, blobs: Map<Hash, string>, fetched: Map<FileInput, FetchedFile>): FileEntry {
  const source = fetched.get(file);
  const { base64, bytes } = source ?? decodeBase64(file.base64!, `${where}.base64`);
  if (bytes.length > MAX_FILE_BYTES) throw new InvalidChange(`${where}: files are limited to 1 MB each`);
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
  if (!current && !then) throw new InvalidChange(`${where}.page: no page "${pageId}" here or in that revision`);
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
    if (pageRefs.has(ref) || fileRefs.has(ref)) throw new InvalidChange(`${where}.ref: "${ref}" is used twice in this batch`);
    if (findPageByPath(children, ref.replace(/\.md$/i, ''))) throw new InvalidChange(`${where}.ref: "${ref}" is the path of a page already there; choose another name`);
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

/**
 * Applies a batch to a tree, page change by page change; any invalid change rejects the
 * whole batch (InvalidChange, saying which). New markdown and file bytes go into
 * `blobs`, inserted files onto `files`, reusable contents into `reusables`.
 */
export function applyBatch(
  written: Map<object, string>,
  fetched: Map<FileInput, FetchedFile>,
  base: FlatTree,
  changes: ContentChangeInput[],
  now: string,
  blobs: Map<Hash, string>,
  revertTargets: Map<string, FlatTree>,
  files: FileEntry[],
  reusables: ReusableEntry[],
): { tree: FlatTree; outcome: BatchOutcome } {
  const { pageRefs: refs, fileRefs, fileIds } = batchRefs(base, changes);
  const outcome: BatchOutcome = { pages: new Map(), insertedFiles: [], reusableContents: new Map() };
  /**
   * A document of this batch as markdown to store: a JSONDocument is written out, its
   * pages linked by id; either may name the batch's new pages and files by their ref.
   */
  const contentOf = (document: Document, where: string): ReadDocument => {
    const read = typeof document === 'object' && 'document' in document ? { front: {}, body: written.get(document)! } : readDocument(document, where);
    return { ...read, body: resolveBatchRefs(read.body, refs, fileRefs) };
  };
  /** A reusable content's markdown to store, as contentOf's, and the title its front matter names; a leading heading stays its content. */
  const includeOf = (document: Document, where: string): { title?: string; body: string } => {
    const read = typeof document === 'object' && 'document' in document ? { body: written.get(document)! } : readIncludeDocument(document, where);
    const body = resolveBatchRefs(read.body, refs, fileRefs);
    blobs.set(hashOf(body), body);
    return { ...read, body };
  };
  const checkTitle = (title: string | undefined, where: string) => {
    if (title !== undefined && !title.trim()) throw new InvalidChange(`${where}.title: a reusable content's title may not be empty`);
  };
  const resolve = (id: string | null | undefined) => (id ? (refs.get(id) ?? id) : id);
  /** Where a link page leads, and only a link page. */
  const checkHref = (href: string, type: string, where: string) => {
    if (type !== 'link') throw new InvalidChange(`${where}.href: only link pages lead elsewhere, this is a ${type}`);
    if (!isSafeLinkUrl(href)) throw new InvalidChange(`${where}.href: a link page leads to a relative path or a URL of ${SAFE_LINK_SCHEMES.join(', ')}`);
  };
  /** A cover and a layout are a document page's; a cover's file is one of the change request's (a batch ref names a file of the batch). */
  const checkLooks = (change: PageFields, type: string, where: string) => {
    if ((change.cover || change.layout) && type !== 'document') throw new InvalidChange(`${where}: only document pages have a cover and a layout, this is a ${type}`);
    for (const side of ['ref', 'refDark'] as const) {
      const ref = change.cover?.[side];
      if (ref?.kind !== 'file') continue;
      ref.file = fileRefs.get(ref.file) ?? ref.file;
      if (!files.some((file) => file.id === ref.file)) throw new InvalidChange(`${where}.cover.${side}.file: no file "${ref.file}" in this change request; insert it with insert_files first`);
    }
  };
  let tree = base;
  changes.forEach((change, index) => {
    const where = `changes[${index}]`;
    let pageChange: PageChange;
    if (change.operation === 'insert_reusable_content') {
      const { title, body } = includeOf(change.document, where);
      checkTitle(title ?? change.title, where);
      const id = newId();
      reusables.push({ id, title: title ?? change.title, blob: hashOf(body) });
      outcome.reusableContents.set(id, { object: 'created_reusable_content' });
      return;
    }
    if (change.operation === 'update_reusable_content' || change.operation === 'delete_reusable_content') {
      const at = reusables.findIndex((entry) => entry.id === change.reusableContent);
      if (at < 0) throw new InvalidChange(`${where}.reusableContent: no reusable content "${change.reusableContent}" in this change request`);
      if (change.operation === 'delete_reusable_content') {
        reusables.splice(at, 1);
        // One made in this batch and deleted in it was never there.
        if (outcome.reusableContents.get(change.reusableContent)?.object === 'created_reusable_content') outcome.reusableContents.delete(change.reusableContent);
        else outcome.reusableContents.set(change.reusableContent, { object: 'deleted_reusable_content' });
        return;
      }
      const content = change.document !== undefined ? includeOf(change.document, where) : undefined;
      const title = content?.title ?? change.title;
      checkTitle(title, where);
      reusables[at] = { ...reusables[at]!, ...(title !== undefined ? { title } : {}), ...(content ? { blob: hashOf(content.body) } : {}) };
      if (!outcome.reusableContents.has(change.reusableContent)) outcome.reusableContents.set(change.reusableContent, { object: 'updated_reusable_content' });
      return;
    }
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
      if (type === 'link' && !change.href) throw new InvalidChange(`${where}.href: a link page needs the URL it links to`);
      if (type === 'link') checkHref(change.href!, type, where);
      if (type !== 'document' && change.document !== undefined) throw new InvalidChange(`${where}.document: only document pages have content`);
      checkLooks(change, type, where);
      if (type === 'document' && change.document === undefined) throw new InvalidChange(`${where}.document is required for a document page`);
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
      if (!current) throw new InvalidChange(`${where}.page: no page "${change.page}" in this change request`);
      if (change.document !== undefined && current.meta.type !== 'document') {
        throw new InvalidChange(`${where}.document: only document pages have content, this is a ${current.meta.type}`);
      }
      checkLooks(change, current.meta.type, where);
      if (change.href !== undefined) checkHref(change.href, current.meta.type, where);
      const document = change.document !== undefined ? contentOf(change.document, where) : undefined;
      if (document) blobs.set(hashOf(document.body), document.body);
      const moves = change.into !== undefined || change.at !== undefined;
      const parentId = change.into !== undefined ? (resolve(change.into) ?? null) : current.parentId;
      const title = document?.front.title ?? document?.heading ?? change.title;
      pageChange = {
        kind: 'update',
        id,
        meta: {
          ...metaFields(change, `${where}.condition`),
          ...(document ? metaFields(document.front, FRONT_CONDITION(where)) : {}),
          ...(title !== undefined ? { title } : {}),
          ...(change.href !== undefined ? { href: change.href } : {}),
          updatedAt: now,
        },
        ...(document ? { blob: hashOf(document.body) } : {}),
        ...(moves ? { placement: { parentId, index: change.at } } : {}),
      };
    } else if (change.operation === 'revert_page') {
      pageChange = revertChange(tree, revertTargets.get(change.revision ?? '')!, resolve(change.page)!, where);
    } else {
      const id = resolve(change.page)!;
      if (!tree.has(id)) throw new InvalidChange(`${where}.page: no page "${change.page}" in this change request`);
      pageChange = { kind: 'delete', id };
    }
    try {
      tree = applyChanges(tree, [pageChange]);
    } catch (error) {
      if (error instanceof ContentError) throw new InvalidChange(`${where}: ${error.message}`);
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
