// Paste: markdown (GitBook's `{% … %}` blocks included) and HTML from Google Docs, Notion,
// Word and web pages become GitBook's blocks, converted and sanitized by
// src/content/paste.ts, as one undo step. A copy inside the editor carries its
// slice as JSON so that it pastes back whole (the schema reads no HTML); files are the
// upload part's, and so are the `data:` pictures pasted HTML holds (a screenshot in a
// Google Doc, a picture in Word), uploaded into the change request where they stood. The
// conversion (remark, rehype) is a chunk of its own, fetched when the editor opens rather
// than with it.
import type { Editor } from '@tiptap/core';
import { DOMSerializer, Fragment, Slice, type Schema } from '@tiptap/pm/model';
import { closeHistory } from '@tiptap/pm/history';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import type { EditorView } from '@tiptap/pm/view';
import type { JSONDocument } from '../../../../src/content/gitbook/model.ts';
import { documentToProseMirror } from '../../../../src/content/editor/toProseMirror.ts';
import type { EditorPart } from '../part.ts';
import { imageData, uploadForField } from '../uploads.ts';

type Conversion = typeof import('../../../../src/content/paste.ts');

let loading: Promise<Conversion> | undefined;
let loaded: Conversion | undefined;
const loadConversion = () => (loading ??= import('../../../../src/content/paste.ts').then((module) => (loaded = module)));

/** What a paste event's clipboard held, read while the event lasts. */
interface Clipboard {
  html: string;
  text: string;
  /** VS Code and other code editors add HTML that only colours the text: their plain text is the source. */
  fromCodeEditor: boolean;
}

/** The attribute on a copy's first element that holds the copied slice, as ProseMirror's JSON. */
const SLICE_ATTRIBUTE = 'data-quire-slice';

/** Inserts a slice at the selection as one undo step of its own, and shows where it went. */
function insertSlice(view: EditorView, slice: Slice): void {
  const tr = closeHistory(view.state.tr).replaceSelection(slice).scrollIntoView().setMeta('paste', true).setMeta('uiEvent', 'paste');
  view.dispatch(tr);
  // What is typed next is a step of its own too.
  view.dispatch(closeHistory(view.state.tr));
}

/** GitBook's blocks as a slice: one paragraph joins the words around the cursor, more blocks stand as blocks. */
function sliceOfBlocks(schema: Schema, blocks: JSONDocument['nodes']): Slice {
  const json = documentToProseMirror({ object: 'document', data: {}, nodes: blocks } as JSONDocument);
  const fragment = Fragment.fromJSON(schema, json.content ?? []);
  const single = fragment.childCount === 1 && fragment.firstChild!.type.name === 'paragraph';
  return single ? new Slice(fragment, 1, 1) : new Slice(fragment, 0, 0);
}

/** Lines pasted into code: a code line each, as GitBook's code block holds them. */
function sliceOfCodeLines(schema: Schema, text: string): Slice {
  const { codeLine } = schema.nodes;
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  return new Slice(Fragment.from(lines.map((line) => codeLine.create(null, line ? schema.text(line) : null))), 1, 1);
}

/** The slice a copy in this editor wrote, if the HTML holds one, with anything that points at a script URL left out. */
function ownSlice(schema: Schema, html: string, conversion: Conversion): Slice | undefined {
  if (!html.includes(SLICE_ATTRIBUTE)) return undefined;
  const element = new DOMParser().parseFromString(html, 'text/html').querySelector(`[${SLICE_ATTRIBUTE}]`);
  try {
    const json = JSON.parse(element?.getAttribute(SLICE_ATTRIBUTE) ?? '');
    // Any page can write the attribute: what it holds is checked as any pasted block is.
    if (conversion.carriesScriptUrl(json)) return undefined;
    return Slice.fromJSON(schema, json);
  } catch {
    return undefined;
  }
}

/** Where a pasted picture's block points until its file is uploaded: an address no browser loads (`.invalid` is reserved). */
const PASTED_PICTURE = 'https://quire.invalid/pasted-picture/';
let pastedPictures = 0;

/** A `data:` picture as a file, or undefined for one that is not a picture or not well formed. */
function fileOfDataUrl(url: string): File | undefined {
  const parts = /^data:(image\/[\w.+-]+)(;base64)?,(.*)$/s.exec(url);
  if (!parts) return undefined;
  try {
    const bytes = parts[2] ? Uint8Array.from(atob(parts[3]), (character) => character.charCodeAt(0)) : new TextEncoder().encode(decodeURIComponent(parts[3]));
    const extension = parts[1].slice('image/'.length).replace('svg+xml', 'svg').replace('jpeg', 'jpg');
    return new File([bytes], `pasted-picture-${pastedPictures + 1}.${extension}`, { type: parts[1] });
  } catch {
    return undefined;
  }
}

