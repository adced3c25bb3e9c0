// The editor's ProseMirror JSON → GitBook's JSONDocument: the inverse of
// toProseMirror.ts. Nodes come back with their fields in the order they were read in
// (their `layout`), opaque ones as the JSON they hold; neighbouring ProseMirror texts
// are one GitBook text, a leaf per run of marks, as Quire's normal form has them.
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import type { JSONDocument } from '../gitbook/model.ts';
import { copy, isRecord, ordered, put, type JsonObject, type ProseMirrorJSON } from './json.ts';
import { EMPTY_NODES, FRAGMENT, inlineKindByType, kindByName, markTypeByName, OPAQUE_BLOCK, OPAQUE_INLINE, OPAQUE_MARK } from './kinds.ts';

const orNothing = (value: unknown) => (value === null ? undefined : copy(value));

/**
 * Whether a node writes its `nodes` (or `fragments`): when it holds something, when it
 * had them, and, made in the editor (no layout), by `byDefault`: GitBook's nodes always
 * have their `nodes`, and its void blocks have `fragments` only for a caption or the like.
 */
function writes(key: string, layout: unknown, content: ProseMirrorJSON[], byDefault: boolean): boolean {
  if (content.length > 0) return true;
  if (!Array.isArray(layout)) return byDefault;
  return layout.includes(key) || (key === 'nodes' && layout.includes(EMPTY_NODES));
}

function withExtra(fields: JsonObject, extra: unknown): JsonObject {
  if (isRecord(extra)) for (const key of Object.keys(extra)) put(fields, key, copy(extra[key]));
  return fields;
}

function nodeOf(json: ProseMirrorJSON): unknown {
  if (json.type === OPAQUE_BLOCK || json.type === OPAQUE_INLINE) return copy(json.attrs?.json);
  if (json.type === FRAGMENT) return fragmentOf(json);
  const entry = kindByName.get(json.type);
  if (!entry) throw new Error(`The editor's node "${json.type}" is no kind of GitBook's document`);
  const attrs = json.attrs ?? {};
  const content = json.content ?? [];
  const fields: JsonObject = {
    object: inlineKindByType.get(entry.type) === entry ? 'inline' : 'block',
    type: entry.type,
    isVoid: orNothing(attrs.isVoid ?? null),
    data: orNothing(attrs.data ?? null),
    meta: orNothing(attrs.meta ?? null),
    key: orNothing(attrs.key ?? null),
  };
  const holdsNodes = entry.holds === 'inlines' || entry.holds === 'blocks';
  if (holdsNodes && writes('nodes', attrs.layout, content, true)) {
    fields.nodes = entry.holds === 'inlines' ? inlinesOf(content, attrs.layout) : content.map(nodeOf);
  }
  if (entry.holds === 'fragments' && writes('fragments', attrs.layout, content, false)) fields.fragments = content.map(nodeOf);
  if (entry.type === 'annotation') fields.fragments = orNothing(attrs.fragments ?? null);
  return ordered(withExtra(fields, attrs.extra), attrs.layout);
}

function fragmentOf(json: ProseMirrorJSON): JsonObject {
  const attrs = json.attrs ?? {};
  const fields: JsonObject = {
    object: 'fragment',
    fragment: attrs.fragment,
    type: orNothing(attrs.type ?? null),
    nodes: (json.content ?? []).map(nodeOf),
    key: orNothing(attrs.key ?? null),
  };
  return ordered(withExtra(fields, attrs.extra), attrs.layout);
}

const EMPTY_TEXT = () => ({ object: 'text', leaves: [{ object: 'leaf', text: '', marks: [] }] });

/** Texts and inlines: a run of ProseMirror texts is one GitBook text; none at all is GitBook's empty text, unless the node had an empty list. */
function inlinesOf(content: ProseMirrorJSON[], layout: unknown): unknown[] {
  if (content.length === 0) return Array.isArray(layout) && layout.includes(EMPTY_NODES) ? [] : [EMPTY_TEXT()];
  const out: unknown[] = [];
  let leaves: Array<{ object: 'leaf'; text: string; marks: unknown[] }> | undefined;
  let lastMarks = '';
  for (const child of content) {
    if (child.type !== 'text') {
      leaves = undefined;
      out.push(nodeOf(child));
      continue;
    }
    const marks = (child.marks ?? []).map(markOf);
    const written = JSON.stringify(marks);
    if (leaves && written === lastMarks) leaves[leaves.length - 1].text += child.text ?? '';
    else if (leaves) leaves.push({ object: 'leaf', text: child.text ?? '', marks });
    else out.push({ object: 'text', leaves: (leaves = [{ object: 'leaf', text: child.text ?? '', marks }]) });
    lastMarks = written;
  }
  return out;
}

function markOf(mark: { type: string; attrs?: JsonObject }): unknown {
  if (mark.type === OPAQUE_MARK) return copy(mark.attrs?.json);
  const type = markTypeByName.get(mark.type);
  if (!type) throw new Error(`The editor's mark "${mark.type}" is no mark of GitBook's document`);
  const data = mark.attrs?.data;
  return data === null || data === undefined ? { object: 'mark', type } : { object: 'mark', type, data: copy(data) };
}

/** The GitBook document of the editor's ProseMirror JSON (Node.toJSON's form, or documentToProseMirror's). */
export function proseMirrorToDocument(json: ProseMirrorJSON): JSONDocument {
  const attrs = json.attrs ?? {};
  const layout = attrs.layout;
  const content = json.content ?? [];
  const fields: JsonObject = {
    object: !Array.isArray(layout) || layout.includes('object') ? 'document' : undefined,
    data: orNothing(attrs.data ?? null),
    nodes: writes('nodes', layout, content, true) ? content.map(nodeOf) : undefined,
  };
  return ordered(withExtra(fields, attrs.extra), layout) as unknown as JSONDocument;
}

/** The GitBook document of a ProseMirror node of the editor's schema. */
export function nodeToDocument(node: ProseMirrorNode): JSONDocument {
  return proseMirrorToDocument(node.toJSON() as ProseMirrorJSON);
}
