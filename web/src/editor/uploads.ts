// Files the writer adds to a page (dropped, pasted or picked) go into the change request
// with the content API's `insert_files`, one request per file so that each has its own
// progress; only then does the page get the block that references the file. What Quire
// would refuse (too large) or could not show (an image of another kind) is refused here
// first, in words. A place holder (a widget decoration, mapped through every edit) marks
// where the block will go, so that typing on while a file uploads moves it along; a
// failed upload removes it and the document is as it was.
import type { Editor } from '@tiptap/core';
import type { Node as ProseMirrorNode, ResolvedPos, Schema } from '@tiptap/pm/model';
import { Plugin, PluginKey, type EditorState, type Transaction } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import { useQuery } from '@tanstack/react-query';
import { api, ApiError } from '../api/client.ts';
import { queryClient } from '../api/queryClient.ts';
import { contentKeys } from '../features/pages/queries/content.ts';
import { contextOf, type EditorContext } from './part.ts';

/** A file of the change request, as the content API presents it (GitBook's RevisionFile). */
export interface ChangeRequestFile {
  id: string;
  name: string;
  contentType: string;
  size: number;
  downloadURL: string;
  dimensions?: { width: number; height: number };
}

/** The server's limit on one file (MAX_FILE_BYTES in src/content/batch.ts), decoded. */
export const MAX_UPLOAD_BYTES = 1024 * 1024;

/** Images a page shows: the kinds every browser draws. An SVG is served sandboxed, so its scripts never run. */
const IMAGE_TYPES: Record<string, string> = {
  'image/png': 'PNG',
  'image/jpeg': 'JPEG',
  'image/gif': 'GIF',
  'image/webp': 'WebP',
  'image/svg+xml': 'SVG',
};
export const IMAGE_ACCEPT = Object.keys(IMAGE_TYPES).join(',');
const IMAGE_KINDS = 'PNG, JPEG, GIF, WebP or SVG';

/** What the writer asked for: an image (the Image item, a dark-mode variant), a file to download (the File item), or either (dropped, pasted), shown as an image when it is one. */
export type UploadWish = 'image' | 'file' | 'any';

