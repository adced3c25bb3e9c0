// GitBook-flavoured markdown → JSONDocument. The markdown is parsed once to mdast
// (CommonMark, GFM, `$$` maths) after `isolateTags` has put GitBook's `{% … %}` tags on
// lines of their own; then each list of sibling blocks is read left to right, a tag
// paragraph taking the blocks up to its closing tag, an HTML block read as the GitBook
// form it is (`<figure>`, `<details>`, cards tables, drawings). What is not recognised
// stays as literal text, never dropped.
import type { Element, ElementContent, Root as HastRoot } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { phrasing as isHastPhrasing } from 'hast-util-phrasing';
import { toHtml } from 'hast-util-to-html';
import { defaultHandlers, toMdast, type Handle } from 'hast-util-to-mdast';
import { toHast } from 'mdast-util-to-hast';
import { htmlBlockNames } from 'micromark-util-html-tag-name';
import type * as md from 'mdast';
import { phrasing as isPhrasing } from 'mdast-util-phrasing';
import { toString } from 'mdast-util-to-string';
import { visit } from 'unist-util-visit';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import remarkParse from 'remark-parse';
import { unified, type Processor } from 'unified';
import { isStorableLinkUrl } from './safety.ts';
import { textAndEmoji } from './emoji.ts';
import { CONTAINER_TAGS, EMPTY_PARAGRAPH_LINE, isolateTags, tagOf, type Tag } from './tags.ts';
import {
  MARK_ORDER,
  block,
  emptyParagraph,
  hasScheme,
  linkName,
  plainText,
  withWrittenText,
  text,
  voidBlock,
  type Block,
  type ContentRef,
  type Fragment,
  type Inline,
  type JSONDocument,
  type LinkResolver,
  type Mark,
  type MarkType,
  type TextNode,
} from './model.ts';

/**
 * GFM's literal autolinks (`https://…`, `www.…`, `a@b.c` in text) are not read: GitBook
 * reads none (asGitBookReadsIt), and micromark's reads the address from the source, so an
 * escape inside it stayed a backslash (GitBook writes `https://x.test/hacktricks\_live`
 * in text) that each export escaped again, and `…/\<GUID>` lost its escape to an HTML tag.
 */
function withoutLiteralAutolinks(this: Processor) {
  const data = this.data();
  (data.micromarkExtensions ??= []).push({ disable: { null: ['wwwAutolink', 'protocolAutolink', 'emailAutolink'] } });
}

const parser = unified().use(remarkParse).use(remarkGfm).use(withoutLiteralAutolinks).use(remarkMath, { singleDollarTextMath: false });

/** GitBook markdown as an mdast tree, its tags isolated: `source` is the text the positions point into. */
export function parseGitBookMarkdown(markdown: string): { root: md.Root; source: string } {
  const source = isolateTags(markdown);
  const root = parser.parse(source) as md.Root;
  asGitBookReadsIt(root, source);
  return { root, source };
}

/**
 * GitBook reads no bare address as a link: its exports keep `support@gitbook.com` as
 * text, which GFM would make a `mailto:` link (escaping it does not stop remark). A link
 * that is not written `[…](…)` or `<…>` is its text again.
 */
function asGitBookReadsIt(root: md.Root, source: string): void {
  visit(root, 'link', (node, index, parent) => {
    const start = node.position?.start.offset;
    if (!parent || index === undefined || (start !== undefined && (source[start] === '[' || source[start] === '<'))) return;
    parent.children.splice(index, 1, ...node.children);
    return index;
  });
}

/** A heading's anchor: its words in lower case joined by dashes, as GitBook writes them. */
export function anchorOfText(words: string): string {
  return words.toLowerCase().trim().replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '');
}

type Phrasing = Array<TextNode | Inline>;

const HINT_STYLES = new Set(['info', 'success', 'warning', 'danger']);
const ALERTS: Record<string, string> = { NOTE: 'info', TIP: 'success', IMPORTANT: 'info', WARNING: 'warning', CAUTION: 'danger' };
/** Tags whose closing tag is optional: with one, the blocks in between are their body. */
const OPTIONAL_BODY = new Set(['embed', 'file', 'content-ref', 'openapi', 'swagger', 'openapi-operation', 'openapi-schemas', 'openapi-webhook', 'page-ref']);

/**
 * Tags of GitBook's earlier formats, still in repositories it synced then: code tabs
 * (a code block's title was a tab of one), and the API method blocks, which GitBook
 * turned into standard blocks in March 2024 and Quire reads as such (apiMethodBlocks).
 * They close, but for an empty one GitBook left open. `{% page-ref %}` (a content reference) takes no body.
 */
const LEGACY_CONTAINER_TAGS = new Set([
  'code-tabs', 'code-tabs-item',
  'api-method', 'api-method-summary', 'api-method-description', 'api-method-spec', 'api-method-request', 'api-method-response',
  'api-method-path-parameters', 'api-method-query-parameters', 'api-method-headers', 'api-method-body-parameters', 'api-method-form-data-parameters', 'api-method-cookies',
  'api-method-parameter', 'api-method-response-example', 'api-method-response-example-description',
  'swagger-description', 'swagger-parameter', 'swagger-response',
]);

/**
 * A form only GitBook's earlier formats write: a legacy tag, `{% swagger %}` (today's
 * `{% openapi %}` when it names a spec), or an embed's or a file's caption attribute.
 */
const EARLIER_FORM = new RegExp(`\\{%\\s*(?:page-ref|swagger|${[...LEGACY_CONTAINER_TAGS].join('|')})[\\s%]|\\{%\\s*(?:embed|file)\\s[^%]*\\bcaption=`);

/** Whether markdown holds forms of GitBook's earlier formats, which read as today's blocks and are written as today's. */
export function hasEarlierForms(markdown: string): boolean {
  return EARLIER_FORM.test(markdown);
}

/** Parameter groups of an API method, in the order they are shown: by the earlier block's group tag, and by a swagger parameter's `in`. */
const PARAMETER_GROUPS: Array<{ title: string; tag: string; in: string }> = [
  { title: 'Path Parameters', tag: 'api-method-path-parameters', in: 'path' },
  { title: 'Query Parameters', tag: 'api-method-query-parameters', in: 'query' },
  { title: 'Headers', tag: 'api-method-headers', in: 'header' },
  { title: 'Cookies', tag: 'api-method-cookies', in: 'cookie' },
  { title: 'Request Body', tag: 'api-method-body-parameters', in: 'body' },
  { title: 'Form Data', tag: 'api-method-form-data-parameters', in: 'formData' },
];

/** A parameter of an API method block, read from its tag: shown as a paragraph where it stands alone, as a table's row in its group. */
interface ApiParameter {
  name: string;
  type: string;
  required: boolean;
  description: Block[];
  group?: string;
}

/** A grid table of text columns: its columns' titles and alignments, and each row's cells as blocks. */
function gridTable(columns: Array<{ title: string; textAlignment?: string }>, rows: Block[][][]): Block {
  const ids = columns.map((_, index) => `c${index}`);
  const definition = Object.fromEntries(columns.map((column, index) => [ids[index], { id: ids[index], title: column.title, type: 'text', textAlignment: column.textAlignment ?? 'left' }]));
  const hideHeader = columns.every((column) => column.title === '');
  const fragments: Fragment[] = [];
  const records = Object.fromEntries(
    rows.map((cells, rowIndex) => {
      const values: Record<string, string> = {};
      cells.forEach((nodes, column) => {
        const fragment = `r${rowIndex}c${column}`;
        fragments.push({ object: 'fragment', fragment, nodes });
        values[`c${column}`] = fragment;
      });
      return [`r${rowIndex}`, { orderIndex: orderIndex(rowIndex), values }];
    }),
  );
  return voidBlock('table', { view: { type: 'grid', columns: ids, hideHeader }, definition, records }, { fragments });
}

/** An HTML cell's `colspan` or `rowspan`: a whole number above 1, else 1 (HTML caps them at 1,000 and 65,534). */
function cellSpan(value: unknown): number {
  const span = Number(value);
  return Number.isInteger(span) && span > 1 ? Math.min(span, 1_000) : 1;
}

function bool(value: string | undefined): boolean | undefined {
  return value === undefined ? undefined : value !== 'false';
}

/** Leaves out undefined values, so that absent attributes leave no keys behind. */
function defined<T extends Record<string, unknown>>(data: T): T {
  return Object.fromEntries(Object.entries(data).filter(([, value]) => value !== undefined)) as T;
}

function length(value: string | undefined): number | { unit: string; value: number } | undefined {
  if (value === undefined) return undefined;
  const match = /^(-?[\d.]+)\s*(%|px|em|rem)?$/.exec(value.trim());
  if (!match) return undefined;
  return match[2] ? { unit: match[2], value: Number(match[1]) } : Number(match[1]);
}

function propValue(value: string): unknown {
  if (/^(true|false|null|-?\d+(\.\d+)?|\{[\s\S]*\}|\[[\s\S]*\])$/.test(value)) {
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  }
  return value;
}

function withMark(marks: Mark[], mark: Mark): Mark[] {
  const next = [...marks.filter((existing) => existing.type !== mark.type), mark];
  return next.sort((a, b) => MARK_ORDER.indexOf(a.type) - MARK_ORDER.indexOf(b.type));
}

function markOf(type: MarkType, data?: Mark['data']): Mark {
  return data ? { object: 'mark', type, data } : { object: 'mark', type };
}

type HtmlTag = { name: string; closing: boolean; props: Record<string, unknown> };

