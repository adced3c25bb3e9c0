// The kinds of GitBook's JSONDocument (`@gitbook/api@0.202.0`, and the captions Quire
// adds to embeds, files and drawings) as the editor's schema names them: one
// ProseMirror node per block and inline kind, one mark per mark kind. The schema
// (schema.ts) and the mapping (toProseMirror.ts, toDocument.ts) are both made from
// this table, so that they cannot disagree about a kind.

/** What a node holds in ProseMirror, which decides where its GitBook children come from. */
export type Holds =
  /** Texts and inlines, from `nodes` (paragraphs, headings, code lines, links). */
  | 'inlines'
  /** Blocks, from `nodes`; `children` names the kinds allowed when they are not any block. */
  | 'blocks'
  /** Fragments, from `fragments`: a void block's caption, title, body or table cells. */
  | 'fragments'
  /** Nothing: an atom, all of it in its attributes. */
  | 'nothing';

export interface Kind {
  /** GitBook's `type`. */
  type: string;
  /** The ProseMirror node's name (ProseMirror's content expressions take no hyphens). */
  name: string;
  holds: Holds;
  /** The kinds a `blocks` node may hold, by GitBook type; every block when absent. */
  children?: string[];
  /** GitBook's `isVoid` for a node made in the editor. */
  isVoid: boolean;
}

const kind = (type: string, name: string, holds: Holds, extra: Partial<Kind> = {}): Kind => ({ type, name, holds, isVoid: holds === 'fragments' || holds === 'nothing', ...extra });

export const BLOCK_KINDS: Kind[] = [
  kind('paragraph', 'paragraph', 'inlines'),
  kind('heading-1', 'heading1', 'inlines'),
  kind('heading-2', 'heading2', 'inlines'),
  kind('heading-3', 'heading3', 'inlines'),
  kind('list-unordered', 'listUnordered', 'blocks', { children: ['list-item'] }),
  kind('list-ordered', 'listOrdered', 'blocks', { children: ['list-item'] }),
  kind('list-tasks', 'listTasks', 'blocks', { children: ['list-item'] }),
  kind('list-item', 'listItem', 'blocks'),
  kind('blockquote', 'blockquote', 'blocks'),
  kind('hint', 'hint', 'blocks'),
  kind('prompt', 'prompt', 'blocks'),
  kind('if', 'if', 'blocks'),
  // `codeBlock`: the mark is `code`, and TipTap wants one name per extension.
  kind('code', 'codeBlock', 'blocks', { children: ['code-line'] }),
  kind('code-line', 'codeLine', 'inlines'),
  kind('tabs', 'tabs', 'blocks', { children: ['tabs-item'] }),
  kind('tabs-item', 'tabsItem', 'blocks'),
  kind('stepper', 'stepper', 'blocks', { children: ['stepper-step'] }),
  kind('stepper-step', 'stepperStep', 'blocks'),
  kind('columns', 'columns', 'blocks', { children: ['column'] }),
  kind('column', 'column', 'blocks'),
  kind('updates', 'updates', 'blocks', { children: ['update'] }),
  kind('update', 'update', 'blocks'),
  kind('images', 'images', 'blocks', { children: ['image'] }),
  kind('image', 'image', 'fragments'),
  kind('table', 'table', 'fragments'),
  kind('expandable', 'expandable', 'fragments'),
  kind('embed', 'embed', 'fragments'),
  kind('file', 'file', 'fragments'),
  kind('drawing', 'drawing', 'fragments'),
  kind('divider', 'divider', 'nothing'),
  kind('math', 'math', 'nothing'),
  kind('content-ref', 'contentRef', 'nothing'),
  kind('reusable-content', 'reusableContent', 'nothing'),
  kind('integration', 'integration', 'nothing'),
  kind('swagger', 'swagger', 'nothing'),
  kind('openapi-operation', 'openapiOperation', 'nothing'),
  kind('openapi-schemas', 'openapiSchemas', 'nothing'),
  kind('openapi-webhook', 'openapiWebhook', 'nothing'),
];

export const INLINE_KINDS: Kind[] = [
  { ...kind('link', 'link', 'inlines', { children: ['inline-image'] }), isVoid: false },
  // An annotation's words are its nodes; its body, a fragment of blocks, is an attribute
  // (an inline cannot hold blocks in ProseMirror): the editor opens it with this mapping.
  { ...kind('annotation', 'annotation', 'inlines', { children: [] }), isVoid: false },
  kind('inline-image', 'inlineImage', 'nothing'),
  kind('emoji', 'emoji', 'nothing'),
  kind('icon', 'icon', 'nothing'),
  kind('expression', 'expression', 'nothing'),
  kind('inline-math', 'inlineMath', 'nothing'),
  kind('mention', 'mention', 'nothing'),
  kind('button', 'button', 'nothing'),
];

/** GitBook's marks, in the order Quire keeps them on a leaf (MARK_ORDER), which is the schema's rank. */
export const MARK_KINDS: Array<{ type: string; name: string }> = [
  { type: 'bold', name: 'bold' },
  { type: 'italic', name: 'italic' },
  { type: 'strikethrough', name: 'strikethrough' },
  { type: 'code', name: 'code' },
  { type: 'keyboard', name: 'keyboard' },
  { type: 'superscript', name: 'superscript' },
  { type: 'subscript', name: 'subscript' },
  { type: 'color', name: 'color' },
];

/** The node that keeps, whole and as it was, a block (or a text or inline where a block stands) the schema cannot hold. */
export const OPAQUE_BLOCK = 'opaqueBlock';
/** The same for an inline, or a text whose leaves are not in Quire's normal form. */
export const OPAQUE_INLINE = 'opaqueInline';
/** The same for a mark of a kind the schema does not know. */
export const OPAQUE_MARK = 'opaqueMark';
export const FRAGMENT = 'fragment';

export const blockKindByType = new Map(BLOCK_KINDS.map((entry) => [entry.type, entry]));
export const inlineKindByType = new Map(INLINE_KINDS.map((entry) => [entry.type, entry]));
export const kindByName = new Map([...BLOCK_KINDS, ...INLINE_KINDS].map((entry) => [entry.name, entry]));
export const markNameByType = new Map(MARK_KINDS.map((entry) => [entry.type, entry.name]));
export const markTypeByName = new Map(MARK_KINDS.map((entry) => [entry.name, entry.type]));

/**
 * The order a node's keys are written in when the node has no `layout` (it was made in
 * the editor), and after its layout's keys for those it did not have: Quire's own.
 */
export const CANONICAL_KEYS = ['object', 'fragment', 'type', 'isVoid', 'data', 'meta', 'nodes', 'fragments', 'key'];

/**
 * The layout entry for a `nodes` key that held an empty list where the node holds
 * inlines: GitBook's empty text is `[{object: "text", leaves: [{text: ""}]}]`, and the
 * two read alike in ProseMirror.
 */
export const EMPTY_NODES = 'nodes=[]';