/** 1.4 MB, 820 KB, 12 bytes. */
export function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} byte${bytes === 1 ? '' : 's'}`;
}

const isImageType = (type: string) => type in IMAGE_TYPES;

/** Why a file cannot be added, in words with what to do; undefined when it can. */
export function refusalOf(file: File, wish: UploadWish): string | undefined {
  if (file.size === 0) return `“${file.name}” is empty. Choose a file that has something in it.`;
  if (file.size > MAX_UPLOAD_BYTES) {
    return `“${file.name}” is ${sizeText(file.size)}; Quire takes files of up to ${sizeText(MAX_UPLOAD_BYTES)}. Make it smaller (compress or resize it) and add it again.`;
  }
  if (wish === 'image' && !isImageType(file.type)) {
    return `“${file.name}” is not an image a page can show. Choose a ${IMAGE_KINDS} file${file.type.startsWith('image/') ? ', or convert this one' : ''}.`;
  }
  return undefined;
}

// The first bytes of each image kind, so that a file named .png that is not one is added as a file, not a broken image.
const SIGNATURES: Array<[string, number[]]> = [
  ['image/png', [0x89, 0x50, 0x4e, 0x47]],
  ['image/jpeg', [0xff, 0xd8, 0xff]],
  ['image/gif', [0x47, 0x49, 0x46, 0x38]],
];

function looksLike(type: string, bytes: Uint8Array): boolean {
  if (type === 'image/svg+xml') return /<svg[\s>]/i.test(new TextDecoder().decode(bytes.subarray(0, 4096)));
  if (type === 'image/webp') return String.fromCharCode(...bytes.subarray(0, 4)) === 'RIFF' && String.fromCharCode(...bytes.subarray(8, 12)) === 'WEBP';
  const signature = SIGNATURES.find(([kind]) => kind === type)?.[1];
  return signature !== undefined && signature.every((byte, index) => bytes[index] === byte);
}

function base64Of(bytes: Uint8Array): string {
  let binary = '';
  // In slices: String.fromCharCode takes a bounded number of arguments.
  for (let start = 0; start < bytes.length; start += 0x8000) binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  return btoa(binary);
}

function answerMessage(status: number, text: string): string {
  let message: unknown;
  try {
    message = (JSON.parse(text) as { error?: { message?: unknown } }).error?.message;
  } catch {
    message = undefined;
  }
  if (typeof message === 'string' && message) return `Quire refused it: ${message}`;
  if (status === 401) return 'You are signed out. Sign in again, then add the file again.';
  if (status === 403) return 'You may not add files to this change request. Ask an administrator of the space.';
  if (status === 413) return `It is too large for Quire; files can be at most ${sizeText(MAX_UPLOAD_BYTES)}.`;
  return `Quire could not store it (error ${status}). Try again in a moment.`;
}

/**
 * Sends one file into the change request (`insert_files`, base64), reporting the share
 * sent (0–1) as it goes; answers the file as the change request now holds it. Throws an
 * Error whose message says, for people, why it failed.
 */
export async function uploadFile(context: EditorContext, file: File, onProgress: (share: number) => void): Promise<ChangeRequestFile> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const contentType = file.type || 'application/octet-stream';
  const body = JSON.stringify({ changes: [{ operation: 'insert_files', files: [{ name: file.name, contentType, base64: base64Of(bytes) }] }] });
  // XMLHttpRequest rather than fetch: only it reports how much of the body has been sent.
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    // compat=false: the answer lists the inserted files (GitBook's own answers only the change request).
    request.open('POST', `${context.contentUrl}?compat=false`);
    request.setRequestHeader('accept', 'application/json');
    request.setRequestHeader('content-type', 'application/json');
    request.setRequestHeader('x-csrf-token', context.csrfToken);
    request.withCredentials = true;
    request.upload.onprogress = (event) => event.lengthComputable && onProgress(event.loaded / event.total);
    request.onerror = () => reject(new Error('Quire could not be reached. Check your connection, then add the file again.'));
    request.onload = () => {
      if (request.status < 200 || request.status >= 300) return reject(new Error(answerMessage(request.status, request.responseText)));
      const inserted = (JSON.parse(request.responseText) as { insertedFiles?: ChangeRequestFile[] }).insertedFiles?.[0];
      if (!inserted) return reject(new Error('Quire answered without the file. Try again.'));
      knownFiles.set(inserted.id, inserted);
      onProgress(1);
      resolve(inserted);
    };
    request.send(body);
  });
}

/** Files uploaded in this tab, by id: a new block shows its file without asking the API again. */
export const knownFiles = new Map<string, ChangeRequestFile>();

/** The URL of a change request file's description (its signed download link among it). */
export const fileUrl = (context: EditorContext, fileId: string) => `${context.contentUrl}/files/${encodeURIComponent(fileId)}`;

/** GitBook's image data, in the order GitBook's markdown gives its fields back (ref, refDark, alt, width), so a saved image reads back the same. */
export function imageData(data: Record<string, unknown>): Record<string, unknown> {
  const ordered: Record<string, unknown> = {};
  for (const key of ['ref', 'refDark', 'alt', 'width', 'height']) if (data[key] !== undefined) ordered[key] = data[key];
  for (const key of Object.keys(data)) if (!(key in ordered) && data[key] !== undefined) ordered[key] = data[key];
  return ordered;
}

/** An empty caption fragment, as GitBook's editor gives each image one. */
export const emptyCaption = (schema: Schema): ProseMirrorNode => schema.nodes.fragment.create({ fragment: 'caption' }, schema.nodes.paragraph.create());

/** The depth of the block whose caption holds `$pos` (for an image's, its images block), or undefined outside captions. */
export function captionOwnerDepth($pos: ResolvedPos): number | undefined {
  for (let depth = $pos.depth; depth >= 1; depth--) {
    const node = $pos.node(depth);
    if (node.type.name !== 'fragment' || node.attrs.fragment !== 'caption') continue;
    const owner = depth - 1;
    return $pos.node(owner).type.name === 'image' && owner > 0 && $pos.node(owner - 1).type.name === 'images' ? owner - 1 : owner;
  }
  return undefined;
}

/** The block that shows an uploaded file: an images block of one image for an image, else a file block. */
export function blockFor(schema: Schema, file: ChangeRequestFile, shownAsImage: boolean): ProseMirrorNode {
  const ref = { kind: 'file', file: file.id };
  if (shownAsImage) {
    const image = schema.nodes.image.create({ data: imageData({ ref }), isVoid: true }, emptyCaption(schema));
    return schema.nodes.images.create({ data: {}, isVoid: false }, image);
  }
  return schema.nodes.file.create({ data: { ref }, isVoid: true });
}

// ——— Where a file will go while it uploads ———

interface UploadMeta {
  add?: { id: string; pos: number; name: string };
  remove?: string;
}

export const uploadPlaces = new PluginKey<DecorationSet>('quireUploadPlaces');

/** The plugin keeping the place holders of files being uploaded, moved along by every edit. */
export function uploadPlacesPlugin(): Plugin {
  return new Plugin<DecorationSet>({
    key: uploadPlaces,
    state: {
      init: () => DecorationSet.empty,
      apply(tr, set) {
        let next = set.map(tr.mapping, tr.doc);
        const meta = tr.getMeta(uploadPlaces) as UploadMeta | undefined;
        if (meta?.add) {
          const marker = document.createElement('span');
          marker.className = 'quire-upload-place';
          marker.textContent = `Uploading ${meta.add.name}…`;
          marker.setAttribute('aria-hidden', 'true');
          next = next.add(tr.doc, [Decoration.widget(meta.add.pos, marker, { id: meta.add.id, side: -1 })]);
        }
        if (meta?.remove) next = next.remove(next.find(undefined, undefined, (spec) => spec.id === meta.remove));
        return next;
      },
    },
    props: { decorations: (state) => uploadPlaces.getState(state) },
  });
}

function placeOf(state: EditorState, id: string): number | undefined {
  return uploadPlaces.getState(state)?.find(undefined, undefined, (spec) => spec.id === id)[0]?.from;
}

/**
 * Puts a block where a file was dropped or the cursor was: in place of an empty
 * paragraph, after the block holding `pos` otherwise; never inside a caption, but after
 * the block the caption is of.
 */
function insertBlock(tr: Transaction, pos: number, block: ProseMirrorNode): void {
  let $pos = tr.doc.resolve(pos);
  const owner = captionOwnerDepth($pos);
  if (owner !== undefined) $pos = tr.doc.resolve($pos.after(owner));
  const parent = $pos.parent;
  if (parent.isTextblock && parent.content.size === 0 && $pos.depth > 0) tr.replaceRangeWith($pos.before(), $pos.after(), block);
  else if (parent.isTextblock && $pos.depth > 0) tr.replaceRangeWith($pos.after(), $pos.after(), block);
  else tr.replaceRangeWith($pos.pos, $pos.pos, block);
}

// ——— What is uploading, for the progress list ———

export type UploadEntry =
  | { id: string; name: string; state: 'uploading'; share: number }
  | { id: string; name: string; state: 'failed'; message: string };

/** The uploads of one editor: what the progress list shows, and the refusals it explains. */
export class UploadList {
  private entries: UploadEntry[] = [];
  private listeners = new Set<() => void>();

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  snapshot = () => this.entries;

  private set(entries: UploadEntry[]) {
    this.entries = entries;
    for (const listener of this.listeners) listener();
  }

  put(entry: UploadEntry) {
    this.set(this.entries.some((each) => each.id === entry.id) ? this.entries.map((each) => (each.id === entry.id ? entry : each)) : [...this.entries, entry]);
  }

  dismiss(id: string) {
    this.set(this.entries.filter((each) => each.id !== id));
  }
}

const lists = new WeakMap<Editor, UploadList>();

export function uploadListOf(editor: Editor): UploadList {
  let list = lists.get(editor);
  if (!list) lists.set(editor, (list = new UploadList()));
  return list;
}

let nextUpload = 0;

/**
 * Checks a file and sends it, its progress in the editor's upload list; answers it and
 * whether a page can show it as an image, or undefined when it was refused or failed
 * (the list then says why).
 */
async function send(editor: Editor, file: File, wish: UploadWish, id: string): Promise<{ file: ChangeRequestFile; shownAsImage: boolean } | undefined> {
  const list = uploadListOf(editor);
  const failed = (message: string) => {
    list.put({ id, name: file.name, state: 'failed', message });
    return undefined;
  };
  const refusal = refusalOf(file, wish);
  if (refusal) return failed(refusal);
  list.put({ id, name: file.name, state: 'uploading', share: 0 });
  try {
    const head = new Uint8Array(await file.slice(0, 4096).arrayBuffer());
    const shownAsImage = wish !== 'file' && isImageType(file.type) && looksLike(file.type, head);
    if (wish === 'image' && !shownAsImage) return failed(`“${file.name}” is named as an image but is not one. Choose a ${IMAGE_KINDS} file.`);
    const context = contextOf(editor);
    const uploaded = await uploadFile(context, file, (share) => list.put({ id, name: file.name, state: 'uploading', share }));
    list.dismiss(id);
    // What the change request holds is read again: a reference to the new file is not broken, and names it.
    void queryClient.invalidateQueries({ queryKey: contentKeys.content(context.spaceId, { kind: 'changeRequest', changeRequestId: context.changeRequestId }) });
    return { file: uploaded, shownAsImage };
  } catch (error) {
    return failed(`“${file.name}” was not added. ${(error as Error).message}`);
  }
}

/**
 * Uploads each file and, once it is in the change request, puts its block at `pos` (as
 * mapped by what was typed meanwhile). Refused and failed files are listed with why,
 * and leave the document as it was.
 */
export function addFiles(editor: Editor, files: File[], pos: number, wish: UploadWish): void {
  for (const file of files) {
    const id = `upload-${++nextUpload}`;
    editor.view.dispatch(editor.state.tr.setMeta(uploadPlaces, { add: { id, pos, name: file.name } } satisfies UploadMeta));
    void send(editor, file, wish, id).then((sent) => {
      if (editor.isDestroyed) return;
      const place = placeOf(editor.state, id);
      const tr = editor.state.tr.setMeta(uploadPlaces, { remove: id } satisfies UploadMeta);
      if (sent && place !== undefined) insertBlock(tr, place, blockFor(editor.schema, sent.file, sent.shownAsImage));
      editor.view.dispatch(tr);
    });
  }
}

/** Uploads one file for a block's field (an image replaced, a dark-mode variant, a file block's file), its progress and any refusal in the same list. */
export async function uploadForField(editor: Editor, file: File, wish: UploadWish): Promise<ChangeRequestFile | undefined> {
  return (await send(editor, file, wish, `upload-${++nextUpload}`))?.file;
}

/**
 * Opens the browser's file picker; calls back with what was chosen. The input is
 * created on the spot (the click comes from the writer's own key or click).
 */
export function pickFiles(accept: string, multiple: boolean, chosen: (files: File[]) => void): void {
  const input = document.createElement('input');
  input.type = 'file';
  input.accept = accept;
  input.multiple = multiple;
  input.addEventListener('change', () => chosen([...(input.files ?? [])]));
  input.click();
}

/** Where a reference of GitBook's (`{kind: 'file'}` or `{kind: 'url'}`) can be shown from, with what the change request says of its file. */
export interface FileSource {
  /** An address the browser may load: a signed download link, or an http(s) URL. */
  url?: string;
  file?: ChangeRequestFile;
  loading: boolean;
  /** Why it cannot be shown, in words. */
  problem?: string;
}

/** The change request's file a reference names (its signed link lasts an hour, so it is asked again after half of it), or the URL it gives. */
export function useFileSource(context: EditorContext, ref: unknown): FileSource {
  const candidate = (ref ?? {}) as { kind?: unknown; file?: unknown; url?: unknown; space?: unknown };
  const fileId = candidate.kind === 'file' && typeof candidate.file === 'string' && (candidate.space === undefined || candidate.space === context.spaceId) ? candidate.file : undefined;
  const known = fileId ? knownFiles.get(fileId) : undefined;
  const answer = useQuery({
    queryKey: ['editor-file', context.contentUrl, fileId],
    queryFn: () => api.get<ChangeRequestFile>(fileUrl(context, fileId!)),
    enabled: fileId !== undefined,
    initialData: known,
    staleTime: 30 * 60 * 1000,
    retry: false,
  });
  if (candidate.kind === 'url' && typeof candidate.url === 'string') {
    return /^https?:\/\//i.test(candidate.url) ? { url: candidate.url, loading: false } : { loading: false, problem: 'This address is not a web address (http or https), so it is not shown.' };
  }
  if (candidate.kind === 'file' && !fileId) return { loading: false, problem: 'This file is in another space, so it is not shown here.' };
  if (!fileId) return { loading: false, problem: 'No file is chosen yet.' };
  if (answer.error) return { loading: false, problem: answer.error instanceof ApiError && answer.error.status === 404 ? 'This file is not in the change request any more.' : answer.error.message };
  return { url: answer.data?.downloadURL, file: answer.data, loading: answer.isPending };
}