/** Tags already read: a paragraph's closing tags are looked up once per opening one. */
const htmlTags = new Map<string, HtmlTag | undefined>();

/** One HTML tag's name and attributes, read by the HTML parser. */
function htmlTag(value: string): HtmlTag | undefined {
  if (htmlTags.has(value)) return htmlTags.get(value);
  if (htmlTags.size > 1000) htmlTags.clear();
  const tag = readHtmlTag(value);
  htmlTags.set(value, tag);
  return tag;
}

function readHtmlTag(value: string): HtmlTag | undefined {
  const closing = /^<\/([a-zA-Z][\w-]*)\s*>$/.exec(value.trim());
  if (closing) return { name: closing[1].toLowerCase(), closing: true, props: {} };
  if (!/^<[a-zA-Z]/.test(value.trim())) return undefined;
  const element = fromHtml(value, { fragment: true }).children.find((child): child is Element => child.type === 'element');
  return element ? { name: element.tagName, closing: false, props: element.properties as Record<string, unknown> } : undefined;
}

function classNames(props: Record<string, unknown>): string[] {
  const value = props.className;
  return Array.isArray(value) ? value.map(String) : typeof value === 'string' ? value.split(/\s+/) : [];
}

/** `color:red;background-color:blue;` as a color mark's data. */
function colorData(style: string): Mark['data'] {
  const data: Record<string, string> = {};
  for (const declaration of style.split(';')) {
    const [property, value] = declaration.split(':').map((part) => part?.trim());
    if (property === 'color' && value) data.text = value;
    if (property === 'background-color' && value) data.background = value;
  }
  return data;
}

const SIMPLE_MARK_TAGS: Record<string, MarkType> = {
  kbd: 'keyboard', sup: 'superscript', sub: 'subscript', s: 'strikethrough', del: 'strikethrough',
  strong: 'bold', b: 'bold', em: 'italic', i: 'italic', code: 'code',
};

/** GitBook's `align` of text (`<p align="center">`) as the document's TextAlignment. */
const TEXT_ALIGNMENTS: Record<string, string> = { left: 'start', center: 'center', right: 'end' };
/** An inline image's sizes, written as `data-size` on its `<img>`: an attribute only an image in text has. */
const INLINE_IMAGE_SIZES = new Set(['line', 'original']);
const inlineImageSize = (dataSize: unknown): { size?: string } => (INLINE_IMAGE_SIZES.has(String(dataSize)) ? { size: String(dataSize) } : {});

/** What a `<button>` GitBook writes does when clicked: open the search or the assistant, prefilled, or select an option. */
function buttonAction(props: Record<string, unknown>): Record<string, string | undefined> | undefined {
  const action = props.dataAction;
  if (action === 'search' || action === 'ask') return defined({ action, query: props.dataQuery as string | undefined });
  if (action === 'select' && typeof props.dataSlug === 'string') return { action, slug: props.dataSlug };
  return undefined;
}

/**
 * Whether an element inside HTML content (a table's cell, a `<p align>`) is one of
 * GitBook's inline HTML forms: colour, keyboard, superscript and subscript marks, icons,
 * buttons and expressions. Converted to mdast as the same tags around their content, the
 * inline reader reads them as it does in markdown; hast-util-to-mdast would otherwise
 * keep only their text, or read an icon's `<i>` as emphasis. So is a heading's anchor.
 */
function isInlineHtmlForm(element: Element): boolean {
  const classes = classNames(element.properties as Record<string, unknown>);
  switch (element.tagName) {
    case 'mark':
    case 'kbd':
    case 'sup':
    case 'sub':
      return true;
    case 'i':
      return classes.some((value) => value.startsWith('fa-'));
    case 'a':
      // A heading's custom anchor, `<a href="#id" id="id"></a>`, read as the heading reads it in markdown; a page's mention.
      return classes.includes('button') || element.properties.dataMention !== undefined || (typeof element.properties.id === 'string' && element.children.length === 0);
    case 'button':
      return classes.includes('button');
    case 'span':
      // GitBook's HTML form of an inline, an emoji in HTML: the span holds its character, which as text would be text.
      return element.properties.dataGbCustomInline !== undefined;
    case 'code':
      return classes.includes('expression');
    default:
      return false;
  }
}

const keptAsTags: Handle = (state, element, parent) => {
  if (!isInlineHtmlForm(element)) return (defaultHandlers as Record<string, Handle>)[element.tagName]?.(state, element, parent);
  const opening = toHtml({ ...element, children: [] }).replace(/<\/[^>]+>$/, '');
  return [{ type: 'html', value: opening }, ...(state.all(element) as md.PhrasingContent[]), { type: 'html', value: `</${element.tagName}>` }];
};

/**
 * A `<pre>` as the code block it is, in the HTML form GitBook writes code with
 * highlighted lines in: `<pre class="language-yaml" data-title data-overflow
 * data-line-numbers data-full-width><code class="lang-yaml">`, each highlighted line in a
 * `<strong>` with its line end. Other elements in it are read as their text.
 */
function preCodeBlock(pre: Element): Block {
  const only = pre.children.filter((child) => child.type !== 'text' || child.value.trim() !== '');
  const content = only.length === 1 && only[0].type === 'element' && only[0].tagName === 'code' ? only[0] : pre;
  const runs: Array<{ text: string; strong: boolean }> = [];
  const collect = (nodes: ElementContent[], strong: boolean) => {
    for (const node of nodes) {
      if (node.type === 'text') runs.push({ text: node.value, strong });
      else if (node.type === 'element') node.tagName === 'br' ? runs.push({ text: '\n', strong }) : collect(node.children, strong || node.tagName === 'strong' || node.tagName === 'b');
    }
  };
  collect(content.children, false);
  // A line is highlighted when all of it, its line end included, is strong.
  const lines: Block[] = [];
  let line = { text: '', strong: true, empty: true };
  for (const run of runs) {
    run.text.split('\n').forEach((piece, index) => {
      if (index > 0) {
        const highlighted = line.strong && run.strong;
        lines.push(block('code-line', [text(line.text)], highlighted ? { highlighted } : {}));
        line = { text: '', strong: true, empty: true };
      }
      if (piece) line = { text: line.text + piece, strong: line.strong && run.strong, empty: false };
    });
  }
  // GitBook ends every line, the last one too.
  if (!line.empty || lines.length === 0) lines.push(block('code-line', [text(line.text)], line.strong && !line.empty ? { highlighted: true } : {}));
  const language = [...classNames(pre.properties), ...classNames(content.properties)].map((name) => /^lang(?:uage)?-(.+)$/.exec(name)?.[1]).find(Boolean);
  const props = pre.properties as Record<string, string | undefined>;
  return block('code', lines, defined({
    syntax: language,
    title: props.dataTitle,
    overflow: props.dataOverflow === 'wrap' || props.dataOverflow === 'scroll' ? props.dataOverflow : undefined,
    lineNumbers: bool(props.dataLineNumbers),
    fullWidth: bool(props.dataFullWidth),
    expandable: bool(props.dataExpandable),
  }));
}

/** A `<picture>` in HTML content (a summary, a cell) as the tags the inline reader reads as an image with its dark variant. */
const pictureAsTags: Handle = (_state, element) => [
  { type: 'html', value: '<picture>' },
  ...element.children.filter((child): child is Element => child.type === 'element').map((child) => ({ type: 'html' as const, value: toHtml(child) })),
  { type: 'html', value: '</picture>' },
];

/** A `<pre>` in HTML content (a table's cell) as an mdast code node carrying the block it reads as. */
const preAsCode: Handle = (_state, element) => {
  const codeBlock = preCodeBlock(element);
  return { type: 'code', lang: (codeBlock.data.syntax as string | undefined) ?? null, value: (codeBlock.nodes as Block[]).map(plainText).join('\n'), data: { codeBlock } } as md.Code;
};

/**
 * The tag of GitBook's HTML form of a block, which it writes where its tag cannot go (in
 * a list item, in a table's cell): `<div data-gb-custom-block data-tag="hint"
 * data-style="info" class="hint hint-info">…</div>`, each of the tag's attributes as a
 * `data-` attribute (`data-line-numbers` for `lineNumbers`).
 */
export function customBlockTag(element: Element): Tag | undefined {
  const { dataGbCustomBlock, dataTag, ...properties } = element.properties;
  if (element.tagName !== 'div' || dataGbCustomBlock === undefined || typeof dataTag !== 'string' || !dataTag) return undefined;
  const attrs: Record<string, string> = {};
  for (const [key, value] of Object.entries(properties)) {
    if (/^data[A-Z]/.test(key) && value !== undefined && value !== null) attrs[key[4].toLowerCase() + key.slice(5)] = Array.isArray(value) ? value.join(' ') : String(value);
  }
  return { name: dataTag, closing: false, attrs, rest: '' };
}

/** A block's HTML form in HTML content (a table's cell) as a quote carrying its tag, which the converter reads as the tag would be (`tagBlocks`). */
const customBlockAsQuote: Handle = (state, element) => {
  const tag = customBlockTag(element);
  if (!tag) return defaultHandlers.div(state, element);
  return { type: 'blockquote', data: { gitbookTag: tag }, children: state.all(element) } as md.Blockquote;
};

/**
 * An expandable in HTML content (GitBook writes one in a table's cell as
 * `<details><summary>Title</summary><p>Body</p></details>`) as a quote carrying its
 * summary, which the converter reads as the expandable it is (`expandable`), rather than
 * its title and body as paragraphs of the cell.
 */
