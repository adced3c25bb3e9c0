// GitBook's JSONDocument → the editor's ProseMirror JSON. Each kind the schema knows
// becomes its node, its fields attributes and its children content; anything else — an
// unknown kind, a known kind in a place or shape the schema cannot hold, a text whose
// leaves are not in Quire's normal form — becomes an opaque node holding its JSON
// whole. So the way back (toDocument.ts) gives the same document, byte for byte.
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import type { JSONDocument } from '../gitbook/model.ts';
import { copy, isRecord, layoutOf, put, type JsonObject, type ProseMirrorJSON } from './json.ts';
import { blockKindByType, FRAGMENT, inlineKindByType, MARK_KINDS, markNameByType, OPAQUE_BLOCK, OPAQUE_INLINE, OPAQUE_MARK, type Kind } from './kinds.ts';
import { editorSchema } from './schema.ts';

type Mark = NonNullable<ProseMirrorJSON['marks']>[number];

/** The fields the schema holds as attributes or children; any other is kept in `extra`. */
const KNOWN_FIELDS = new Set(['object', 'type', 'isVoid', 'data', 'meta', 'nodes', 'fragments', 'key']);
const FRAGMENT_FIELDS = new Set(['object', 'fragment', 'type', 'nodes', 'key']);

// The node names each node may hold, from the schema's content expressions.
const allowed = new Map(
  Object.values(editorSchema.nodes).map((parent) => [
    parent.name,
    new Set(Object.values(editorSchema.nodes).filter((child) => parent.contentMatch.matchType(child)).map((child) => child.name)),
  ]),
);

const opaque = (type: string, value: unknown): ProseMirrorJSON => ({ type, attrs: { json: copy(value) } });

function extraOf(node: JsonObject, known: Set<string>): JsonObject | null {
  let extra: JsonObject | null = null;
  for (const key of Object.keys(node)) if (!known.has(key)) put((extra ??= {}), key, copy(node[key]));
  return extra;
}

/** True when each field the schema holds has the type it gives that field: else the node is kept opaque. */
function fits(node: JsonObject, entry: Kind): boolean {
  const { data, meta, key, isVoid, nodes, fragments } = node;
  if (data !== undefined && !isRecord(data)) return false;
  if (meta !== undefined && !isRecord(meta)) return false;
  if (key !== undefined && typeof key !== 'string') return false;
  if (isVoid !== undefined && typeof isVoid !== 'boolean') return false;
  if (nodes !== undefined && (entry.holds === 'fragments' || entry.holds === 'nothing' || !Array.isArray(nodes))) return false;
  // An annotation's body is the one fragment list an inline keeps, as an attribute.
  if (fragments !== undefined && !(Array.isArray(fragments) && (entry.holds === 'fragments' || entry.type === 'annotation'))) return false;
  return true;
}

function kindOf(value: JsonObject): Kind | undefined {
  if (value.object === 'block') return blockKindByType.get(value.type as string);
  return value.object === 'inline' ? inlineKindByType.get(value.type as string) : undefined;
}

function nodeOf(value: unknown, parent: string): ProseMirrorJSON {
  const entry = isRecord(value) ? kindOf(value) : undefined;
  if (!isRecord(value) || !entry || !allowed.get(parent)!.has(entry.name) || !fits(value, entry)) {
    return opaque(allowed.get(parent)!.has('text') ? OPAQUE_INLINE : OPAQUE_BLOCK, value);
  }
  const nodes = value.nodes as unknown[] | undefined;
  const attrs: JsonObject = {
    data: copy(value.data) ?? null,
    key: value.key ?? null,
    isVoid: value.isVoid ?? null,
    meta: copy(value.meta) ?? null,
    extra: extraOf(value, KNOWN_FIELDS),
    layout: layoutOf(value, entry.holds === 'inlines' && nodes?.length === 0),
  };
  if (entry.type === 'annotation') attrs.fragments = copy(value.fragments) ?? null;
  const content =
    entry.holds === 'inlines' ? inlinesOf(nodes ?? [], entry.name)
    : entry.holds === 'blocks' ? (nodes ?? []).map((child) => nodeOf(child, entry.name))
    : entry.holds === 'fragments' ? ((value.fragments as unknown[] | undefined) ?? []).map((child) => fragmentOf(child, entry.name))
    : [];
  return content.length > 0 ? { type: entry.name, attrs, content } : { type: entry.name, attrs };
}

function fragmentOf(value: unknown, parent: string): ProseMirrorJSON {
  const fits = isRecord(value) && value.object === 'fragment' && typeof value.fragment === 'string' && Array.isArray(value.nodes)
    && (value.type === undefined || typeof value.type === 'string') && (value.key === undefined || typeof value.key === 'string');
  if (!fits || !allowed.get(parent)!.has(FRAGMENT)) return opaque(OPAQUE_BLOCK, value);
  const attrs = { fragment: value.fragment, type: value.type ?? null, key: value.key ?? null, extra: extraOf(value, FRAGMENT_FIELDS), layout: layoutOf(value, false) };
  const content = (value.nodes as unknown[]).map((child) => nodeOf(child, FRAGMENT));
  return content.length > 0 ? { type: FRAGMENT, attrs, content } : { type: FRAGMENT, attrs };
}

