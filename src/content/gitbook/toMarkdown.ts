// JSONDocument → GitBook-flavoured markdown, in GitBook's own normalised forms: the
// document becomes an mdast tree whose GitBook tags and HTML forms are raw `html`
// nodes, and remark writes it (escaping text as CommonMark needs). Reading the result
// gives the same document again.
import type { Element, ElementContent, Nodes as HastNodes } from 'hast';
import type * as md from 'mdast';
import { toHtml } from 'hast-util-to-html';
import { toHast, type Options as ToHastOptions } from 'mdast-util-to-hast';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import remarkStringify from 'remark-stringify';
import { defaultHandlers } from 'mdast-util-to-markdown';
import { unified, type Processor } from 'unified';
import { emojiName, glyphOf, nameReadsAlone } from './emoji.ts';
import { compactTags, tagOf, writeTag } from './tags.ts';
import { cellSpans, emptyBlocks, orderedRecords } from './tableCells.ts';
import { MARK_ORDER, hasScheme, linkName, optionLabel, writtenText, plainText, type Block, type ContentRef, type Fragment, type Inline, type JSONDocument, type Leaf, type LinkWriter, type Mark, type TextNode } from './model.ts';

type UnsafePattern = { character: string; before?: string };
type ToMarkdownExtension = { unsafe?: UnsafePattern[]; extensions?: ToMarkdownExtension[] };

/** remark-gfm's escapes of where an autolink literal could begin: an e-mail's `@`, `www.`'s dot, `http:`'s colon. */
const AUTOLINK_ESCAPES = new Set(['@ [+\\-.\\w]', '. [Ww]', ': [ps]']);

/**
 * GitBook writes `Lambda@Edge`, `Add new...` and `support@gitbook.com` as they are, and
 * reads no bare address as a link (fromMarkdown's `asGitBookReadsIt`): remark-gfm's
 * escapes for autolink literals (`Lambda\@Edge`, `new\...`) have nothing to guard. (The
 * patterns are made afresh for each processor: this one alone is changed.)
 */
function withoutAutolinkEscapes(this: Processor) {
  const narrow = (extension: ToMarkdownExtension) => {
    if (extension.unsafe) extension.unsafe = extension.unsafe.filter((pattern) => !AUTOLINK_ESCAPES.has(`${pattern.character} ${pattern.before}`));
    extension.extensions?.forEach(narrow);
  };
  ((this.data('toMarkdownExtensions') ?? []) as ToMarkdownExtension[]).forEach(narrow);
}

const writer = unified()
  .use(remarkGfm)
  .use(withoutAutolinkEscapes)
  .use(remarkMath, { singleDollarTextMath: false })
  .use(remarkStringify, {
    bullet: '*', emphasis: '_', strong: '*', fences: true, listItemIndent: 'mixed', incrementListMarker: true,
    // GitBook writes every link as `[text](url)`, `[me@x.test](mailto:me@x.test)` too, never as an autolink.
    resourceLink: true,
    // GitBook writes a divider as `***`. remark only steers a list's bullet clear of the
    // rule's character when it has not already switched bullets for an adjacent list,
    // so `- ---` came out as a bare divider. The rule option names a character no bullet
    // uses, and the divider takes the one its list's bullet is not.
    rule: '_',
    handlers: {
      thematicBreak: (_node, _parent, state) => (state.bulletCurrent === '*' ? '---' : '***'),
      // A paragraph that is one tag Quire keeps as text (a block it does not know) is written as it was, for GitBook to read.
      text: (node, parent, state, info) =>
        parent?.type === 'paragraph' && parent.children.length === 1 && tagOf(node.value) ? node.value : escapedAsGitBook(state.safe(node.value, info)),
      // An image's words (`![cbc\_encryption.png](src)`, the caption of GitBook's markdown form) are text too.
      image: (node, parent, state, info) => {
        const written = defaultHandlers.image(node, parent, state, info);
        const exitImage = state.enter('image');
        const exitLabel = state.enter('label');
        const words = state.safe(node.alt ?? '', { before: '![', after: ']' });
        exitLabel();
        exitImage();
        return written.startsWith(`![${words}](`) ? `![${escapedAsGitBook(words)}${written.slice(2 + words.length)}` : written;
      },
    },
  });

/**
 * Text escaped as GitBook escapes it, beyond what remark does: every underscore
 * (`user\_id`; remark escapes only one that could open or close emphasis), and a tag's
 * delimiters in words (`\{%customer.name%\}`), which would otherwise read as a tag.
 * Takes text remark has escaped.
 */
function escapedAsGitBook(written: string): string {
  return written
    .replace(/(\\*)_/g, (run, backslashes: string) => (backslashes.length % 2 === 0 ? `${backslashes}\\_` : run))
    .replace(/\{%([\s\S]*?)%\}/g, '\\{%$1%\\}');
}

const raw = (value: string): md.Html => ({ type: 'html', value });

/** A page's title as the `# …` line GitBook writes it: plain text, escaped as text is (`disable\_functions`, `\[updated]`). */
export function titleHeading(title: string): string {
  return String(writer.stringify({ type: 'root', children: [{ type: 'heading', depth: 1, children: [{ type: 'text', value: title }] }] })).trimEnd();
}

/**
 * A code block as GitBook's `<pre>` HTML, the form it writes code with highlighted lines
 * in, and code in a table's cell: `<pre class="language-yaml" data-title data-overflow
 * data-line-numbers data-full-width><code class="lang-yaml">`, every line ended, a
 * highlighted one in a `<strong>` with its line end.
 */
