// The editor's schema: GitBook's JSONDocument as TipTap extensions, one node per block
// and inline kind and one mark per mark kind (kinds.ts), and the opaque nodes and mark
// that keep, whole, what the schema cannot hold. The schema is made in Node as in the
// browser (TipTap's getSchema needs no DOM): the server converts with it, the editor
// in web/ adds its views on these names.
import { getSchema, Mark, Node, type AnyExtension, type Attribute } from '@tiptap/core';
import type { Schema } from '@tiptap/pm/model';
import { BLOCK_KINDS, FRAGMENT, INLINE_KINDS, MARK_KINDS, OPAQUE_BLOCK, OPAQUE_INLINE, OPAQUE_MARK, type Kind } from './kinds.ts';
import { UniqueKeys } from './uniqueKeys.ts';

// Attributes are GitBook's fields, not HTML: the editor's views render them.
const attribute = (value: unknown, keepOnSplit = true): Attribute => ({ default: value, rendered: false, keepOnSplit });

/**
 * What every node carries besides its children: GitBook's `data`, `key`, `isVoid` and
 * `meta`; `extra`, any other field GitBook or a tool wrote, by name; and `layout`, the
 * order its fields were written in, so that it is written back byte for byte. A block
 * split at its end starts a new one with its data only (a heading's meta is its anchor);
 * a key copied any other way is cleared by UniqueKeys.
 */
const nodeAttributes = (isVoid: boolean): Record<string, Attribute> => ({
  data: attribute({}),
  key: attribute(null, false),
  isVoid: attribute(isVoid),
  meta: attribute(null, false),
  extra: attribute(null, false),
  layout: attribute(null, false),
});

const nameOf = new Map([...BLOCK_KINDS, ...INLINE_KINDS].map((entry) => [entry.type, entry.name]));
// Kinds that only stand inside one other (list items, code lines, tabs, …) are not "any block".
const childOnly = new Set(BLOCK_KINDS.flatMap((entry) => entry.children ?? []));

const TAGS: Record<string, string> = {
  paragraph: 'p', heading1: 'h1', heading2: 'h2', heading3: 'h3', blockquote: 'blockquote',
  listUnordered: 'ul', listOrdered: 'ol', listTasks: 'ul', listItem: 'li', codeBlock: 'pre', link: 'a',
};

function contentOf(entry: Kind): string | undefined {
  const opaque = entry.holds === 'inlines' ? OPAQUE_INLINE : OPAQUE_BLOCK;
  const among = (names: string[]) => `(${[...names, opaque].join(' | ')})*`;
  if (entry.holds === 'nothing') return undefined;
  if (entry.holds === 'fragments') return among([FRAGMENT]);
  if (entry.holds === 'inlines') return entry.children ? among(['text', ...entry.children.map((type) => nameOf.get(type)!)]) : 'inline*';
  return entry.children ? among(entry.children.map((type) => nameOf.get(type)!)) : 'block*';
}

function kindNode(entry: Kind, inline: boolean): Node {
  const content = contentOf(entry);
  const tag = TAGS[entry.name] ?? (inline ? 'span' : 'div');
  return Node.create({
    name: entry.name,
    group: inline ? 'inline' : childOnly.has(entry.type) ? undefined : 'block',
    inline,
    content,
    atom: content === undefined,
    marks: entry.holds === 'inlines' ? '_' : undefined,
    code: entry.name === 'codeLine',
    whitespace: entry.name === 'codeLine' ? 'pre' : 'normal',
    draggable: !inline,
    addAttributes: () => (entry.type === 'annotation' ? { ...nodeAttributes(entry.isVoid), fragments: attribute(null) } : nodeAttributes(entry.isVoid)),
    renderHTML: () => (content === undefined ? [tag, { 'data-type': entry.name }] : [tag, { 'data-type': entry.name }, 0]),
  });
}

const opaque = (name: string, inline: boolean) =>
  Node.create({
    name,
    group: inline ? 'inline' : 'block',
    inline,
    atom: true,
    selectable: true,
    draggable: true,
    // The original JSON, whole: what the editor neither shows nor may change.
    addAttributes: () => ({ json: attribute(null) }),
    renderHTML: () => [inline ? 'span' : 'div', { 'data-type': name }],
  });

const markExtension = (name: string) =>
  Mark.create({
    name,
    // GitBook's `data` (a colour's text and background), null where the mark has none.
    addAttributes: () => ({ data: attribute(null) }),
    renderHTML: () => ['span', { 'data-mark': name }, 0],
  });

/** The extensions of GitBook's document model, in the marks' rank (the order Quire keeps a leaf's marks in), and the one that keeps its keys unique. */
export const editorExtensions: AnyExtension[] = [
  Node.create({ name: 'doc', topNode: true, content: 'block*', addAttributes: () => ({ data: attribute({}), extra: attribute(null), layout: attribute(null) }) }),
  Node.create({ name: 'text', group: 'inline' }),
  Node.create({
    name: FRAGMENT,
    content: 'block*',
    // `fragment` names its place (`caption`, `expandable-title`, a table cell's id), `type` its kind where GitBook gives one.
    addAttributes: () => ({ fragment: attribute(''), type: attribute(null), key: attribute(null, false), extra: attribute(null, false), layout: attribute(null, false) }),
    renderHTML: () => ['div', { 'data-type': FRAGMENT }, 0],
  }),
  ...BLOCK_KINDS.map((entry) => kindNode(entry, false)),
  ...INLINE_KINDS.map((entry) => kindNode(entry, true)),
  opaque(OPAQUE_BLOCK, false),
  opaque(OPAQUE_INLINE, true),
  ...MARK_KINDS.map((entry) => markExtension(entry.name)),
  Mark.create({
    name: OPAQUE_MARK,
    // Several unknown marks may sit on one text, in their order.
    excludes: '',
    addAttributes: () => ({ json: attribute(null) }),
    renderHTML: () => ['span', { 'data-mark': OPAQUE_MARK }, 0],
  }),
  UniqueKeys,
];

/** The ProseMirror schema of GitBook's document model. */
export const editorSchema: Schema = getSchema(editorExtensions);