const detailsAsQuote: Handle = (state, element) => {
  const summary = element.children.find((child): child is Element => child.type === 'element' && child.tagName === 'summary');
  const body = { ...element, children: element.children.filter((child) => child !== summary) };
  const gitbookDetails = { summaryHtml: summary ? toHtml(summary) : '', open: element.properties.open !== undefined && element.properties.open !== false };
  return { type: 'blockquote', data: { gitbookDetails }, children: state.all(body) } as md.Blockquote;
};

/**
 * A `<p>` with the line breaks it starts or ends with: GitBook writes a paragraph ending
 * in a break so (`<td><a href="…">GitHub</a><br></td>`), which hast-util-to-mdast drops;
 * and an empty `<p></p>`, GitBook's empty paragraph between others, as one.
 */
const paragraphWithItsBreaks: Handle = (state, element) => {
  const children = state.all(element) as md.PhrasingContent[];
  const paragraph: md.Paragraph = { type: 'paragraph', children };
  state.patch(element, paragraph);
  return paragraph;
};

/** hast → mdast keeping GitBook's inline HTML forms as tags. */
const INLINE_FORM_HANDLERS: Record<string, Handle> = {
  ...Object.fromEntries(['mark', 'kbd', 'sup', 'sub', 'i', 'a', 'button', 'code', 'span'].map((name) => [name, keptAsTags])),
  p: paragraphWithItsBreaks,
  pre: preAsCode,
  picture: pictureAsTags,
  div: customBlockAsQuote,
  details: detailsAsQuote,
};

/**
 * A space of HTML text as GitBook wrote it, which hast-util-to-mdast would collapse or
 * drop as HTML's whitespace rules do: GitBook's HTML holds its text's spaces as they are
 * (`<code>x</code>  </td>`, `<summary>Title </summary>`, `<p>plans): </p>`). Put back
 * once read (`hastBlocks`).
 */
const KEPT_SPACE = '\uE000';

/**
 * The spaces of text in phrasing kept from HTML's whitespace rules: in text with words,
 * and in a run of spaces beside phrasing or alone in its element (`<td> </td>`), not in
 * the line breaks and indentation between blocks of HTML written by hand, nor in `<pre>`.
 */
function keepSpaces(nodes: ElementContent[]): ElementContent[] {
  return nodes.map((node, index) => {
    if (node.type === 'element') return node.tagName === 'pre' ? node : { ...node, children: keepSpaces(node.children) };
    if (node.type !== 'text' || /[\n\r\t]/.test(node.value) || node.value.includes(KEPT_SPACE)) return node;
    const besidePhrasing = [nodes[index - 1], nodes[index + 1]].some((sibling) => sibling !== undefined && sibling.type !== 'comment' && isHastPhrasing(sibling));
    return node.value.trim() || besidePhrasing || nodes.length === 1 ? { ...node, value: node.value.replace(/ /g, KEPT_SPACE) } : node;
  });
}

/** Elements holding blocks, whose loose text hast-util-to-mdast wraps in paragraphs. */
const FLOW_CONTAINERS = new Set(['li', 'blockquote', 'div', 'dd', 'figcaption', 'details', 'section', 'article', 'aside']);

/**
 * Runs of phrasing content (text between blocks, as a table cell or a list item holds)
 * put in `<p>`s: hast-util-to-mdast would wrap them itself, but as mdast counts an
 * `html` node as no phrasing, it would end a paragraph at each tag the handlers above keep.
 */
function inParagraphs(children: ElementContent[]): ElementContent[] {
  const out: ElementContent[] = [];
  let run: ElementContent[] = [];
  const close = () => {
    if (run.some((node) => !(node.type === 'text' && !node.value.trim()) && node.type !== 'comment')) out.push({ type: 'element', tagName: 'p', properties: {}, children: run });
    run = [];
  };
  for (const child of children) {
    if (isHastPhrasing(child)) run.push(child);
    else {
      close();
      out.push(withParagraphs(child));
    }
  }
  close();
  return out;
}

/** An element with the loose text of every flow container in it put in `<p>`s (inParagraphs). */
function withParagraphs(node: ElementContent): ElementContent {
  if (node.type !== 'element' || isHastPhrasing(node)) return node;
  return { ...node, children: FLOW_CONTAINERS.has(node.tagName) ? inParagraphs(node.children) : node.children.map(withParagraphs) };
}

/**
 * The URL of a srcset's first candidate: its text up to a width or density (`2x`,
 * `640w`), if it names one. GitBook writes a file's name as it is, spaces included
 * (`icon_dark (1).svg`), so a space does not end the URL.
 */
function srcSetUrl(srcSet: unknown): string {
  const value = String(Array.isArray(srcSet) ? srcSet.join(', ') : (srcSet ?? '')).trim();
  return /^(.*?)\s+\d+(?:\.\d+)?[wx]\s*(?:,|$)/.exec(value)?.[1] ?? value;
}

/**
 * For each node that opens something, the index of the node closing it, nesting counted
 * (-1 when none does), in one pass: `keyOf` says what a node opens or closes. Looking
 * ahead from each opener instead was quadratic in a page of openers never closed, as
 * GitBook writes `{% embed %}` (a 1 MB page of GitBook's blocks took 28 s to parse).
 */
function closingIndexes<T>(nodes: readonly T[], keyOf: (node: T, index: number) => { key: string; closing: boolean } | undefined): Int32Array {
  const closers = new Int32Array(nodes.length).fill(-1);
  const open = new Map<string, number[]>();
  nodes.forEach((node, index) => {
    const found = keyOf(node, index);
    if (!found) return;
    let openers = open.get(found.key);
    if (!openers) open.set(found.key, (openers = []));
    if (!found.closing) openers.push(index);
    else if (openers.length > 0) closers[openers.pop()!] = index;
  });
  return closers;
}