function preElement(node: Block): Element {
  const data = node.data ?? {};
  const syntax = typeof data.syntax === 'string' && data.syntax ? data.syntax : undefined;
  const lines = ((node.nodes ?? []) as Block[]).map((line): ElementContent => {
    const value = { type: 'text' as const, value: `${plainText(line)}\n` };
    return line.data?.highlighted === true ? { type: 'element', tagName: 'strong', properties: {}, children: [value] } : value;
  });
  return {
    type: 'element',
    tagName: 'pre',
    properties: {
      className: syntax ? [`language-${syntax}`] : undefined,
      dataTitle: typeof data.title === 'string' ? data.title : undefined,
      dataOverflow: typeof data.overflow === 'string' ? data.overflow : undefined,
      dataLineNumbers: data.lineNumbers === true ? true : booleanText(data.lineNumbers),
      dataFullWidth: booleanText(data.fullWidth),
      dataExpandable: booleanText(data.expandable),
    },
    children: [{ type: 'element', tagName: 'code', properties: { className: syntax ? [`lang-${syntax}`] : undefined }, children: lines }],
  };
}

/**
 * mdast → hast as GitBook writes HTML: a mention (a link titled "mention") as
 * `<a data-mention href>`; targets as they are (`Premium Badge.png`), where
 * mdast-util-to-hast would percent-encode them.
 */
const HTML_FORM_HANDLERS: NonNullable<ToHastOptions['handlers']> = {
  link: (state, node: md.Link) => {
    const mention = node.title === 'mention';
    const properties = mention ? { dataMention: true, href: node.url } : { href: node.url, title: node.title ?? undefined };
    return { type: 'element', tagName: 'a', properties, children: state.all(node) };
  },
  image: (_state, node: md.Image) => ({ type: 'element', tagName: 'img', properties: { src: node.url, alt: node.alt ?? '', title: node.title ?? undefined }, children: [] }),
};

/**
 * HTML content written on one line, as a table is, with the line ends hast puts between
 * blocks left out (forms written as raw HTML are already one line, but for code). A code
 * block keeps its lines; a blank one (which would end the table's HTML block in
 * markdown) has its line end written as a reference.
 */
function htmlOnOneLine(tree: HastNodes): string {
  const strip = (node: HastNodes, inPre: boolean) => {
    if (node.type === 'text' && !inPre) node.value = node.value.replace(/\n+/g, '');
    if ('children' in node) for (const child of node.children) strip(child as HastNodes, inPre || (node.type === 'element' && node.tagName === 'pre'));
  };
  strip(tree, false);
  return toHtml(tree, { allowDangerousHtml: true }).replace(/\n(?=[ \t]*\n)/g, '&#xA;');
}

/** The opening tag of a heading's custom anchor, as GitBook writes it at the heading's end: `<a href="#id" id="id">`. */
function headingAnchor(id: string): string {
  return `<a href="#${attributeText(id)}" id="${attributeText(id)}">`;
}

/** Inlines HTML has no form for, which an aligned paragraph or heading is written without its alignment to keep. */
const INLINES_WITHOUT_HTML = new Set(['inline-math', 'annotation']);

/** Blocks written in HTML as they read back: a hint's HTML form holds only these. */
const BLOCKS_WITH_HTML = new Set(['paragraph', 'heading-1', 'heading-2', 'heading-3', 'list-ordered', 'list-unordered', 'list-item', 'code', 'code-line']);

/** Whether nodes, and all they hold, have an HTML form that reads back as they are. */
function holdsOnlyHtmlForms(nodes: Array<Block | Inline | TextNode>): boolean {
  return nodes.every(
    (child) => child.object === 'text' || ((child.object === 'block' ? BLOCKS_WITH_HTML.has(child.type) : !INLINES_WITHOUT_HTML.has(child.type)) && holdsOnlyHtmlForms(child.nodes ?? [])),
  );
}

/** Whether a paragraph or heading is written as GitBook's aligned HTML: it has an alignment, and its inlines all have an HTML form. */
function alignedAsHtml(node: Block): boolean {
  return Boolean(TEXT_ALIGN_ATTRIBUTES[node.data?.align as string]) && holdsOnlyHtmlForms(node.nodes ?? []);
}

/**
 * The level a heading is written at, in markdown (`##`) and in HTML (`<h2>`): one below
 * its type, the page's title being the `#` (GitBook's documentation, "Heading": synced
 * with Git, "page headers added through the editor will be represented as one level
 * lower", `## My heading 1` … `#### My heading 3`; its renderer shows heading-3 as `<h4>`).
 */
function headingLevel(type: string): 2 | 3 | 4 {
  return (Math.min(3, Math.max(1, Number(type.slice(-1)) || 1)) + 1) as 2 | 3 | 4;
}

/** A paragraph's or heading's TextAlignment as the `align` attribute GitBook writes it with (none when the data has none). */
const TEXT_ALIGN_ATTRIBUTES: Record<string, string> = { start: 'left', center: 'center', end: 'right' };

/** A column's alignments as the `valign` and `align` GitBook writes on its header and each of its cells (none for left, the default). */
function columnAlignments(column: { type: string; textAlignment?: string; verticalAlignment?: string } | undefined): { valign?: string; align?: string } {
  return { valign: column?.verticalAlignment, align: column?.type === 'text' && column.textAlignment !== 'left' ? column.textAlignment : undefined };
}

type SelectColumn = { multiple?: boolean; options?: Array<{ value: string; label: string; color: string }> };

/** A select column's options, as GitBook writes them in its header cell: `<select multiple><option value label color></option></select>`. */
function selectHtml(column: SelectColumn): string {
  const options = (column.options ?? []).map((option) => `<option${attributes({ value: option.value, label: option.label, color: option.color })}></option>`);
  return `<select${column.multiple ? ' multiple' : ''}>${options.join('')}</select>`;
}

/** A select cell's chosen options as GitBook writes them: each a `<span data-option>` of its label, all but the last followed by ", ". */
function selectedHtml(column: SelectColumn, value: unknown): string {
  const chosen = (Array.isArray(value) ? value : []).map(String);
  return chosen
    .map((option, index) => {
      const label = optionLabel(column.options, option);
      return `<span data-option="${attributeText(option)}">${htmlText(label)}${index < chosen.length - 1 ? ', ' : ''}</span>`;
    })
    .join('');
}

