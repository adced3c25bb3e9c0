// GitBook's JSONDocument, as `@gitbook/api@0.202.0` defines it: blocks hold blocks,
// inlines or texts; texts hold leaves with marks; some blocks (tables, images,
// expandables) and annotations hold fragments. The types are loose where the official
// ones are a long union: the converter and its tests pin the shapes.

export type ContentRef =
  /**
   * `text`, Quire's own: the words a repository gave a mention, a card's target or a
   * content reference leading to this address, where they are not the words GitBook
   * makes of it (linkName); GitBook writes another space's page's title there, which
   * only it knows. Kept with the address, so that a new address drops them.
   */
  | { kind: 'url'; url: string; text?: string }
  | { kind: 'page'; page: string; anchor?: string; space?: string }
  | { kind: 'file'; file: string; space?: string }
  | { kind: 'anchor'; anchor: string; page?: string; space?: string }
  | { kind: 'user'; user: string }
  | { kind: 'space'; space: string }
  | { kind: 'collection'; collection: string }
  | { kind: 'reusable-content'; reusableContent: string; space?: string }
  | { kind: 'tag'; tag: string; space?: string }
  | { kind: 'openapi'; spec: string };

export type MarkType = 'bold' | 'italic' | 'code' | 'keyboard' | 'strikethrough' | 'color' | 'superscript' | 'subscript';

export interface Mark {
  object: 'mark';
  type: MarkType;
  data?: { text?: string; background?: string };
}

export interface Leaf {
  object: 'leaf';
  text: string;
  marks: Mark[];
}

export interface TextNode {
  object: 'text';
  leaves: Leaf[];
}

export interface Fragment {
  object: 'fragment';
  fragment: string;
  type?: string;
  nodes: Block[];
}

export interface Inline {
  object: 'inline';
  type: string;
  isVoid: boolean;
  data: Record<string, unknown>;
  nodes?: Array<TextNode | Inline>;
  fragments?: Fragment[];
}

export interface Block {
  object: 'block';
  type: string;
  isVoid?: boolean;
  data: Record<string, unknown>;
  meta?: Record<string, unknown>;
  nodes?: Array<Block | Inline | TextNode>;
  fragments?: Fragment[];
}

export interface JSONDocument {
  object: 'document';
  data: Record<string, unknown>;
  nodes: Block[];
}

/** GitBook's link to a page, file or space that is gone (or not shared with the exporter), as its export writes it. */
export const BROKEN_LINK = /^\/broken\/(?:pages|files|spaces)\//;

/**
 * The text GitBook gives a link it writes to a page or a file: the last part of its path
 * (`git-sync` for `../git-sync/`, `inline.md`), or the anchor for a place in a page
 * (`#page-covers` for `../page/#page-covers`); "Broken link" where the page or file is
 * gone (`/broken/pages/<id>`, its form for a reference it cannot resolve).
 */
export function linkName(url: string): string {
  if (BROKEN_LINK.test(url)) return 'Broken link';
  const [path, anchor] = url.split('#');
  if (anchor) return `#${anchor}`;
  return path.split('/').filter(Boolean).at(-1) ?? url;
}

/**
 * A reference to an address with the words the markdown gave it (`written`) where GitBook
 * would not make them of the address (`made`): what a mention or a card's target keeps
 * for the way back. Other references, and the words GitBook makes, are left as they are.
 */
export function withWrittenText(ref: ContentRef, written: string, made: string): ContentRef {
  return ref.kind === 'url' && written !== '' && written !== made ? { ...ref, text: written } : ref;
}

/** The words to write for a reference to an address: those it was read with (withWrittenText), else `made`. */
export function writtenText(ref: unknown, made: string): string {
  const candidate = ref as { kind?: unknown; text?: unknown } | undefined;
  return candidate?.kind === 'url' && typeof candidate.text === 'string' && candidate.text !== '' ? candidate.text : made;
}

/** The order marks are kept in, so that equal texts compare equal. */
export const MARK_ORDER: MarkType[] = ['bold', 'italic', 'strikethrough', 'code', 'keyboard', 'superscript', 'subscript', 'color'];

/** Turns a link target into a content reference (a page of the revision, a file, an anchor, a URL). */
export type LinkResolver = (url: string) => ContentRef;

/** Writes a content reference back as a link target: the inverse of a LinkResolver. */
export type LinkWriter = (ref: ContentRef) => string;

/** True for a URL with a scheme (https:, mailto:, …), as opposed to a path. */
export function hasScheme(url: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(url);
}

/** The label a select column gives one of its options' values; the value itself when no option has it. */
export function optionLabel(options: ReadonlyArray<{ value?: string; label?: string }> | undefined, value: unknown): string {
  return options?.find((option) => option.value === value)?.label ?? String(value);
}

export function text(value: string, marks: Mark[] = []): TextNode {
  return { object: 'text', leaves: [{ object: 'leaf', text: value, marks }] };
}

export function block(type: string, nodes: Block['nodes'], data: Record<string, unknown> = {}): Block {
  return { object: 'block', type, isVoid: false, data, nodes };
}

/** GitBook's empty paragraph: an empty caption or title, or a paragraph its writer wrote as blank lines. */
export function emptyParagraph(): Block {
  return block('paragraph', [text('')]);
}

export function voidBlock(type: string, data: Record<string, unknown>, extra: Partial<Block> = {}): Block {
  return { object: 'block', type, isVoid: true, data, ...extra };
}

/** The plain text of any node, fragments included: what search indexes and PDFs fall back to. */
export function plainText(node: Block | Inline | TextNode | Fragment): string {
  if (node.object === 'text') return node.leaves.map((leaf) => leaf.text).join('');
  // Blocks are lines apart; the texts and inlines of one block run together.
  const own = (node.nodes ?? []).map((child) => (child.object === 'block' ? `${plainText(child)}\n` : plainText(child))).join('').replace(/\n$/, '');
  const fragments = ('fragments' in node ? (node.fragments ?? []) : []).map(plainText).join('\n');
  const data = node.object === 'fragment' ? {} : node.data;
  // A table's column titles, and the labels of its select columns' options.
  const columns = node.object === 'block' && node.type === 'table'
    ? Object.values((data.definition ?? {}) as Record<string, { title?: string; options?: Array<{ label?: string }> }>).flatMap((column) => [column.title, ...(column.options ?? []).map((option) => option.label)])
    : [];
  const words = [...columns, data.formula, data.expression, data.title, data.description, data.label, data.caption, data.alt]
    .filter((value): value is string => typeof value === 'string' && value !== '');
  return [own, fragments, ...words].filter(Boolean).join(node.object === 'inline' ? ' ' : '\n');
}