/** The HTML with its `data:` pictures taken out as files, each <img> pointed at the address its block is found by once the file is in. */
function picturesAside(html: string): { html: string; pictures: Map<string, File> } {
  const pictures = new Map<string, File>();
  if (!html.includes('data:image/')) return { html, pictures };
  const parsed = new DOMParser().parseFromString(html, 'text/html');
  for (const image of parsed.querySelectorAll('img[src^="data:"]')) {
    const file = fileOfDataUrl(image.getAttribute('src') ?? '');
    if (!file) continue;
    const address = `${PASTED_PICTURE}${++pastedPictures}`;
    pictures.set(address, file);
    image.setAttribute('src', address);
  }
  return { html: parsed.body.innerHTML, pictures };
}

/** Uploads the pasted pictures; each block points at its file once it is in, or goes, with the reason in the uploads' list, if it is refused. */
function uploadPictures(editor: Editor, pictures: Map<string, File>): void {
  for (const [address, file] of pictures) {
    void uploadForField(editor, file, 'image').then((uploaded) => {
      if (editor.isDestroyed) return;
      const tr = editor.state.tr.setMeta('addToHistory', false);
      editor.state.doc.descendants((node, pos) => {
        if (node.type.name !== 'image' || (node.attrs.data?.ref as { url?: string } | undefined)?.url !== address) return true;
        const at = tr.mapping.map(pos);
        if (uploaded) tr.setNodeAttribute(at, 'data', imageData({ ...node.attrs.data, ref: { kind: 'file', file: uploaded.id } }));
        else {
          const $at = tr.doc.resolve(at);
          const alone = $at.parent.type.name === 'images' && $at.parent.childCount === 1;
          tr.delete(alone ? $at.before() : at, alone ? $at.after() : at + node.nodeSize);
        }
        return false;
      });
      if (tr.docChanged) editor.view.dispatch(tr);
    });
  }
}

/** Pastes what the clipboard holds as blocks; false where the editor's own paste should take it (plain words, nothing). */
function pasteInto(editor: Editor, view: EditorView, clipboard: Clipboard, conversion: Conversion): boolean {
  const { schema, selection } = view.state;
  if (selection.$from.parent.type.spec.code) {
    if (!clipboard.text) return false;
    insertSlice(view, sliceOfCodeLines(schema, clipboard.text));
    return true;
  }
  const own = ownSlice(schema, clipboard.html, conversion);
  if (own) {
    insertSlice(view, own);
    return true;
  }
  const { html, pictures } = picturesAside(clipboard.fromCodeEditor ? '' : clipboard.html);
  const blocks =
    html ? conversion.htmlToBlocks(html)
    : clipboard.text && conversion.looksLikeMarkdown(clipboard.text) ? conversion.markdownToBlocks(clipboard.text)
    : undefined;
  // HTML with no words (an image alone from a page, whose file the upload part takes): the editor's own paste.
  if (!blocks || blocks.length === 0) return false;
  insertSlice(view, sliceOfBlocks(schema, blocks));
  uploadPictures(editor, pictures);
  return true;
}

function handlePaste(editor: Editor, view: EditorView, event: ClipboardEvent): boolean {
  const data = event.clipboardData;
  if (!data) return false;
  const clipboard: Clipboard = { html: data.getData('text/html'), text: data.getData('text/plain'), fromCodeEditor: data.types.includes('vscode-editor-data') };
  // Files without words (an image copied from a page brings an <img> as HTML too) are the upload part's.
  if (!clipboard.text.trim() && (data.files.length > 0 || !clipboard.html)) return false;
  if (loaded) return pasteInto(editor, view, clipboard, loaded);
  // The conversion is still on its way (a paste right as the editor opened): the clipboard is read now, pasted when it comes.
  event.preventDefault();
  void loadConversion().then((conversion) => {
    if (!pasteInto(editor, view, clipboard, conversion)) view.pasteText(clipboard.text);
  });
  return true;
}

/**
 * A copy writes the editor's own HTML (for other programs) with the slice as JSON on its
 * first element, as the schema parses no HTML back. The slice is the one being copied:
 * ProseMirror hands it to transformCopied just before it serializes.
 */
function clipboardSerializer(schema: Schema): { transformCopied: (slice: Slice) => Slice; serializer: DOMSerializer } {
  let copying: Slice | undefined;
  const base = DOMSerializer.fromSchema(schema);
  // ProseMirror calls only serializeFragment on it; the schema's serializer does the nodes, and its own recursion.
  const serializer = {
    serializeFragment(fragment: Fragment, options: { document?: Document } = {}) {
      const document = options.document ?? window.document;
      const holder = document.createElement('div');
      if (copying) holder.setAttribute(SLICE_ATTRIBUTE, JSON.stringify(copying.toJSON()));
      copying = undefined;
      holder.appendChild(base.serializeFragment(fragment, options));
      return holder;
    },
  } as unknown as DOMSerializer;
  return {
    transformCopied: (slice) => ((copying = slice), slice),
    serializer,
  };
}

export const part: EditorPart = {
  plugins: (editor) => {
    const copy = clipboardSerializer(editor.schema);
    return [
      new Plugin({
        key: new PluginKey('quirePaste'),
        view: () => {
          void loadConversion();
          return {};
        },
        props: {
          handlePaste: (view, event) => handlePaste(editor, view, event),
          transformCopied: copy.transformCopied,
          clipboardSerializer: copy.serializer,
        },
      }),
    ];
  },
};