export const brokenLinkTo = (kind: 'pages' | 'files', id: string): string => `/broken/${kind}/${id}`;

/** A character as the hexadecimal reference hast-util-to-html writes, as GitBook does (`&#x26;`). */
const hexReference = (character: string): string => `&#x${character.charCodeAt(0).toString(16).toUpperCase()};`;

/** A value for a double-quoted HTML attribute, as GitBook writes it: `&#x26;`, `&#x22;`, `&#x27;`. */
function attributeText(value: string): string {
  return value.replace(/[&"']/g, hexReference);
}

/** Text inside HTML, as GitBook writes it: `&#x26;` and `&#x3C;`, the rest as is. */
function htmlText(value: string): string {
  return value.replace(/[&<]/g, hexReference);
}

function attributes(attrs: Record<string, string | number | boolean | undefined>): string {
  return Object.entries(attrs)
    .filter(([, value]) => value !== undefined && value !== false)
    .map(([key, value]) => (value === true ? ` ${key}` : ` ${key}="${attributeText(String(value))}"`))
    .join('');
}

/** A boolean as the `"true"` or `"false"` of an attribute GitBook writes either way, none when unset. */
function booleanText(value: unknown): 'true' | 'false' | undefined {
  return value === true ? 'true' : value === false ? 'false' : undefined;
}

function lengthText(value: unknown): string | undefined {
  if (typeof value === 'number') return String(value);
  if (value && typeof value === 'object' && 'value' in value) return `${(value as { value: number }).value}${(value as { unit?: string }).unit ?? ''}`;
  return undefined;
}

type Item = { marks: Mark[]; node: md.PhrasingContent[] };

/** A paragraph's words when it holds nothing else (no marks, inlines or line breaks), as an image's markdown form can carry them; otherwise undefined. */
function plainWords(paragraph: Block): string | undefined {
  if (paragraph.type !== 'paragraph') return undefined;
  const nodes = (paragraph.nodes ?? []) as Array<TextNode | Inline>;
  if (!nodes.every((node) => node.object === 'text' && node.leaves.every((leaf) => (leaf.marks ?? []).length === 0))) return undefined;
  const words = nodes.map((node) => (node as TextNode).leaves.map((leaf) => leaf.text).join('')).join('');
  return words.includes('\n') ? undefined : words;
}

/** A column's title in HTML: its text, or where it breaks a line GitBook's form for it, `<p>one<br>two</p>`. */
function titleHtml(title: string): string {
  return title.includes('\n') ? `<p>${title.split('\n').map(htmlText).join('<br>')}</p>` : htmlText(title);
}

/** A column's title in a pipe table's header: its text, or its HTML where it breaks a line. */
function pipeTitle(title: string): md.PhrasingContent {
  return title.includes('\n') ? htmlInPipeRow(titleHtml(title)) : { type: 'text', value: title };
}

/** HTML in a pipe table's row, a `|` written as its reference: the row's pipes part it before any HTML is read. */
function htmlInPipeRow(html: string): md.Html {
  return { type: 'html', value: html.replace(/\|/g, '&#x7C;') };
}

/** An emoji inline in its HTML form, which GitBook writes in HTML and which reads back by its code wherever it is. */
function emojiInHtml(code: string): md.Html {
  return { type: 'html', value: `<span data-gb-custom-inline data-tag="emoji" data-code="${attributeText(code)}">${htmlText(glyphOf(code))}</span>` };
}

/**
 * An emoji inline in markdown, by its name as GitBook writes it (a text node: its
 * underscores are escaped as every other's, `:white\_check\_mark:`). One without a
 * name, or whose name would touch a word and read as text, takes its HTML form.
 */
function emojiInMarkdown(code: string, before: string, after: string): md.PhrasingContent {
  const name = emojiName(code);
  return name && nameReadsAlone(before, after) ? { type: 'text', value: `:${name}:` } : emojiInHtml(code);
}

/** The text a neighbour of an inline puts right beside it when written without marks (marks part it from the inline), or ''. */
function unmarkedText(node: TextNode | Inline | undefined, side: 'start' | 'end'): string {
  if (node?.object !== 'text') return '';
  const leaf = side === 'start' ? node.leaves[0] : node.leaves.at(-1);
  return leaf && leaf.marks.length === 0 ? leaf.text : '';
}

function sameMark(a: Mark, b: Mark): boolean {
  return a.type === b.type && JSON.stringify(a.data ?? {}) === JSON.stringify(b.data ?? {});
}

function wrap(mark: Mark, children: md.PhrasingContent[]): md.PhrasingContent[] {
  switch (mark.type) {
    case 'bold':
      return [{ type: 'strong', children }];
    case 'italic':
      return [{ type: 'emphasis', children }];
    case 'strikethrough':
      return [{ type: 'delete', children }];
    case 'keyboard':
      return [raw('<kbd>'), ...children, raw('</kbd>')];
    case 'superscript':
      return [raw('<sup>'), ...children, raw('</sup>')];
    case 'subscript':
      return [raw('<sub>'), ...children, raw('</sub>')];
    case 'color': {
      const style = `${mark.data?.text ? `color:${mark.data.text};` : ''}${mark.data?.background ? `background-color:${mark.data.background};` : ''}`;
      return [raw(`<mark style="${attributeText(style)}">`), ...children, raw('</mark>')];
    }
    default:
      return children;
  }
}

/** Marks in the order GitBook nests them when they cover the same text, outermost first; code is written as code, inside all. */
const OUTER_MARK_ORDER = ['italic', 'bold', ...MARK_ORDER.filter((type) => type !== 'italic' && type !== 'bold' && type !== 'code' && type !== 'color')];

const colorOf = (item: Item): Mark | undefined => item.marks.find((mark) => mark.type === 'color');

/** The mark written outermost around an item's text: its colour, else the first of its marks in GitBook's order. */
function outermost(item: Item): Mark | undefined {
  return colorOf(item) ?? OUTER_MARK_ORDER.map((type) => item.marks.find((mark) => mark.type === type)).find((mark) => mark !== undefined);
}

/** Whether `mark` is the outermost of an item's marks too, and so runs on around it. */
function runsOnInto(item: Item, mark: Mark): boolean {
  const outer = outermost(item);
  return outer !== undefined && sameMark(outer, mark);
}

/**
 * Nests marks as GitBook writes them, each mark in one order (italic, bold, then the
 * others; code inside all): a mark opened for one text runs on into its neighbours only
 * while it is the outermost of theirs too, so `_**not** the ID_` shares its italic, and
 * a bold word in italic inside bold text closes the bold first (`**from&#x20;**_**outside**_**&#x20;GitBook**`).
 * A colour (an HTML `<mark>`) is outermost and no other mark runs across its ends
 * (`**Note**<mark style="color:red;">**:**</mark>`).
 */
function group(items: Item[]): md.PhrasingContent[] {
  const out: md.PhrasingContent[] = [];
  for (let index = 0; index < items.length; ) {
    const outer = outermost(items[index]);
    if (!outer) {
      out.push(...items[index].node);
      index++;
      continue;
    }
    let end = index + 1;
    while (end < items.length && runsOnInto(items[end], outer)) end++;
    const inner = items.slice(index, end).map((item) => ({ ...item, marks: item.marks.filter((mark) => !sameMark(mark, outer)) }));
    out.push(...wrap(outer, group(inner)));
    index = end;
  }
  return out;
}

function leafNodes(leaf: Leaf): md.PhrasingContent[] {
  if (leaf.marks.some((mark) => mark.type === 'code')) return [{ type: 'inlineCode', value: leaf.text }];
  return leaf.text.split('\n').flatMap((part, index): md.PhrasingContent[] => [
    ...(index > 0 ? [{ type: 'break' } as md.Break] : []),
    ...(part ? [{ type: 'text', value: part } as md.Text] : []),
  ]);
}

export interface MarkdownContext {
  link: LinkWriter;
  /**
   * Where the organization's OpenAPI spec of this name is published, when a repository is
   * written: GitBook writes it in the body of a block that shows part of the spec.
   */
  openApiSpecUrl?: (spec: string) => string | undefined;
}

/**
 * Each block and inline given the `data` GitBook's schema lets a client leave out (a
 * paragraph's, an inline's), and each leaf its marks, as GitBook's own documents have
 * them: this writer reads them on every node. Without, a table of such paragraphs
 * answered 500.
 */
function withData(nodes: unknown[]): Array<Block | Inline | TextNode> {
  return nodes.map((node) => {
    const value = node as Record<string, unknown>;
    if (value?.object === 'text' && Array.isArray(value.leaves)) {
      return { ...value, leaves: value.leaves.map((leaf: Record<string, unknown>) => ({ ...leaf, marks: leaf.marks ?? [] })) } as TextNode;
    }
    if (value?.object !== 'block' && value?.object !== 'inline') return node as TextNode;
    const fragments = Array.isArray(value.fragments) ? value.fragments.map((fragment: Record<string, unknown>) => ({ ...fragment, nodes: withData((fragment.nodes as unknown[]) ?? []) })) : undefined;
    return {
      ...value,
      data: value.data ?? {},
      ...(Array.isArray(value.nodes) ? { nodes: withData(value.nodes) } : {}),
      ...(fragments ? { fragments } : {}),
    } as Block | Inline;
  });
}

export function documentToMarkdown(sent: Pick<JSONDocument, 'nodes'>, context: MarkdownContext): string {
  const document = { nodes: withData(sent.nodes) as JSONDocument['nodes'] };
  const footnotes: md.FootnoteDefinition[] = [];
  // A document sent by a client may hold anything where a reference belongs: it writes as no target.
  const href = (ref: unknown): string =>
    ref && typeof ref === 'object' && typeof (ref as { kind?: unknown }).kind === 'string' ? (context.link(ref as ContentRef) ?? '') : '';

  /** How deep what is being written is in HTML (a table's cell, a caption), where code is GitBook's `<pre>` form and an emoji its `<span>`. */
  let htmlDepth = 0;
  /** How deep the blocks being written are in list items, where GitBook writes a hint in its HTML form. */
  let listItemDepth = 0;
  const writtenInHtml = (write: () => HastNodes): string => {
    htmlDepth++;
    try {
      return htmlOnOneLine(write());
    } finally {
      htmlDepth--;
    }
  };

  const phrasingHtml = (nodes: Array<TextNode | Inline>): string =>
    writtenInHtml(() => toHast({ type: 'paragraph', children: phrasing(nodes) }, { allowDangerousHtml: true, handlers: HTML_FORM_HANDLERS })).replace(/^<p>|<\/p>$/g, '');

  const blocksHtml = (nodes: Block[]): string =>
    writtenInHtml(() => toHast({ type: 'root', children: blocks(nodes) }, { allowDangerousHtml: true, handlers: HTML_FORM_HANDLERS }));

  /** Whether GitBook writes a block in a pipe table's cell (in HTML there but for a lone paragraph): paragraphs and lists. */
  const inPipeCell = (node: Block): boolean =>
    (node.type === 'paragraph' && !alignedAsHtml(node)) ||
    ((node.type === 'list-unordered' || node.type === 'list-ordered') && ((node.nodes ?? []) as Block[]).every((item) => ((item.nodes ?? []) as Block[]).every(inPipeCell)));

  /** A pipe table's cell: a paragraph as markdown; several blocks, or a paragraph that breaks a line or has a space at an end, in HTML, as GitBook writes them in a row (`| <p>HOST</p><p>RPCSS</p> |`, `| <p>Tiles:</p><ul><li>Title</li></ul> |`). */
  const pipeCell = (nodes: Block[]): md.PhrasingContent[] => {
    if (nodes.length === 0) return [];
    // A row's cell is trimmed: a paragraph starting or ending with a space keeps it only in HTML.
    if (nodes.length === 1 && nodes[0].type === 'paragraph' && !/\n|^\s|\s$/.test(plainText(nodes[0]))) return paragraph(nodes[0].nodes).children;
    return [htmlInPipeRow(blocksHtml(nodes))];
  };

  /** A table cell's content: a lone paragraph as its text alone, as GitBook writes it (`<td>Text</td>`). */
  const cellHtml = (nodes: Block[]): string =>
    nodes.length === 1 && nodes[0].type === 'paragraph' && !alignedAsHtml(nodes[0]) ? phrasingHtml((nodes[0].nodes ?? []) as Array<TextNode | Inline>) : blocksHtml(nodes);

  function phrasing(nodes: Array<TextNode | Inline>): md.PhrasingContent[] {
    const items: Item[] = [];
    nodes.forEach((node, index) => {
      if (node.object === 'text') {
        for (const leaf of node.leaves) items.push({ marks: leaf.marks, node: leafNodes(leaf) });
        return;
      }
      if (node.type === 'emoji' && htmlDepth === 0) {
        items.push({ marks: [], node: [emojiInMarkdown(String(node.data.code ?? ''), unmarkedText(nodes[index - 1], 'end'), unmarkedText(nodes[index + 1], 'start'))] });
        return;
      }
      items.push({ marks: [], node: inline(node) });
    });
    return group(items);
  }

  function inline(node: Inline): md.PhrasingContent[] {
    const data = node.data;
    switch (node.type) {
      case 'link':
        return [{ type: 'link', url: href(data.ref), children: phrasing(node.nodes ?? []) }];
      case 'inline-image': {
        const src = href(data.ref);
        // GitBook writes an image with a size (`line`, `original`) or a dark source in HTML, which alone holds them.
        if (data.size !== undefined || data.refDark) {
          const img = `<img src="${attributeText(src)}"${attributes({ alt: (data.alt as string | undefined) ?? '', 'data-size': data.size as string | undefined })}>`;
          return [raw(data.refDark ? `<picture><source srcset="${attributeText(href(data.refDark))}" media="(prefers-color-scheme: dark)">${img}</picture>` : img)];
        }
        return [{ type: 'image', url: src, alt: (data.alt as string | undefined) ?? '' }];
      }
      case 'emoji':
        return [emojiInHtml(String(data.code ?? ''))];
      case 'icon':
        return [raw(`<i class="fa-${attributeText(String(data.icon))}"${data.color ? ` style="color:${attributeText(String(data.color))};"` : ''}>:${htmlText(String(data.icon))}:</i>`)];
      case 'inline-math':
        return [{ type: 'inlineMath', value: String(data.formula ?? '') }];
      case 'expression':
        return [raw(`<code class="expression">${htmlText(String(data.expression ?? ''))}</code>`)];
      case 'mention': {
        const ref = data.ref as { kind: string; user?: string };
        if (ref?.kind === 'user') return [{ type: 'link', url: `user:${ref.user ?? ''}`, children: [{ type: 'text', value: `@${ref.user ?? ''}` }] }];
        // GitBook's form: a link titled "mention".
        const url = href(ref);
        return [{ type: 'link', url, title: 'mention', children: [{ type: 'text', value: writtenText(ref, linkName(url)) }] }];
      }
      case 'button': {
        const kind = data.kind === 'secondary' ? 'secondary' : 'primary';
        // Text, not an attribute: GitBook leaves quotes in labels as written.
        const label = htmlText(String(data.label ?? ''));
        const icon = attributes({ 'data-icon': data.icon as string | undefined });
        const action = data.action && typeof data.action === 'object' ? (data.action as Record<string, unknown>) : undefined;
        if (action && !data.ref) {
          const target = attributes({ 'data-action': String(action.action ?? ''), 'data-query': action.query as string | undefined, 'data-slug': action.slug as string | undefined });
          return [raw(`<button type="button" class="button ${kind}"${target}${icon}>${label}</button>`)];
        }
        const url = href(data.ref);
        return [raw(`<a${url ? ` href="${attributeText(url)}"` : ''} class="button ${kind}"${icon}>${label}</a>`)];
      }
      case 'annotation': {
        const identifier = String(footnotes.length + 1);
        const body = node.fragments?.[0]?.nodes ?? [];
        footnotes.push({ type: 'footnoteDefinition', identifier, label: identifier, children: blocks(body) as md.FootnoteDefinition['children'] });
        return [...phrasing(node.nodes ?? []), { type: 'footnoteReference', identifier, label: identifier }];
      }
      default:
        return phrasing(node.nodes ?? []);
    }
  }

  const tagged = (name: string, attrs: Parameters<typeof writeTag>[1], children: md.RootContent[]): md.RootContent[] => [
    raw(writeTag(name, attrs)),
    ...children,
    raw(`{% end${name} %}`),
  ];

  /** A block showing part of an organization's OpenAPI spec: GitBook's link to the spec as its body where the spec's address is known, its tag alone otherwise. */
  const specBlock = (name: string, data: Record<string, unknown>, attrs: Parameters<typeof writeTag>[1]): md.RootContent[] => {
    const spec = (data.ref as { spec?: string } | undefined)?.spec;
    const written = { spec, ...attrs };
    const url = spec ? context.openApiSpecUrl?.(spec) : undefined;
    if (!url) return [raw(writeTag(name, written))];
    return tagged(name, written, [{ type: 'paragraph', children: [{ type: 'link', url, children: [{ type: 'text', value: `OpenAPI ${spec}` }] }] }]);
  };

  const paragraph = (nodes: Block['nodes']): md.Paragraph => {
    const children = phrasing((nodes ?? []) as Array<TextNode | Inline>);
    // A line break that ends a paragraph is `<br>`, as GitBook writes it: a `\` there is no break in markdown but a backslash.
    if (children.at(-1)?.type === 'break') children.splice(-1, 1, raw('<br>'));
    return { type: 'paragraph', children };
  };

  const fragment = (owner: Block, name: string): Fragment | undefined => owner.fragments?.find((candidate) => candidate.fragment === name || candidate.type === name);

  const figure = (image: Block): string => {
    const data = image.data;
    const img = `<img src="${attributeText(href(data.ref))}"${attributes({ alt: data.alt as string | undefined, width: lengthText(data.width) })}>`;
    const picture = data.refDark ? `<picture><source srcset="${attributeText(href(data.refDark))}" media="(prefers-color-scheme: dark)">${img}</picture>` : img;
    const caption = fragment(image, 'caption')?.nodes;
    if (!caption) return `<figure>${picture}</figure>`;
    return `<figure>${picture}<figcaption>${caption.some((block) => plainWords(block) !== '') ? blocksHtml(caption) : ''}</figcaption></figure>`;
  };

  /**
   * An image as GitBook writes one with no alt and a caption of plain words or none:
   * `![caption](src)`, its markdown form; undefined for one that needs `<figure>`.
   */
  const imageInMarkdown = (image: Block): md.Image | undefined => {
    const data = image.data;
    if (data.alt !== undefined || data.refDark || data.width !== undefined) return undefined;
    const caption = fragment(image, 'caption')?.nodes;
    // An empty caption (GitBook's editor gives each image one) is written as `<figcaption></figcaption>`.
    const words = caption === undefined ? '' : caption.length === 1 ? plainWords(caption[0]) : undefined;
    return words === undefined || (caption && !words) ? undefined : { type: 'image', url: href(data.ref), alt: words };
  };

  const table = (node: Block): md.RootContent => {
    const data = node.data as {
      view: { type: string; columns: string[]; hideHeader?: boolean; columnWidths?: Record<string, number>; cardSize?: string; wrap?: boolean; targetDefinition?: string; coverDefinition?: string; coverDefinitionDark?: string };
      definition: Record<string, { id: string; title: string; type: string; textAlignment?: string; verticalAlignment?: string; multiple?: boolean; options?: Array<{ value: string; label: string; color: string }> }>;
      records: Record<string, { orderIndex: string; values: Record<string, unknown> }>;
      cellMerges?: unknown;
      fullWidth?: boolean;
      search?: boolean;
    };
    const fragments = new Map((node.fragments ?? []).map((item) => [item.fragment, item.nodes]));
    const ordered = orderedRecords(data.records);
    const records = ordered.map(([, record]) => record);
    const visible = data.view?.columns ?? [];
    const hidden = Object.keys(data.definition ?? {}).filter((id) => !visible.includes(id));
    const columns = [...visible, ...hidden];
    const cellBlocks = (value: unknown) => (typeof value === 'string' ? (fragments.get(value) ?? []) : []);
    const spans = cellSpans(data, ordered, visible, (name) => emptyBlocks(fragments.get(name)));
    const simple =
      data.view?.type === 'grid' &&
      !spans.any &&
      hidden.length === 0 &&
      data.fullWidth === undefined &&
      data.search === undefined &&
      // A pipe table's empty header row is a hidden header: a shown one of empty titles needs HTML.
      (data.view.hideHeader === true) === columns.every((id) => !data.definition[id]?.title) &&
      columns.every((id) => data.definition[id]?.type === 'text' && !data.definition[id]?.verticalAlignment && data.view.columnWidths?.[id] === undefined) &&
      records.every((record) => columns.every((id) => cellBlocks(record.values[id]).every(inPipeCell)));
    if (simple) {
      const cell = (children: md.PhrasingContent[]): md.TableCell => ({ type: 'tableCell', children });
      return {
        type: 'table',
        align: columns.map((id) => ({ center: 'center', right: 'right' } as Record<string, md.AlignType>)[data.definition[id]?.textAlignment ?? ''] ?? null),
        children: [
          { type: 'tableRow', children: columns.map((id) => cell(data.view.hideHeader ? [] : [pipeTitle(data.definition[id]?.title ?? '')])) },
          ...records.map((record): md.TableRow => ({ type: 'tableRow', children: columns.map((id) => cell(pipeCell(cellBlocks(record.values[id])))) })),
        ],
      };
    }
    const view = data.view ?? { type: 'grid', columns: [] };
    const head = columns.map((id) => {
      const definition = data.definition[id];
      // In GitBook's order: `<th width="243.5" valign="top">`, `<th data-hidden data-card-target data-type="content-ref">`.
      return `<th${attributes({
        width: view.type === 'grid' ? view.columnWidths?.[id] : undefined,
        'data-hidden': !visible.includes(id),
        'data-card-target': view.targetDefinition === id,
        'data-card-cover': view.coverDefinition === id,
        'data-card-cover-dark': view.coverDefinitionDark === id,
        'data-type': definition?.type !== 'text' && definition?.type !== 'select' ? definition?.type : undefined,
        ...columnAlignments(definition),
      })}>${titleHtml(definition?.title ?? '')}${definition?.type === 'select' ? selectHtml(definition) : ''}</th>`;
    });
    const body = records.map((record, row) => `<tr>${columns.map((id, column) => {
      if (spans.covers(row, column)) return '';
      const value = record.values?.[id];
      // GitBook repeats a column's alignments on each of its cells.
      const definition = data.definition[id];
      const span = spans.anchoredAt(row, column);
      const td = `<td${attributes({ colspan: span && span.colSpan > 1 ? span.colSpan : undefined, rowspan: span && span.rowSpan > 1 ? span.rowSpan : undefined, ...columnAlignments(definition) })}>`;
      if (typeof value === 'string') return `${td}${cellHtml(cellBlocks(value))}</td>`;
      if (definition?.type === 'select') return `${td}${selectedHtml(definition, value)}</td>`;
      const refs = Array.isArray(value) ? value.map((file) => ({ kind: 'file', file: String(file) })) : value && typeof value === 'object' ? [('ref' in value ? value.ref : value)] : [];
      return `${td}${refs.map((ref) => {
        const url = href(ref);
        return `<a href="${attributeText(url)}">${htmlText(writtenText(ref, hasScheme(url) ? url : linkName(url)))}</a>`;
      }).join('')}</td>`;
    }).join('')}</tr>`);
    // In the order GitBook writes them, its names' (`<table data-full-width="false" data-search="false">`).
    const tableAttrs = attributes({
      'data-card-size': view.type === 'cards' && view.cardSize !== 'medium' ? view.cardSize : undefined,
      'data-card-wrap': view.type === 'cards' ? booleanText(view.wrap) : undefined,
      'data-full-width': booleanText(data.fullWidth),
      'data-header-hidden': view.type === 'grid' && view.hideHeader === true,
      'data-search': booleanText(data.search),
      'data-view': view.type === 'cards' ? 'cards' : undefined,
    });
    return raw(`<table${tableAttrs}><thead><tr>${head.join('')}</tr></thead><tbody>${body.join('')}</tbody></table>`);
  };

  function blockNodes(node: Block): md.RootContent[] {
    const data = node.data ?? {};
    const children = () => blocks((node.nodes ?? []) as Block[]);
    switch (node.type) {
      case 'paragraph':
        if (alignedAsHtml(node)) return [raw(`<p align="${TEXT_ALIGN_ATTRIBUTES[data.align as string]}">${phrasingHtml((node.nodes ?? []) as Array<TextNode | Inline>)}</p>`)];
        return [paragraph(node.nodes)];
      case 'heading-1':
      case 'heading-2':
      case 'heading-3': {
        if (alignedAsHtml(node)) {
          const name = `h${headingLevel(node.type)}`;
          const anchor = typeof data.id === 'string' && data.id ? ` ${headingAnchor(data.id)}</a>` : '';
          return [raw(`<${name} align="${TEXT_ALIGN_ATTRIBUTES[data.align as string]}">${phrasingHtml((node.nodes ?? []) as Array<TextNode | Inline>)}${anchor}</${name}>`)];
        }
        const heading: md.Heading = { type: 'heading', depth: headingLevel(node.type), children: phrasing((node.nodes ?? []) as Array<TextNode | Inline>) };
        if (typeof data.id === 'string' && data.id) heading.children.push({ type: 'text', value: ' ' }, raw(headingAnchor(data.id)), raw('</a>'));
        return [heading];
      }
      case 'list-ordered':
      case 'list-unordered':
      case 'list-tasks':
        return [{
          type: 'list',
          ordered: node.type === 'list-ordered',
          start: node.type === 'list-ordered' ? ((data.start as number | undefined) ?? 1) : undefined,
          spread: false,
          children: ((node.nodes ?? []) as Block[]).map((item): md.ListItem => {
            listItemDepth++;
            let children: md.ListItem['children'];
            try {
              children = blocks((item.nodes ?? []) as Block[]) as md.ListItem['children'];
            } finally {
              listItemDepth--;
            }
            const checked = node.type === 'list-tasks' ? item.data?.checked === true : undefined;
            // GFM reads a check only before text: a task starting with another block gets it on a line of its own.
            // Blocks of one item are written a blank line apart: run together, a table or a tag after a sub-list would continue it.
            if (checked !== undefined && children[0]?.type !== 'paragraph') {
              return { type: 'listItem', spread: true, children: [raw(checked ? '[x]' : '[ ]') as unknown as md.Paragraph, ...children] };
            }
            // Its text and then sub-lists are written tight, as GitBook writes them: nothing can run into a list; so is an item of only code (`* ```python`).
            const tight = (children[0]?.type === 'paragraph' && children.slice(1).every((child) => child.type === 'list')) || (children.length === 1 && children[0].type === 'code');
            return { type: 'listItem', spread: !tight, checked, children };
          }),
        }];
      case 'list-item':
        return children();
      case 'blockquote':
        return [{ type: 'blockquote', children: children() as md.Blockquote['children'] }];
      case 'divider':
        return [{ type: 'thematicBreak' }];
      case 'code': {
        if (htmlDepth > 0 || ((node.nodes ?? []) as Block[]).some((line) => line.data?.highlighted === true)) return [raw(toHtml(preElement(node)))];
        const value = ((node.nodes ?? []) as Block[]).map((line) => plainText(line)).join('\n');
        const code: md.Code = { type: 'code', lang: (data.syntax as string | undefined) ?? null, value };
        const attrs = { title: data.title as string | undefined, overflow: data.overflow as string | undefined, lineNumbers: data.lineNumbers as boolean | undefined, expandable: data.expandable as boolean | undefined, fullWidth: data.fullWidth as boolean | undefined };
        return Object.values(attrs).some((value) => value !== undefined) ? tagged('code', attrs, [code]) : [code];
      }
      case 'math':
        return [{ type: 'math', value: String(data.formula ?? '') }];
      case 'hint': {
        const style = data.style as string;
        const icon = data.icon as string | undefined;
        // In a list item GitBook writes a hint in its HTML form (fromMarkdown's customBlockTag), as in HTML, where a tag cannot go; Quire does so where its content has an HTML form too.
        const inHtml = htmlDepth > 0 || (listItemDepth > 0 && holdsOnlyHtmlForms((node.nodes ?? []) as Block[]));
        if (!inHtml) return tagged('hint', { style, icon }, children());
        const opening = `<div data-gb-custom-block data-tag="hint"${attributes({ 'data-style': style, 'data-icon': icon })} class="hint hint-${attributeText(style ?? 'info')}">`;
        return [raw(`${opening}${blocksHtml((node.nodes ?? []) as Block[])}</div>`)];
      }
      case 'tabs':
        return tagged('tabs', { fullWidth: data.fullWidth as boolean | undefined }, children());
      case 'tabs-item':
        return tagged('tab', { title: data.title as string | undefined, icon: data.icon as string | undefined }, children());
      case 'stepper':
        return tagged('stepper', {}, children());
      case 'stepper-step':
        return tagged('step', { icon: data.icon as string | undefined }, children());
      case 'columns':
        return tagged('columns', { fullWidth: data.fullWidth as boolean | undefined }, children());
      case 'column':
        return tagged('column', { width: lengthText(data.width), valign: data.verticalAlignment as string | undefined }, children());
      case 'updates':
        return tagged('updates', { format: data.format as string | undefined }, children());
      case 'update': {
        const tags = (data.tags as Array<{ tag: string }> | undefined)?.map((tag) => tag.tag).join(',');
        return tagged('update', { date: data.date as string | undefined, tags }, children());
      }
      case 'if':
        return [raw(`{% if ${String(data.expression ?? '')} %}`), ...children(), raw('{% endif %}')];
      case 'prompt':
        return tagged('prompt', { description: data.description as string, icon: data.icon as string | undefined, openInAIProviders: data.openInAIProviders as boolean | undefined, defaultExpanded: data.defaultExpanded as string | undefined }, children());
      case 'embed': {
        const caption = fragment(node, 'caption')?.nodes ?? [];
        const attrs = { url: data.url as string, fullWidth: data.fullWidth as boolean | undefined };
        return caption.length ? tagged('embed', attrs, blocks(caption)) : [raw(writeTag('embed', attrs))];
      }
      case 'file': {
        const src = href(data.ref);
        const caption = fragment(node, 'caption')?.nodes ?? [];
        // GitBook writes a file without a caption as its two tags on adjacent lines.
        return caption.length ? tagged('file', { src }, blocks(caption)) : [raw(`${writeTag('file', { src })}\n{% endfile %}`)];
      }
      case 'content-ref': {
        const url = href(data.ref);
        return tagged('content-ref', { url }, [{ type: 'paragraph', children: [{ type: 'link', url, children: [{ type: 'text', value: writtenText(data.ref, linkName(url)) }] }] }]);
      }
      case 'swagger': {
        const src = href(data.ref);
        // The body names a file by its name as it is (`[merge_endpoint.yaml](../.gitbook/assets/merge_endpoint.yaml)`), an address by itself.
        const name: md.PhrasingContent = (data.ref as ContentRef | undefined)?.kind === 'file' ? raw(linkName(src).replace(/[\\[\]*`<]/g, '\\$&')) : { type: 'text', value: src };
        return tagged('openapi', { src, path: data.path as string, method: data.method as string, expanded: data.expanded as boolean | undefined, fullWidth: data.fullWidth as boolean | undefined }, [{ type: 'paragraph', children: [{ type: 'link', url: src, children: [name] }] }]);
      }
      case 'openapi-operation':
        return specBlock('openapi-operation', data, { path: data.path as string, method: data.method as string, headless: data.headless as boolean | undefined });
      case 'openapi-schemas':
        return specBlock('openapi-schemas', data, { schemas: ((data.schemas as string[]) ?? []).join(','), grouped: data.grouped as boolean | undefined, title: data.title as string | undefined });
      case 'openapi-webhook':
        return specBlock('openapi-webhook', data, { name: data.name as string, method: data.method as string, headless: data.headless as boolean | undefined });
      case 'reusable-content':
        return [raw(writeTag('include', {}, (data.ref as { reusableContent?: string })?.reusableContent ?? ''))];
      case 'integration': {
        const props = Object.fromEntries(Object.entries((data.props as Record<string, unknown>) ?? {}).map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)]));
        return [raw(writeTag(`@${String(data.integration)}/${String(data.block)}`, props))];
      }
      case 'images': {
        // As GitBook writes them: several figures a space apart in a <div>, its attributes in their names' order.
        const images = (node.nodes ?? []) as Block[];
        const markdownForm = images.length === 1 && !data.align && data.fullWidth === undefined && data.withFrame === undefined && htmlDepth === 0 ? imageInMarkdown(images[0]) : undefined;
        if (markdownForm) return [{ type: 'paragraph', children: [markdownForm] }];
        const figures = images.map(figure).join(' ');
        const wrapper = attributes({ align: data.align as string | undefined, 'data-full-width': booleanText(data.fullWidth), 'data-with-frame': booleanText(data.withFrame) });
        return [raw(wrapper || images.length > 1 ? `<div${wrapper}>${figures}</div>` : figures)];
      }
      case 'image':
        return [raw(figure(node))];
      case 'drawing': {
        // Its caption as the image's `alt`, as GitBook writes it.
        const caption = (fragment(node, 'caption')?.nodes ?? []).map(plainText).join(' ');
        return [raw(`<img src="${attributeText(data.ref ? href(data.ref) : '')}" alt="${attributeText(caption)}" class="gitbook-drawing">`)];
      }
      case 'expandable': {
        const title = fragment(node, 'expandable-title')?.nodes ?? [];
        const body = fragment(node, 'expandable-body')?.nodes ?? [];
        const summary = title.map((item) => phrasingHtml((item.nodes ?? []) as Array<TextNode | Inline>)).join('');
        return [raw(data.defaultExpanded ? '<details open>' : '<details>'), raw(`<summary>${summary}</summary>`), ...blocks(body), raw('</details>')];
      }
      case 'table':
        return [table(node)];
      default: {
        // A block kind this writer does not know keeps its words.
        const words = plainText(node);
        return words ? [{ type: 'paragraph', children: [{ type: 'text', value: words }] }] : [];
      }
    }
  }

  function blocks(nodes: Block[]): md.RootContent[] {
    return nodes.flatMap(blockNodes);
  }

  const children = blocks(document.nodes);
  return compactTags(String(writer.stringify({ type: 'root', children: [...children, ...footnotes] })));
}