const isEmptyText = (value: unknown) =>
  isRecord(value) && value.object === 'text' && Array.isArray(value.leaves) && value.leaves.length === 1 && JSON.stringify(value) === '{"object":"text","leaves":[{"object":"leaf","text":"","marks":[]}]}';

/** Texts and inlines: each leaf of a text in Quire's normal form is a ProseMirror text; other texts are kept opaque. */
function inlinesOf(nodes: unknown[], parent: string): ProseMirrorJSON[] {
  // GitBook's empty text is ProseMirror's empty content.
  if (nodes.length === 1 && isEmptyText(nodes[0])) return [];
  const out: ProseMirrorJSON[] = [];
  let afterText = false;
  for (const node of nodes) {
    const leaves: ProseMirrorJSON[] | undefined = isRecord(node) && node.object === 'text' && !afterText ? textOf(node) : undefined;
    if (leaves) out.push(...leaves);
    else out.push(isRecord(node) && node.object === 'text' ? opaque(OPAQUE_INLINE, node) : nodeOf(node, parent));
    afterText = leaves !== undefined;
  }
  return out;
}

const RANK = new Map(MARK_KINDS.map((entry, index) => [entry.type, index]));

/**
 * A text's leaves as ProseMirror texts, or undefined where ProseMirror would not give
 * them back as they are: an empty leaf, neighbours with the same marks (ProseMirror
 * joins them), marks out of the schema's rank, or a field the schema does not hold.
 */
function textOf(node: JsonObject): ProseMirrorJSON[] | undefined {
  const leaves = node.leaves;
  if (Object.keys(node).length !== 2 || !Array.isArray(leaves) || leaves.length === 0) return undefined;
  const out: ProseMirrorJSON[] = [];
  let previousMarks: string | undefined;
  for (const leaf of leaves) {
    if (!isRecord(leaf) || leaf.object !== 'leaf' || typeof leaf.text !== 'string' || leaf.text === '' || !Array.isArray(leaf.marks)) return undefined;
    if (Object.keys(leaf).join() !== 'object,text,marks') return undefined;
    const marks = marksOf(leaf.marks);
    const written = JSON.stringify(leaf.marks);
    if (!marks || written === previousMarks) return undefined;
    previousMarks = written;
    out.push(marks.length > 0 ? { type: 'text', text: leaf.text, marks } : { type: 'text', text: leaf.text });
  }
  return out;
}

function marksOf(marks: unknown[]): Mark[] | undefined {
  const out: Mark[] = [];
  let rank = -1;
  const unknown = new Set<string>();
  for (const mark of marks) {
    const name = isRecord(mark) && mark.object === 'mark' ? markNameByType.get(mark.type as string) : undefined;
    const keys = isRecord(mark) ? Object.keys(mark).join() : '';
    const known = name !== undefined && isRecord(mark) && (keys === 'object,type' || (keys === 'object,type,data' && isRecord(mark.data)));
    // Known marks in rank, each once; unknown ones after them, in their order, each distinct.
    const markRank = known ? RANK.get((mark as JsonObject).type as string)! : MARK_KINDS.length;
    if (markRank < rank || (known && markRank === rank)) return undefined;
    rank = markRank;
    if (known) {
      out.push({ type: name!, attrs: { data: copy((mark as JsonObject).data) ?? null } });
      continue;
    }
    const json = JSON.stringify(mark);
    if (unknown.has(json)) return undefined;
    unknown.add(json);
    out.push({ type: OPAQUE_MARK, attrs: { json: copy(mark) } });
  }
  return out;
}

/** The editor's ProseMirror JSON of a GitBook document: `editorSchema.nodeFromJSON` reads it. */
export function documentToProseMirror(document: JSONDocument): ProseMirrorJSON {
  const value = document as unknown as JsonObject;
  // An `object`, `data` or `nodes` not of GitBook's shape is kept as it is, with the extra fields.
  const known = new Set<string>();
  if (value.object === 'document') known.add('object');
  if (isRecord(value.data)) known.add('data');
  if (Array.isArray(value.nodes)) known.add('nodes');
  const attrs = { data: isRecord(value.data) ? copy(value.data) : null, extra: extraOf(value, known), layout: layoutOf(value, false) };
  const nodes = Array.isArray(value.nodes) ? value.nodes : [];
  const content = nodes.map((node) => nodeOf(node, 'doc'));
  return content.length > 0 ? { type: 'doc', attrs, content } : { type: 'doc', attrs };
}

/** The document as a ProseMirror node of the editor's schema. */
export function documentToNode(document: JSONDocument): ProseMirrorNode {
  return editorSchema.nodeFromJSON(documentToProseMirror(document));
}