export function markdownToDocument(markdown: string, resolve: LinkResolver): JSONDocument {
  const { root, source } = parseGitBookMarkdown(markdown);
  const definitions = new Map<string, string>();
  const footnotes = new Map<string, md.FootnoteDefinition>();
  for (const node of root.children) {
    if (node.type === 'definition') definitions.set(node.identifier, node.url);
    if (node.type === 'footnoteDefinition') footnotes.set(node.identifier, node);
  }
  const sourceOf = (node: md.Node) => (node.position ? source.slice(node.position.start.offset, node.position.end.offset) : toString(node));
  const tagAt = (node: md.Node | undefined): Tag | undefined => (node?.type === 'paragraph' ? tagOf(sourceOf(node)) : undefined);

  /** A link target as a reference; undefined for a URL that could run script. */
  const refOf = (url: string, image = false): ContentRef | undefined => {
    const trimmed = url.trim();
    if (image && /^data:image\//i.test(trimmed)) return { kind: 'url', url: trimmed };
    return isStorableLinkUrl(trimmed) ? resolve(trimmed) : undefined;
  };

  const textWithEmoji = (value: string, marks: Mark[]): Phrasing =>
    textAndEmoji(value).map((piece) => ('code' in piece ? { object: 'inline', type: 'emoji', isVoid: true, data: { code: piece.code } } : text(piece.text, marks)));

  const inlineImage = (url: string, alt: string | undefined, extra: Record<string, unknown> = {}): Inline | undefined => {
    const ref = refOf(url, true);
    return ref ? { object: 'inline', type: 'inline-image', isVoid: true, data: defined({ ref, alt: alt || undefined, ...extra }) } : undefined;
  };

  /** An `<img>` in text, its properties read: its source, alt and size. */
  const imageOfImg = (props: Record<string, unknown>): Inline | undefined =>
    inlineImage(String(props.src ?? ''), props.alt === undefined ? undefined : String(props.alt), inlineImageSize(props.dataSize));

  const phrasing = (nodes: md.PhrasingContent[], marks: Mark[] = []): Phrasing => {
    const out: Phrasing = [];
    let htmlClosers: Int32Array | undefined;
    for (let index = 0; index < nodes.length; index++) {
      const node = nodes[index];
      switch (node.type) {
        case 'text':
          out.push(...textWithEmoji(node.value, marks));
          break;
        case 'strong':
          out.push(...phrasing(node.children, withMark(marks, markOf('bold'))));
          break;
        case 'emphasis':
          out.push(...phrasing(node.children, withMark(marks, markOf('italic'))));
          break;
        case 'delete':
          out.push(...phrasing(node.children, withMark(marks, markOf('strikethrough'))));
          break;
        case 'inlineCode':
          out.push(text(node.value, withMark(marks, markOf('code'))));
          break;
        case 'break':
          out.push(text('\n', marks));
          break;
        case 'inlineMath':
          out.push({ object: 'inline', type: 'inline-math', isVoid: true, data: { formula: node.value } });
          break;
        case 'link':
        case 'linkReference': {
          const url = node.type === 'link' ? node.url : definitions.get(node.identifier);
          if (url === undefined) {
            out.push(...textWithEmoji(sourceOf(node), marks));
            break;
          }
          const mention = /^(?:user:|\/?users\/)([A-Za-z0-9_-]+)$/.exec(url);
          if (mention) {
            out.push({ object: 'inline', type: 'mention', isVoid: true, data: { ref: { kind: 'user', user: mention[1] } } });
            break;
          }
          const ref = refOf(url);
          // GitBook writes a mention of a page as a link titled "mention", its text the target's name.
          if (ref && node.type === 'link' && node.title === 'mention') {
            out.push({ object: 'inline', type: 'mention', isVoid: true, data: { ref: withWrittenText(ref, toString(node.children, { includeHtml: false }), linkName(url)) } });
            break;
          }
          const children = phrasing(node.children, marks);
          out.push(...(ref ? [{ object: 'inline', type: 'link', isVoid: false, data: { ref }, nodes: children } as Inline] : children));
          break;
        }
        case 'image':
        case 'imageReference': {
          const url = node.type === 'image' ? node.url : definitions.get(node.identifier);
          const image = url === undefined ? undefined : inlineImage(url, node.alt ?? undefined);
          out.push(...(image ? [image] : textWithEmoji(node.alt ?? '', marks)));
          break;
        }
        case 'footnoteReference': {
          // An annotation covers the word just before its reference, as GitBook writes `word[^1]`.
          const previous = out.at(-1);
          let covered: TextNode = text('', marks);
          if (previous?.object === 'text') {
            const leaf = previous.leaves.at(-1)!;
            const word = /\S+$/.exec(leaf.text);
            if (word) {
              leaf.text = leaf.text.slice(0, word.index);
              covered = text(word[0], leaf.marks);
              if (leaf.text === '') out.pop();
            }
          }
          const body = footnotes.get(node.identifier);
          out.push({
            object: 'inline',
            type: 'annotation',
            isVoid: false,
            data: {},
            nodes: [covered],
            fragments: [{ object: 'fragment', fragment: 'annotation-body', type: 'annotation-body', nodes: body ? blocks(body.children) : [] }],
          });
          break;
        }
        case 'html': {
          htmlClosers ??= closingIndexes(nodes, (candidate) => {
            const tag = candidate.type === 'html' ? htmlTag(candidate.value) : undefined;
            return tag && { key: tag.name, closing: tag.closing === true };
          });
          const consumed = htmlInline(nodes, index, htmlClosers[index], marks, out);
          if (consumed === undefined) out.push(text(node.value, marks));
          else index = consumed;
          break;
        }
        default: {
          const other = node as md.Node & { children?: md.PhrasingContent[]; value?: string };
          if (other.children) out.push(...phrasing(other.children, marks));
          else out.push(text(other.value ?? sourceOf(other), marks));
        }
      }
    }
    return out;
  };

  /** Reads the inline HTML form at `index`, closed at `end`, into `out`; answers the last index it used, or undefined when it is no known form. */
  const htmlInline = (nodes: md.PhrasingContent[], index: number, end: number, marks: Mark[], out: Phrasing): number | undefined => {
    const tag = htmlTag((nodes[index] as md.Html).value);
    if (!tag || tag.closing) return undefined;
    const { name, props } = tag;
    if (name === 'br') {
      out.push(text('\n', marks));
      return index;
    }
    if (name === 'img') {
      const image = imageOfImg(props);
      if (!image) return undefined;
      out.push(image);
      return index;
    }
    if (end < 0) return undefined;
    const inner = nodes.slice(index + 1, end);
    const innerText = inner.map((node) => ('value' in node ? String(node.value) : sourceOf(node))).join('');
    const classes = classNames(props);
    if (name === 'mark') out.push(...phrasing(inner, withMark(marks, markOf('color', colorData(String(props.style ?? '')) ?? {}))));
    else if (name === 'code' && classes.includes('expression')) out.push({ object: 'inline', type: 'expression', isVoid: true, data: { expression: innerText } });
    else if (name === 'i' && classes.some((value) => value.startsWith('fa-'))) {
      const icon = classes.find((value) => value.startsWith('fa-'))!.slice(3);
      const color = props.style ? colorData(String(props.style))?.text : undefined;
      out.push({ object: 'inline', type: 'icon', isVoid: true, data: defined({ icon, color }) });
    } else if ((name === 'a' || name === 'button') && classes.includes('button')) {
      // `<a href>` leads somewhere; `<button data-action>` opens the search or the assistant.
      // An `<a>` with no `href` is GitBook's inactive button: it leads to no URL; so is a `<button>` with no action it knows.
      const action = name === 'button' ? buttonAction(props) : undefined;
      const target = action ? { action } : { ref: props.href === undefined ? { kind: 'url', url: '' } : refOf(String(props.href)) };
      if (!target.ref && !target.action) return undefined;
      const kind = classes.includes('secondary') ? 'secondary' : 'primary';
      out.push({ object: 'inline', type: 'button', isVoid: true, data: defined({ ...target, label: innerText, kind, icon: props.dataIcon as string | undefined }) });
    } else if (name === 'a' && typeof props.href === 'string') {
      const ref = refOf(props.href);
      if (ref && props.dataMention !== undefined) {
        out.push({ object: 'inline', type: 'mention', isVoid: true, data: { ref: withWrittenText(ref, toString(inner, { includeHtml: false }), linkName(props.href)) } });
        return end;
      }
      const children = phrasing(inner, marks);
      out.push(...(ref ? [{ object: 'inline', type: 'link', isVoid: false, data: { ref }, nodes: children } as Inline] : children));
    } else if (name === 'picture') {
      const image = pictureImage(inner.map((node) => ('value' in node ? String(node.value) : '')).join(''), { inline: true });
      if (!image) return undefined;
      out.push({ object: 'inline', type: 'inline-image', isVoid: true, data: image });
    } else if (name === 'span' && props.dataGbCustomInline !== undefined) {
      // GitBook's HTML form of an inline (an emoji in HTML): its code when it names one, its content otherwise.
      const code = props.dataTag === 'emoji' && typeof props.dataCode === 'string' && /^[0-9a-f]+(-[0-9a-f]+)*$/i.test(props.dataCode) ? props.dataCode.toLowerCase() : undefined;
      out.push(...(code ? [{ object: 'inline', type: 'emoji', isVoid: true, data: { code } } as Inline] : phrasing(inner, marks)));
    } else if (SIMPLE_MARK_TAGS[name]) out.push(...phrasing(inner, withMark(marks, markOf(SIMPLE_MARK_TAGS[name]))));
    else return undefined;
    return end;
  };

  /**
   * The data of an image written as `<picture>` (a dark source and an `<img>`) or `<img>`;
   * `inline`, with its size when it is sized to the line of text, as an `<img>` alone is read.
   */
  const pictureImage = (html: string, { inline = false } = {}): Record<string, unknown> | undefined => {
    const tree = fromHtml(html, { fragment: true });
    const img = findElement(tree, 'img');
    const dark = findElements(tree, 'source').find((source) => /dark/.test(String(source.properties.media ?? '')));
    const ref = img ? refOf(String(img.properties.src ?? ''), true) : undefined;
    if (!img || !ref) return undefined;
    const refDark = dark ? refOf(srcSetUrl(dark.properties.srcSet), true) : undefined;
    const { size } = inline ? inlineImageSize(img.properties.dataSize) : {};
    // A block image keeps an empty alt: GitBook writes `alt=""` for one its editor made, and nothing for one read from `![caption](src)`.
    const alt = img.properties.alt === undefined || (inline && !img.properties.alt) ? undefined : String(img.properties.alt);
    return defined({ ref, refDark, alt, size });
  };

  /** HTML content as blocks: read into mdast, loose phrasing wrapped in paragraphs, positions dropped (they point into the HTML). */
  const hastBlocks = (children: ElementContent[]): Block[] => {
    const tree = toMdast({ type: 'root', children: inParagraphs(keepSpaces(children)) } as HastRoot, { handlers: INLINE_FORM_HANDLERS }) as md.Root;
    // Positions dropped (they point into the HTML), and the spaces keepSpaces kept put back.
    visit(tree, (node) => {
      delete node.position;
      if ('value' in node && typeof node.value === 'string') node.value = node.value.replaceAll(KEPT_SPACE, ' ');
    });
    const wrapped: md.RootContent[] = [];
    let loose: md.Paragraph | undefined;
    for (const node of tree.children) {
      if (!isPhrasing(node)) {
        wrapped.push(node);
        loose = undefined;
      } else if (loose) loose.children.push(node);
      else wrapped.push((loose = { type: 'paragraph', children: [node] }));
    }
    return blocks(wrapped);
  };

  /** `<figure>`s (in a `<div>` that may carry `data-full-width`/`data-with-frame`) as an images block, or a drawing. */
  const figures = (tree: HastRoot): Block | undefined => {
    const top = tree.children.filter((child): child is Element => child.type === 'element');
    if (top.length === 0 || tree.children.some((child) => child.type === 'text' && child.value.trim() !== '')) return undefined;
    let wrapper: Element | undefined;
    let items: Element[] = top;
    if (top.length === 1 && top[0].tagName === 'div') {
      wrapper = top[0];
      items = top[0].children.filter((child): child is Element => child.type === 'element');
      // A `<div>` of text is no figure: read as images, its words were dropped.
      if (items.length === 0 || top[0].children.some((child) => child.type === 'text' && child.value.trim() !== '')) return undefined;
    }
    if (items.length === 1 && items[0].tagName === 'img' && classNames(items[0].properties).includes('gitbook-drawing')) {
      const ref = refOf(String(items[0].properties.src ?? ''), true);
      // GitBook writes a drawing's caption as its `alt`.
      const alt = String(items[0].properties.alt ?? '').trim();
      const fragments = captionFragments(alt ? [block('paragraph', [text(alt)])] : []);
      return voidBlock('drawing', ref ? { ref } : {}, fragments.length ? { fragments } : {});
    }
    if (!items.every((item) => item.tagName === 'figure' || item.tagName === 'img' || item.tagName === 'picture')) return undefined;
    const images: Block[] = [];
    for (const item of items) {
      const figcaption = item.tagName === 'figure' ? findElement(item, 'figcaption') : undefined;
      const img = item.tagName === 'img' ? item : findElement(item, 'img');
      if (img && classNames(img.properties).includes('gitbook-drawing')) return undefined;
      const data = pictureImage(htmlOf(item.tagName === 'figure' ? item.children.filter((child) => child !== figcaption) : [item]));
      if (!data) return undefined;
      const width = img?.properties.width;
      if (width !== undefined) data.width = length(String(width));
      const caption = figcaption ? hastBlocks(figcaption.children).filter((node) => node.type === 'paragraph') : [];
      // An empty `<figcaption>` is the empty caption GitBook's editor gives each image, which a figure without one has not.
      images.push(voidBlock('image', defined(data), { fragments: captionFragments(figcaption && caption.length === 0 ? [emptyParagraph()] : caption) }));
    }
    const props = wrapper?.properties ?? {};
    const { dataFullWidth, dataWithFrame, align } = props as Record<string, string | undefined>;
    return block('images', images, defined({ fullWidth: bool(dataFullWidth), withFrame: bool(dataWithFrame), align }));
  };

  /** An HTML `<table>`: a cards view (`data-view="cards"`) or a grid with rich cells. */
  const htmlTable = (table: Element): Block => {
    const rows = findElements(table, 'tr');
    const headerCells = findElements(findElement(table, 'thead') ?? rows[0], 'th');
    const bodyRows = rows.filter((row) => findElements(row, 'td').length > 0);
    const cards = table.properties.dataView === 'cards';
    const definition: Record<string, Record<string, unknown>> = {};
    const columns: string[] = [];
    const view: Record<string, unknown> = cards
      ? defined({ type: 'cards', cardSize: (table.properties.dataCardSize as string) ?? 'medium', columns, wrap: bool(table.properties.dataCardWrap as string | undefined) })
      : { type: 'grid', columns, hideHeader: table.properties.dataHeaderHidden !== undefined };
    const fragments: Fragment[] = [];
    // Each body cell's column, past the cells that merged cells above and before it cover (`rowspan`, `colspan`): GitBook's `cellMerges`.
    const occupied = new Set<string>();
    const cellMerges: Array<{ anchor: { record: string; column: string }; rowSpan: number; colSpan: number }> = [];
    // The columns the header and the rows' cells name: a merged cell spans these, not columns of its own (a `colspan` of 1,000 makes none).
    const bodyCells = bodyRows.map((row) => findElements(row, 'td'));
    const named = Math.max(headerCells.length, ...bodyCells.map((cells) => cells.length));
    let width = headerCells.length;
    // Spans that overlap could cover the table many times over: past a few times its area, cells span no more.
    let spanBudget = 4 * bodyRows.length * named;
    const placedRows = bodyCells.map((cells, rowIndex) => {
      let column = 0;
      return cells.map((cell) => {
        while (occupied.has(`${rowIndex},${column}`)) column++;
        let colSpan = column < named ? Math.min(cellSpan(cell.properties.colSpan), named - column) : 1;
        let rowSpan = column < named ? Math.min(cellSpan(cell.properties.rowSpan), bodyRows.length - rowIndex) : 1;
        if (colSpan * rowSpan > spanBudget) [colSpan, rowSpan] = [1, 1];
        spanBudget -= colSpan * rowSpan;
        for (let r = rowIndex; r < rowIndex + rowSpan; r++) for (let c = column; c < column + colSpan; c++) occupied.add(`${r},${c}`);
        if (colSpan > 1 || rowSpan > 1) cellMerges.push({ anchor: { record: `r${rowIndex}`, column: `c${column}` }, rowSpan, colSpan });
        const placed = { cell, column };
        column += colSpan;
        width = Math.max(width, column);
        return placed;
      });
    });
    for (let column = 0; column < width; column++) {
      const cell = headerCells[column];
      const props = cell?.properties ?? {};
      const id = `c${column}`;
      // A select column lists its options in its header: `<th>Status<select multiple><option value label color>`.
      const select = cell ? findElement(cell, 'select') : undefined;
      const type = (props.dataType as string) ?? (select ? 'select' : 'text');
      const verticalAlignment = ['top', 'middle', 'bottom'].includes(String(props.vAlign)) ? String(props.vAlign) : undefined;
      const options = select
        ? { multiple: select.properties.multiple !== undefined, options: findElements(select, 'option').map((option) => ({ value: String(option.properties.value ?? ''), label: String(option.properties.label ?? ''), color: String(option.properties.color ?? '') })) }
        : {};
      definition[id] = defined({ id, title: cell ? textOf(cell, '\n') : '', type, ...(type === 'text' ? { textAlignment: (props.align as string) ?? 'left', verticalAlignment } : {}), ...(type === 'select' ? options : {}) });
      const width = Number(props.width);
      if (!cards && props.width !== undefined && Number.isFinite(width)) view.columnWidths = { ...(view.columnWidths as Record<string, number> | undefined), [id]: width };
      if (props.dataHidden === undefined) columns.push(id);
      if (props.dataCardTarget !== undefined) view.targetDefinition = id;
      if (props.dataCardCover !== undefined) view.coverDefinition = id;
      if (props.dataCardCoverDark !== undefined) view.coverDefinitionDark = id;
    }
    const records: Record<string, unknown> = {};
    placedRows.forEach((cells, rowIndex) => {
      const values: Record<string, unknown> = {};
      cells.forEach(({ cell, column }) => {
        const id = `c${column}`;
        const type = definition[id]?.type;
        if (type === 'select') {
          values[id] = findElements(cell, 'span').map((span) => span.properties.dataOption).filter((value): value is string => typeof value === 'string');
          return;
        }
        const anchor = findElement(cell, 'a');
        if (type === 'content-ref' || type === 'files' || type === 'image') {
          const href = String(anchor?.properties.href ?? '');
          const ref = anchor ? refOf(href, type !== 'content-ref') : undefined;
          // A card's target keeps the words written for an address (another space's page's title, which GitBook writes).
          if (ref) values[id] = type === 'files' && ref.kind === 'file' ? [ref.file] : type === 'content-ref' ? withWrittenText(ref, textOf(anchor!), hasScheme(href) ? href : linkName(href)) : ref;
          return;
        }
        const fragment = `r${rowIndex}${id}`;
        fragments.push({ object: 'fragment', fragment, nodes: hastBlocks(cell.children) });
        values[id] = fragment;
      });
      records[`r${rowIndex}`] = { orderIndex: orderIndex(rowIndex), values };
    });
    const { dataFullWidth, dataSearch } = table.properties as Record<string, string | undefined>;
    return voidBlock('table', defined({ view, definition, records, cellMerges: cellMerges.length > 0 ? cellMerges : undefined, fullWidth: bool(dataFullWidth), search: bool(dataSearch) }), { fragments });
  };

  /** A paragraph or heading GitBook writes as `<p align>` or `<h2>`–`<h4>` with `align` (toMarkdown's headingLevel), when its content is text. */
  const alignedBlock = (element: Element): Block | undefined => {
    const align = TEXT_ALIGNMENTS[String(element.properties.align ?? '').toLowerCase()];
    if (!align || !/^(p|h[1-6])$/.test(element.tagName)) return undefined;
    // `<p align="center"><img …></p>`, as READMEs centre a logo: an images block, aligned as GitBook aligns one.
    const images = element.tagName === 'p' ? figures({ type: 'root', children: element.children }) : undefined;
    if (images?.type === 'images') return { ...images, data: { ...images.data, align: String(element.properties.align).toLowerCase() } };
    const [made, ...more] = hastBlocks([element]);
    if (!made || more.length > 0 || !(made.type === 'paragraph' || made.type.startsWith('heading-'))) return undefined;
    return { ...made, data: { ...made.data, align } };
  };

  const htmlBlock = (value: string): Block[] | undefined => {
    const tree = fromHtml(value, { fragment: true });
    const elements = tree.children.filter((child): child is Element => child.type === 'element');
    const alone = elements.length === 1 && tree.children.every((child) => child.type !== 'text' || !child.value.trim());
    // A block's HTML form, or an expandable written whole in HTML (`<details>` with its body, no blank line between).
    if (alone && (customBlockTag(elements[0]) || elements[0].tagName === 'details')) return hastBlocks(elements);
    if (alone && elements[0].tagName === 'table') return [htmlTable(elements[0])];
    if (alone && elements[0].tagName === 'pre') return [preCodeBlock(elements[0])];
    // GitBook writes a paragraph holding only a line break as `<br>` on its own line.
    if (alone && elements[0].tagName === 'br') return [block('paragraph', [text('\n')])];
    // An `<img>` with a size is an image in text, GitBook's paragraph holding only it (`<img … data-size="original">`), not an image block.
    if (alone && elements[0].tagName === 'img' && inlineImageSize(elements[0].properties.dataSize).size) {
      const image = imageOfImg(elements[0].properties);
      return image && [block('paragraph', [image])];
    }
    const made = (alone ? alignedBlock(elements[0]) : undefined) ?? figures(tree);
    return made && [made];
  };

  /**
   * A markdown table's cell GitBook wrote with blocks in HTML, as it does a cell of
   * several paragraphs or lines, or holding a hint (`| <p>One<br>two</p><p>Three</p> |`),
   * markdown inlines among the tags: read whole as HTML, as an HTML table's cell is.
   */
  const cellOfBlockHtml = (cell: md.TableCell): Block[] | undefined => {
    const holdsBlocks = cell.children.some((child) => {
      const tag = child.type === 'html' ? htmlTag(child.value) : undefined;
      return tag !== undefined && !tag.closing && (htmlBlockNames.includes(tag.name) || tag.name === 'pre');
    });
    if (!holdsBlocks) return undefined;
    // As a paragraph's content: a root's children would be written a line apart.
    const asParagraph = toHast({ type: 'paragraph', children: cell.children }, { allowDangerousHtml: true }) as Element;
    const html = toHtml(asParagraph.children, { allowDangerousHtml: true });
    return hastBlocks(fromHtml(html, { fragment: true }).children as ElementContent[]);
  };

  const gfmTable = (table: md.Table): Block => {
    const [header, ...rows] = table.children;
    const width = Math.max(0, ...table.children.map((row) => row.children.length));
    const columns = Array.from({ length: width }, (_, column) => {
      const align = table.align?.[column];
      return { title: header?.children[column] ? sourceText(header.children[column]) : '', textAlignment: align === 'center' ? 'center' : align === 'right' ? 'right' : 'left' };
    });
    return gridTable(columns, rows.map((row) => row.children.map((cell) => cellOfBlockHtml(cell) ?? [block('paragraph', phrasing(cell.children))])));
  };

  /**
   * A header cell's title as plain text, the way GitBook keeps column titles; one GitBook
   * wrote in HTML for its line breaks (`<p>Windows Server 2012,<br>Windows Server 2008</p>`) has them.
   */
  const sourceText = (cell: md.TableCell) => {
    const blocks = cellOfBlockHtml(cell);
    return blocks ? blocks.map((node) => phrasingText((node.nodes ?? []) as Phrasing)).join('\n').trim() : phrasingText(phrasing(cell.children)).trim();
  };

  const heading = (node: md.Heading): Block => {
    const children = [...node.children];
    let id: string | undefined;
    // GitBook writes a custom anchor as `<a href="#id" id="id"></a>` at the heading's end.
    const last = children.at(-1);
    const beforeLast = children.at(-2);
    if (last?.type === 'html' && beforeLast?.type === 'html' && last.value.trim() === '</a>') {
      const anchor = htmlTag(beforeLast.value);
      if (anchor?.name === 'a' && typeof anchor.props.id === 'string') {
        id = anchor.props.id;
        children.splice(-2, 2);
        // GitBook writes one space before the anchor: a space before it is the heading's own (`## DeepL  <a …>`).
        const tail = children.at(-1);
        if (tail?.type === 'text') tail.value = tail.value.replace(/ $/, '');
      }
    }
    // One level below its markdown, the page's title being the `#` (toMarkdown's headingLevel); deeper than `####` is a heading-3.
    return headingBlock(`heading-${Math.min(3, Math.max(1, node.depth - 1))}`, phrasing(children), id);
  };

  const code = (node: md.Code, data: Record<string, unknown> = {}): Block =>
    block(
      'code',
      node.value.split('\n').map((line) => block('code-line', [text(line)])),
      defined({ syntax: node.lang ?? undefined, ...data }),
    );

  /**
   * A tag's body beyond the link GitBook writes in it to its own target (regenerated on
   * writing): whatever else an older page put there (a legacy swagger block's
   * descriptions, say) stays, after the block, never dropped.
   */
  const beyondLink = (inner: md.RootContent[] | undefined, target: string | undefined): Block[] =>
    blocks((inner ?? []).filter((node) => !(node.type === 'paragraph' && node.children.length === 1 && (node.children[0].type === 'link' ? node.children[0].url === target : false))));

  /**
   * A block GitBook writes as a tag whose body is its caption (`{% embed %}`, `{% file %}`):
   * the body's first paragraph is the block's caption fragment, as GitBook's renderer
   * reads it; anything after it follows the block, never dropped. GitBook's earlier
   * format wrote the caption as an attribute (`caption="A video"`), read where no body gives one.
   */
  const withCaption = (made: Block, inner: md.RootContent[] | undefined, captionAttribute: string | undefined): Block[] => {
    const [first, ...rest] = blocks(inner ?? []);
    if (first?.type === 'paragraph') return [{ ...made, fragments: captionFragments([first]) }, ...rest];
    const captioned = captionAttribute ? { ...made, fragments: captionFragments([block('paragraph', [text(captionAttribute)])]) } : made;
    return [captioned, ...(first ? [first] : []), ...rest];
  };

  /**
   * Parameters, responses and summaries read from an API method block's tags, by the
   * blocks each is shown as until its method gathers them (apiMethodBlocks); a
   * parameter's description blocks are its own.
   */
  const apiParameters = new WeakMap<Block, ApiParameter>();
  const apiParameterDescriptions = new WeakSet<Block>();
  const apiResponses = new WeakSet<Block>();
  const apiSummaries = new WeakSet<Block>();

  /** A parameter as it reads standing alone: `name` (type, required), then its description. */
  const apiParameter = (parameter: ApiParameter): Block[] => {
    const label = block('paragraph', [text(parameter.name, [markOf('code')]), text(` (${[parameter.type, parameter.required ? 'required' : ''].filter(Boolean).join(', ')})`)]);
    apiParameters.set(label, parameter);
    for (const node of parameter.description) apiParameterDescriptions.add(node);
    return [label, ...parameter.description];
  };

  /**
   * An API method block of GitBook's earlier formats (`{% api-method %}`, `{% swagger
   * method path baseUrl summary %}`) as the standard blocks GitBook turned them into: its
   * summary as a heading, the method and URL, its description, a table of parameters
   * per group (name, type, required, description), and its responses as tabs named by
   * their status, each with its description and example.
   */
  const apiMethodBlocks = (head: { summary?: Block[]; method: string; url: string }, content: Block[]): Block[] => {
    const summary = head.summary ?? content.filter((node) => apiSummaries.has(node));
    const rows = content.filter((node) => apiParameters.has(node)).map((node) => apiParameters.get(node)!);
    const responses = content.filter((node) => apiResponses.has(node));
    const rest = content.filter((node) => !apiSummaries.has(node) && !apiParameters.has(node) && !apiParameterDescriptions.has(node) && !apiResponses.has(node));
    const methodLine = block('paragraph', [text(head.method.toUpperCase(), [markOf('code')]), text(' '), text(head.url, [markOf('code')])]);
    const tables = PARAMETER_GROUPS.flatMap((group) => {
      const inGroup = rows.filter((row) => row.group === group.title);
      return inGroup.length === 0 ? [] : [headingBlock('heading-3', [text(group.title)]), parameterTable(inGroup)];
    });
    const ungrouped = rows.filter((row) => !PARAMETER_GROUPS.some((group) => group.title === row.group));
    return [
      ...summary,
      methodLine,
      ...rest,
      ...tables,
      ...(ungrouped.length ? [headingBlock('heading-3', [text('Parameters')]), parameterTable(ungrouped)] : []),
      ...(responses.length ? [headingBlock('heading-3', [text('Responses')]), block('tabs', responses)] : []),
    ];
  };

  const parameterTable = (rows: ApiParameter[]): Block =>
    gridTable(
      [{ title: 'Name' }, { title: 'Type' }, { title: 'Required' }, { title: 'Description' }],
      rows.map((row) => [
        [block('paragraph', [text(row.name, [markOf('code')])])],
        [block('paragraph', [text(row.type)])],
        [block('paragraph', [text(row.required ? 'Yes' : 'No')])],
        row.description.length ? row.description : [emptyParagraph()],
      ]),
    );

  /** A response of an API method as a tab named by its status, its description first. */
  const apiResponse = (status: string, description: string | undefined, content: Block[]): Block => {
    const made = block('tabs-item', [...(description ? [block('paragraph', [text(description)])] : []), ...content], { title: status });
    apiResponses.add(made);
    return made;
  };

  /** The blocks a legacy tag (LEGACY_CONTAINER_TAGS, `page-ref`) makes. */
  const legacyTagBlocks = (tag: Tag, body: () => Block[]): Block[] | undefined => {
    const { attrs } = tag;
    const group = PARAMETER_GROUPS.find((candidate) => candidate.tag === tag.name);
    if (group) {
      const made = body();
      for (const node of made) {
        const parameter = apiParameters.get(node);
        if (parameter) parameter.group = group.title;
      }
      return made;
    }
    switch (tag.name) {
      case 'page-ref': {
        const ref = attrs.page ? refOf(attrs.page) : undefined;
        return ref ? [voidBlock('content-ref', { ref })] : undefined;
      }
      case 'code-tabs-item':
        return [block('tabs-item', body(), { title: attrs.title ?? '' })];
      case 'code-tabs': {
        const items = body();
        const [only] = items;
        // One tab was the earlier format's title of a code block.
        const onlyCode = items.length === 1 && only.type === 'tabs-item' && only.nodes?.length === 1 ? (only.nodes[0] as Block) : undefined;
        if (onlyCode?.type === 'code') return [{ ...onlyCode, data: { ...onlyCode.data, ...(only.data.title ? { title: only.data.title } : {}) } }];
        return [block('tabs', items)];
      }
      case 'api-method':
        return apiMethodBlocks({ method: attrs.method ?? '', url: `${attrs.host ?? ''}${attrs.path ?? ''}` }, body());
      case 'swagger':
        return apiMethodBlocks(
          { summary: attrs.summary ? [headingBlock('heading-2', [text(attrs.summary)])] : [], method: attrs.method ?? '', url: `${attrs.baseUrl ?? ''}${attrs.path ?? ''}` },
          body(),
        );
      case 'api-method-summary': {
        const made = body().map((node) => (node.type === 'paragraph' ? headingBlock('heading-2', node.nodes as Phrasing) : node));
        for (const node of made) apiSummaries.add(node);
        return made;
      }
      case 'api-method-parameter':
      case 'swagger-parameter':
        return apiParameter({
          name: attrs.name ?? '',
          type: attrs.type ?? '',
          required: attrs.required === 'true' || attrs.required === '',
          description: body(),
          group: PARAMETER_GROUPS.find((candidate) => candidate.in === attrs.in)?.title,
        });
      case 'api-method-response-example':
        return [apiResponse(attrs.httpCode ?? '', undefined, body())];
      case 'swagger-response':
        return [apiResponse(attrs.status ?? '', attrs.description, body())];
      default:
        // The description, spec, request and response of an API method, and an example's description: their blocks, in place.
        return LEGACY_CONTAINER_TAGS.has(tag.name) ? body() : undefined;
    }
  };

  /** The blocks a tag with a body makes, or undefined when the tag is not one Quire knows. */
  const tagBlocks = (tag: Tag, inner: md.RootContent[] | undefined): Block[] | undefined => {
    const { attrs } = tag;
    const body = () => blocks(inner ?? []);
    if (tag.name.startsWith('@')) {
      const [integration, blockId = ''] = tag.name.slice(1).split('/');
      const props = Object.fromEntries(Object.entries(attrs).map(([key, value]) => [key, propValue(value)]));
      return [voidBlock('integration', { integration, block: blockId, props }), ...body()];
    }
    if (LEGACY_CONTAINER_TAGS.has(tag.name) || tag.name === 'page-ref' || (tag.name === 'swagger' && !attrs.src && attrs.method)) return legacyTagBlocks(tag, body);
    switch (tag.name) {
      case 'hint':
        return [block('hint', body(), defined({ style: HINT_STYLES.has(attrs.style) ? attrs.style : 'info', icon: attrs.icon }))];
      case 'tabs':
        return [block('tabs', body(), defined({ fullWidth: bool(attrs.fullWidth) }))];
      case 'tab':
        return [block('tabs-item', body(), defined({ title: attrs.title ?? '', icon: attrs.icon }))];
      case 'stepper':
        return [block('stepper', body())];
      case 'step':
        return [block('stepper-step', body(), defined({ icon: attrs.icon }))];
      case 'columns':
        return [block('columns', body(), defined({ fullWidth: bool(attrs.fullWidth) }))];
      case 'column':
        return [block('column', body(), defined({ width: length(attrs.width), verticalAlignment: attrs.valign }))];
      case 'updates':
        return [block('updates', body(), { format: attrs.format ?? 'full' })];
      case 'update': {
        const tags = attrs.tags ? attrs.tags.split(',').map((tag) => ({ kind: 'tag', tag: tag.trim() })).filter((tag) => tag.tag) : undefined;
        return [block('update', body(), defined({ date: attrs.date ?? '', tags }))];
      }
      case 'if':
        return [block('if', body(), { expression: tag.rest })];
      case 'code': {
        const [first, ...rest] = inner ?? [];
        const data = defined({ title: attrs.title, overflow: attrs.overflow === 'wrap' ? 'wrap' : attrs.overflow === 'scroll' ? 'scroll' : undefined, lineNumbers: bool(attrs.lineNumbers), expandable: bool(attrs.expandable), fullWidth: bool(attrs.fullWidth) });
        if (first?.type !== 'code') return undefined;
        return [code(first, data), ...blocks(rest)];
      }
      case 'prompt': {
        const data = defined({ description: attrs.description ?? '', icon: attrs.icon, openInAIProviders: bool(attrs.openInAIProviders), defaultExpanded: attrs.defaultExpanded });
        const converted = body();
        return [block('prompt', converted.filter((node) => node.type === 'code'), data), ...converted.filter((node) => node.type !== 'code')];
      }
      case 'embed':
        return withCaption(voidBlock('embed', defined({ url: attrs.url ?? '', fullWidth: bool(attrs.fullWidth) })), inner, attrs.caption);
      case 'file': {
        const ref = attrs.src ? refOf(attrs.src) : undefined;
        return ref ? withCaption(voidBlock('file', { ref }), inner, attrs.caption) : undefined;
      }
      case 'content-ref': {
        const ref = attrs.url ? refOf(attrs.url) : undefined;
        // The link's words, where they are not those GitBook makes of the address (another space's page's title).
        const link = inner?.find((node): node is md.Paragraph => node.type === 'paragraph')?.children[0];
        const written = link?.type === 'link' && link.url === attrs.url ? toString(link.children, { includeHtml: false }) : '';
        return ref ? [voidBlock('content-ref', { ref: withWrittenText(ref, written, linkName(attrs.url!)) }), ...beyondLink(inner, attrs.url)] : undefined;
      }
      case 'openapi':
      case 'swagger': {
        const ref = attrs.src ? refOf(attrs.src) : undefined;
        const data = defined({ ref, path: attrs.path ?? '', method: attrs.method ?? '', expanded: bool(attrs.expanded), fullWidth: bool(attrs.fullWidth) });
        return ref ? [voidBlock('swagger', data), ...beyondLink(inner, attrs.src)] : undefined;
      }
      case 'openapi-operation':
        return [voidBlock('openapi-operation', defined({ ref: { kind: 'openapi', spec: attrs.spec ?? '' }, path: attrs.path ?? '', method: attrs.method ?? '', headless: bool(attrs.headless) }))];
      case 'openapi-schemas':
        return [voidBlock('openapi-schemas', defined({ ref: { kind: 'openapi', spec: attrs.spec ?? '' }, schemas: (attrs.schemas ?? '').split(',').map((name) => name.trim()).filter(Boolean), grouped: bool(attrs.grouped), title: attrs.title }))];
      case 'openapi-webhook':
        return [voidBlock('openapi-webhook', defined({ ref: { kind: 'openapi', spec: attrs.spec ?? '' }, name: attrs.name ?? '', method: attrs.method ?? '', headless: bool(attrs.headless) }))];
      case 'include': {
        const target = tag.argument ?? attrs.src ?? '';
        const id = /^\/?reusable-contents?\/([^/#?]+)$/.exec(target)?.[1] ?? target;
        return [voidBlock('reusable-content', { ref: { kind: 'reusable-content', reusableContent: id } })];
      }
      default:
        return undefined;
    }
  };

  /** A block as a `<div align>` around it leaves it: a paragraph or heading with its text's alignment, images with theirs; any other as it is. */
  const aligned = (made: Block, align: string): Block =>
    made.type === 'paragraph' || made.type.startsWith('heading-') ? { ...made, data: { ...made.data, align: TEXT_ALIGNMENTS[align] } }
    : made.type === 'images' ? { ...made, data: { ...made.data, align } }
    : made;

  const expandable = (summaryHtml: string, inner: md.RootContent[], open: boolean): Block => {
    const summary = findElement(fromHtml(summaryHtml, { fragment: true }), 'summary');
    const title = summary ? hastBlocks(summary.children).filter((node) => node.type === 'paragraph') : [];
    return voidBlock('expandable', defined({ defaultExpanded: open || undefined }), {
      fragments: [
        { object: 'fragment', fragment: 'expandable-title', type: 'expandable-title', nodes: title.length ? title : [emptyParagraph()] },
        { object: 'fragment', fragment: 'expandable-body', type: 'expandable-body', nodes: blocks(inner) },
      ],
    });
  };

  function blocks(nodes: md.RootContent[]): Block[] {
    const out: Block[] = [];
    const tags = nodes.map(tagAt);
    // Tags pair with tags of their name, `<details>` with `</details>`.
    const closers = closingIndexes(nodes, (node, index) => {
      const tag = tags[index];
      if (tag) return { key: `{% ${tag.name}`, closing: tag.closing };
      if (node.type !== 'html') return undefined;
      const value = node.value.trim();
      if (/^<details[\s>]/i.test(value)) return { key: '<details', closing: false };
      if (/^<\/details>\s*$/i.test(value)) return { key: '<details', closing: true };
      // A `<div>` alone on its lines around markdown (`<div align="center">`, blank line, blocks, blank line, `</div>`), as READMEs centre theirs.
      if (/^<div(\s[^<>]*)?>$/i.test(value)) return { key: '<div', closing: false };
      if (/^<\/div>$/i.test(value)) return { key: '<div', closing: true };
      return undefined;
    });
    for (let index = 0; index < nodes.length; index++) {
      const node = nodes[index];
      const tag = tags[index];
      if (tag && !tag.closing) {
        const container = CONTAINER_TAGS.has(tag.name) || LEGACY_CONTAINER_TAGS.has(tag.name);
        const known = container || OPTIONAL_BODY.has(tag.name) || tag.name.startsWith('@') || tag.name === 'include';
        const end = known && tag.name !== 'include' ? closers[index] : -1;
        // An earlier format's tag may be left open (GitBook wrote an API method's empty request so): it then holds nothing.
        if (known && (end >= 0 || !CONTAINER_TAGS.has(tag.name))) {
          const made = tagBlocks(tag, end >= 0 ? nodes.slice(index + 1, end) : undefined);
          if (made) {
            out.push(...made);
            if (end >= 0) index = end;
            continue;
          }
        }
      }
      switch (node.type) {
        case 'paragraph': {
          const only = node.children.filter((child) => !(child.type === 'text' && !child.value.trim()));
          if (only.length > 0 && only.every((child) => child.type === 'image')) {
            // GitBook's markdown form of an image block: `![caption](src)`, its words the caption, not the alt (its documentation, "Insert images").
            const images = (only as md.Image[]).flatMap((image) => {
              const ref = refOf(image.url, true);
              return ref ? [voidBlock('image', { ref }, { fragments: captionFragments(image.alt ? [block('paragraph', [text(image.alt)])] : []) })] : [];
            });
            if (images.length === only.length) {
              out.push(block('images', images));
              break;
            }
          }
          out.push(block('paragraph', phrasing(node.children)));
          break;
        }
        case 'heading':
          out.push(heading(node));
          break;
        case 'list': {
          // GFM reads a check only before text; a task that starts with another block is written `[ ]` on a line of its own.
          const checks = node.children.map((item) => {
            if (typeof item.checked === 'boolean') return { checked: item.checked, children: item.children };
            const first = item.children[0];
            const mark = first?.type === 'paragraph' && item.children.length > 1 ? /^\\?\[([ xX])\]$/.exec(sourceOf(first).trim()) : null;
            return mark ? { checked: mark[1] !== ' ', children: item.children.slice(1) } : { checked: undefined, children: item.children };
          });
          const tasks = checks.some((item) => item.checked !== undefined);
          const type = tasks ? 'list-tasks' : node.ordered ? 'list-ordered' : 'list-unordered';
          const items = checks.map((item) => block('list-item', blocks(item.children), tasks ? { checked: item.checked === true } : {}));
          out.push(block(type, items, node.ordered && !tasks && node.start !== null && node.start !== undefined && node.start !== 1 ? { start: node.start } : {}));
          break;
        }
        case 'blockquote': {
          const { gitbookTag, gitbookDetails } = (node.data ?? {}) as { gitbookTag?: Tag; gitbookDetails?: { summaryHtml: string; open: boolean } };
          if (gitbookDetails) {
            out.push(expandable(gitbookDetails.summaryHtml, node.children, gitbookDetails.open));
            break;
          }
          if (gitbookTag) {
            // A tag Quire does not know keeps its content.
            out.push(...(tagBlocks(gitbookTag, node.children) ?? blocks(node.children)));
            break;
          }
          const first = node.children[0];
          const alert = first?.type === 'paragraph' ? /^\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\][ \t]*(?:\n|$)/i.exec(sourceOf(first).replace(/^>\s?/, '')) : null;
          if (alert && first.type === 'paragraph') {
            // A GitHub alert: its marker line is dropped, the rest of the quote is the hint.
            const rest = first.children[0]?.type === 'text' ? { ...first, children: [{ ...first.children[0], value: first.children[0].value.replace(/^\[![A-Za-z]+\][ \t]*\n?/, '') }, ...first.children.slice(1)] } : first;
            const inner = [...(rest.children.some((child) => child.type !== 'text' || child.value.trim()) ? [rest] : []), ...node.children.slice(1)] as md.RootContent[];
            out.push(block('hint', blocks(inner), { style: ALERTS[alert[1].toUpperCase()] }));
            break;
          }
          out.push(block('blockquote', blocks(node.children)));
          break;
        }
        case 'code':
          out.push((node.data as { codeBlock?: Block } | undefined)?.codeBlock ?? code(node));
          break;
        case 'math':
          out.push(voidBlock('math', { formula: node.value }));
          break;
        case 'thematicBreak':
          out.push(voidBlock('divider', {}));
          break;
        case 'table':
          out.push(gfmTable(node));
          break;
        case 'html': {
          if (node.value.trim() === EMPTY_PARAGRAPH_LINE) {
            out.push(emptyParagraph());
            break;
          }
          const opening = /^<details(\s+open(?:="[^"]*")?)?\s*>/i.exec(node.value.trim());
          const end = closers[index];
          if (opening && end >= 0) {
            let summaryHtml = node.value.trim().slice(opening[0].length);
            let bodyStart = index + 1;
            const next = nodes[bodyStart];
            if (!/<summary/i.test(summaryHtml) && next?.type === 'html' && /^<summary/i.test(next.value.trim())) {
              summaryHtml = next.value;
              bodyStart++;
            }
            out.push(expandable(summaryHtml, nodes.slice(bodyStart, end), Boolean(opening[1])));
            index = end;
            break;
          }
          const alignment = /^<div\s+align=(?:"([a-z]+)"|'([a-z]+)'|([a-z]+))\s*>$/i.exec(node.value.trim());
          const align = alignment && (alignment[1] ?? alignment[2] ?? alignment[3]).toLowerCase();
          if (align && TEXT_ALIGNMENTS[align] && end >= 0) {
            // Markdown a `<div align>` wraps: its blocks, those GitBook aligns (paragraphs, headings, images) so aligned.
            out.push(...blocks(nodes.slice(index + 1, end)).map((made) => aligned(made, align)));
            index = end;
            break;
          }
          out.push(...(htmlBlock(node.value) ?? [block('paragraph', [text(node.value)])]));
          break;
        }
        case 'definition':
        case 'footnoteDefinition':
          break;
        default:
          // Nothing in mdast is dropped: whatever has no GitBook form stays as its text.
          out.push(block('paragraph', [text(sourceOf(node))]));
      }
    }
    return out;
  }

  return { object: 'document', data: {}, nodes: normalise(blocks(root.children)) };
}

/** A block's caption (an image's, an embed's, a file's, a drawing's): its `caption` fragment, none when it has no words. */
function captionFragments(paragraphs: Block[]): Fragment[] {
  return paragraphs.length ? [{ object: 'fragment', fragment: 'caption', nodes: paragraphs }] : [];
}

/** The words of texts and inlines, run together (an annotation's note, a fragment, left out). */
function phrasingText(nodes: Phrasing): string {
  return nodes.map((node) => (node.object === 'text' ? node.leaves.map((leaf) => leaf.text).join('') : phrasingText(node.nodes ?? []))).join('');
}

/** A heading with its anchor: the one written out (`id`), or the one its words make. */
function headingBlock(type: string, nodes: Phrasing, id?: string): Block {
  // An anchor written out is kept even where it is the computed one: it stays when the heading's words change.
  return { object: 'block', type, isVoid: false, data: id ? { id } : {}, meta: { id: id ?? anchorOfText(phrasingText(nodes)) }, nodes };
}

function orderIndex(index: number): string {
  return `a${index.toString(36).padStart(4, '0')}`;
}

function findElements(node: HastRoot | Element | undefined, tagName: string): Element[] {
  const found: Element[] = [];
  const visit = (current: HastRoot | Element) => {
    for (const child of current.children) {
      if (child.type !== 'element') continue;
      if (child.tagName === tagName) found.push(child);
      // Nested tables keep their own cells.
      if (!(tagName === 'tr' || tagName === 'td' || tagName === 'th') || child.tagName !== 'table') visit(child);
    }
  };
  if (node) visit(node);
  return found;
}

function findElement(node: HastRoot | Element | undefined, tagName: string): Element | undefined {
  return findElements(node, tagName)[0];
}

/** An element's text; `lineBreak`, when given, what a `<br>` is (a column's title keeps its lines: `<th><p>One,<br>two</p></th>`). */
function textOf(node: Element, lineBreak = ''): string {
  return node.children
    .map((child) => (child.type === 'text' ? child.value : child.type !== 'element' ? '' : child.tagName === 'br' ? lineBreak : textOf(child, lineBreak)))
    .join('')
    .trim();
}

function htmlOf(children: ElementContent[]): string {
  const write = (node: ElementContent): string => {
    if (node.type === 'text') return node.value;
    if (node.type !== 'element') return '';
    const attrs = Object.entries(node.properties)
      .map(([key, value]) => `${key === 'srcSet' ? 'srcset' : key}="${String(Array.isArray(value) ? value.join(' ') : value).replace(/"/g, '&quot;')}"`)
      .join(' ');
    return `<${node.tagName}${attrs ? ' ' + attrs : ''}>${node.children.map(write).join('')}</${node.tagName}>`;
  };
  return children.map(write).join('');
}

type AnyNode = Block | Inline | TextNode;

/**
 * Merges neighbouring texts and leaves with the same marks and drops empty leaves, so
 * that one document has one form whatever markdown spelled it.
 */
export function normalise<T extends AnyNode>(nodes: T[]): T[] {
  const out: AnyNode[] = [];
  for (const node of nodes) {
    if (node.object === 'text') {
      const leaves = node.leaves.filter((leaf) => leaf.text !== '');
      const previous = out.at(-1);
      if (previous?.object === 'text') previous.leaves.push(...leaves);
      else out.push({ object: 'text', leaves });
      continue;
    }
    if (node.nodes) node.nodes = normalise(node.nodes);
    for (const fragment of ('fragments' in node ? node.fragments : undefined) ?? []) fragment.nodes = normalise(fragment.nodes);
    out.push(node);
  }
  for (const node of out) {
    if (node.object !== 'text') continue;
    const merged: typeof node.leaves = [];
    for (const leaf of node.leaves) {
      const previous = merged.at(-1);
      if (previous && JSON.stringify(previous.marks) === JSON.stringify(leaf.marks)) previous.text += leaf.text;
      else merged.push({ ...leaf });
    }
    node.leaves = merged;
  }
  // A text with no leaves is kept only where it is a node's only content (GitBook's empty paragraph).
  const kept = out.filter((node) => node.object !== 'text' || node.leaves.length > 0);
  if (kept.length === 0 && out.length > 0) return [{ object: 'text', leaves: [{ object: 'leaf', text: '', marks: [] }] } as AnyNode] as T[];
  return kept as T[];
}
