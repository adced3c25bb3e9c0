// What is pasted into the editor, as GitBook's blocks: markdown (GitBook's `{% … %}` tags
// included) through the parser Git Sync reads repositories with, and HTML (Google Docs,
// Notion, Word, web pages) cleaned of each source's quirks, sanitized to a strict list of
// elements and attributes, and turned into markdown on the way (hast → mdast → markdown),
// as website imports do. Whatever the path, the blocks are scrubbed once more at the end:
// no script, event handler or script-running URL ever reaches a document. Pure, so that
// the browser and Node (its tests) run the same code.
import type { Element, ElementContent, Root as HastRoot, RootContent } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { sanitize, type Schema } from 'hast-util-sanitize';
import { toMdast, type Handle } from 'hast-util-to-mdast';
import type * as md from 'mdast';
import { gfmToMarkdown } from 'mdast-util-gfm';
import { toMarkdown } from 'mdast-util-to-markdown';
import { visit } from 'unist-util-visit';
import { markdownToDocument } from './gitbook/fromMarkdown.ts';
import type { JSONDocument, LinkResolver } from './gitbook/model.ts';

type Blocks = JSONDocument['nodes'];

// As written: a pasted link names no page of this space (document.ts's linksAsWritten, which imports Node's path module).
const asWritten: LinkResolver = (url) => ({ kind: 'url', url });

/**
 * True when pasted plain text reads as markdown rather than words: a block form at a
 * line's start (heading, list, quote, fence, table row, divider, GitBook tag), an inline
 * form (bold, a link, an image, code), or paragraphs apart. One line of words is text.
 */
export function looksLikeMarkdown(text: string): boolean {
  if (/\{%\s*[a-z-]+/.test(text)) return true;
  if (/^(?:#{1,6}\s|\s*[-*+]\s|\s*\d+[.)]\s|>|```|~~~|\|.+\||(?:-{3,}|\*{3,}|_{3,})\s*$|\$\$)/m.test(text)) return true;
  if (/\*\*[^*\n]+\*\*|__[^_\n]+__|!?\[[^\]\n]*\]\([^)\s]+\)|`[^`\n]+`|~~[^~\n]+~~/.test(text)) return true;
  return /\S\n\s*\n\s*\S/.test(text);
}

/** Pasted markdown as blocks, read as Git Sync reads a repository's pages; no empty paragraph before or after them. */
export function markdownToBlocks(markdown: string): Blocks {
  const blocks = scrubbed(markdownToDocument(markdown, asWritten).nodes);
  while (blocks.length > 0 && isEmptyParagraph(blocks[0])) blocks.shift();
  while (blocks.length > 0 && isEmptyParagraph(blocks[blocks.length - 1])) blocks.pop();
  return blocks;
}

const isEmptyParagraph = (node: Blocks[number]) =>
  node.type === 'paragraph' && (node.nodes ?? []).every((child) => child.object === 'text' && child.leaves.every((leaf) => leaf.text === ''));

/** Pasted HTML as blocks: each source's quirks undone, sanitized, then read through markdown. */
export function htmlToBlocks(html: string): Blocks {
  const tree = fromHtml(html, { fragment: true });
  undoQuirks(tree);
  const clean = sanitize(tree, PASTE_SCHEMA) as HastRoot;
  withoutDeadEnds(clean);
  const mdast = toMdast(clean, { handlers: { details: expandable } }) as md.Root;
  const markdown = toMarkdown(mdast, { extensions: [gfmToMarkdown()], bullet: '-', fences: true, emphasis: '*', rule: '-', unsafe: [TAG_OPENING] });
  return markdownToBlocks(markdown);
}

// ---------------------------------------------------------------------------------------
// Sanitizing: only what becomes a block or a mark survives, and only links a reader may
// follow. Elements outside the list give up their children (a Word <o:p>, a Notion <div>),
// those in `strip` are dropped with everything in them.

const TEXT_ELEMENTS = ['p', 'br', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'strong', 'b', 'em', 'i', 's', 'del', 'strike', 'code', 'kbd', 'sup', 'sub', 'mark', 'u'];
const BLOCK_ELEMENTS = ['blockquote', 'pre', 'ul', 'ol', 'li', 'hr', 'div', 'span', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'caption', 'dl', 'dt', 'dd', 'details', 'summary', 'figure', 'figcaption'];

const PASTE_SCHEMA: Schema = {
  tagNames: [...TEXT_ELEMENTS, ...BLOCK_ELEMENTS, 'a', 'img', 'input'],
  attributes: {
    a: ['href', 'title'],
    img: ['src', 'alt', 'title'],
    // A task list's box: hast-util-to-mdast reads `checked` into a task item.
    input: [['type', 'checkbox'], 'checked'],
    code: [['className', /^language-[\w+#-]+$/]],
    ol: ['start'],
    th: ['align'],
    td: ['align'],
  },
  // Links a reader may follow, images from the web: a file: image is left out, and so is a data: one (the editor takes
  // those out first and uploads them, web/src/editor/parts/paste.ts).
  protocols: { href: ['http', 'https', 'mailto'], src: ['http', 'https'] },
  required: { input: { type: 'checkbox', disabled: true } },
  strip: ['script', 'style', 'template', 'noscript', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'svg', 'math', 'canvas', 'audio', 'video', 'textarea', 'select', 'button', 'form', 'title', 'head', 'meta', 'link', 'base'],
  clobberPrefix: '',
  clobber: [],
};

/** A link whose URL was refused is its words; an image whose source was refused is nothing. */
function withoutDeadEnds(tree: HastRoot): void {
  visit(tree, 'element', (node: Element, index, parent) => {
    if (!parent || index === undefined) return;
    if (node.tagName === 'a' && typeof node.properties.href !== 'string') {
      parent.children.splice(index, 1, ...node.children);
      return index;
    }
    if (node.tagName === 'img' && typeof node.properties.src !== 'string') {
      parent.children.splice(index, 1);
      return index;
    }
  });
}

/**
 * A <details> (Notion's toggle, a web page's disclosure) as GitBook writes an expandable
 * in markdown: its summary the title, in words only, the rest its body.
 */
const expandable: Handle = (state, node: Element) => {
  const summary = node.children.find((child): child is Element => isElement(child) && child.tagName === 'summary');
  const title = escapeHtml((summary ? textOf(summary) : '').trim().replace(/\s+/g, ' ')) || 'Details';
  const body = state.toFlow(state.all({ ...node, children: node.children.filter((child) => child !== summary) }));
  return [{ type: 'html', value: '<details>' }, { type: 'html', value: `<summary>${title}</summary>` }, ...body, { type: 'html', value: '</details>' }];
};

const escapeHtml = (words: string) => words.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

// ---------------------------------------------------------------------------------------
// Quirks, undone before sanitizing (which drops the styles they are read from).

const GOOGLE_DOCS_WRAPPER = /^docs-internal-guid-/;

/**
 * Each source's way of writing what HTML has elements for, rewritten as those elements:
 * Google Docs' outer <b> and its styled spans, Word's lists of paragraphs, <o:p> and
 * conditional comments, Notion's to-do boxes, and a paragraph inside a list item that
 * only wraps its words.
 */
function undoQuirks(tree: HastRoot): void {
  // Comments: Word's <![if !supportLists]> and Notion's markers hold nothing to keep.
  visit(tree, 'comment', (_node, index, parent) => {
    if (parent && index !== undefined) {
      parent.children.splice(index, 1);
      return index;
    }
  });
  wordLists(tree);
  visit(tree, 'element', (node: Element, index, parent) => {
    if (!parent || index === undefined) return;
    // Google Docs wraps the whole copy in <b style="font-weight:normal" id="docs-internal-guid-…">: not bold.
    if (node.tagName === 'b' && (GOOGLE_DOCS_WRAPPER.test(String(node.properties.id ?? '')) || /font-weight:\s*(?:normal|[1-4]00)\b/.test(styleOf(node)))) {
      parent.children.splice(index, 1, ...node.children);
      return index;
    }
    // Word: <o:p> holds a paragraph's trailing space; a span marked mso-list:Ignore holds a list's bullet or number.
    if (node.tagName === 'o:p' || /mso-list:\s*ignore/i.test(styleOf(node))) {
      parent.children.splice(index, 1);
      return index;
    }
    // Notion draws a to-do's box as <div class="checkbox checkbox-on">: the box it means.
    const classes = Array.isArray(node.properties.className) ? node.properties.className : [];
    if (node.tagName === 'div' && classes.includes('checkbox')) {
      parent.children[index] = { type: 'element', tagName: 'input', properties: { type: 'checkbox', checked: classes.includes('checkbox-on') }, children: [] };
      return;
    }
    if (node.tagName === 'span') {
      const marked = markedSpan(node);
      if (marked !== node) parent.children[index] = marked;
    }
  });
  visit(tree, 'element', (node: Element) => {
    // <li><p>words</p></li> (Google Docs, Notion): the item's words, not a loose list.
    if (node.tagName === 'li' && node.children.filter(isElement).length === 1) {
      const only = node.children.find(isElement)!;
      if (only.tagName === 'p' && node.children.every((child) => child === only || (child.type === 'text' && !child.value.trim()))) node.children = only.children;
    }
  });
}

const isElement = (node: RootContent | ElementContent): node is Element => node.type === 'element';
const styleOf = (node: Element): string => String(node.properties.style ?? '').toLowerCase();

/** A span styled bold, italic, struck, raised, lowered or in a code font, as the elements that say so (Google Docs, Word, Notion). */
function markedSpan(node: Element): Element {
  const style = styleOf(node);
  const wrappers: string[] = [];
  const weight = /font-weight:\s*(bold|bolder|[5-9]00)\b/.exec(style);
  if (weight) wrappers.push('strong');
  if (/font-style:\s*italic/.test(style)) wrappers.push('em');
  if (/text-decoration[^;]*line-through/.test(style)) wrappers.push('del');
  if (/vertical-align:\s*super/.test(style)) wrappers.push('sup');
  else if (/vertical-align:\s*sub/.test(style)) wrappers.push('sub');
  if (/font-family:[^;]*(?:courier|consolas|monaco|menlo|mono)/.test(style)) wrappers.push('code');
  let inner: ElementContent[] = node.children;
  for (const tagName of wrappers.reverse()) inner = [{ type: 'element', tagName, properties: {}, children: inner }];
  return wrappers.length > 0 ? { ...node, children: inner } : node;
}

/**
 * Word writes a list as paragraphs (class MsoListParagraph…, style "mso-list:l0 level2"),
 * the bullet or number as text in a span it marks to ignore (removed before this): each
 * run of them becomes <ul> or <ol>, nested by level, ordered when the first marker was a number.
 */
function wordLists(tree: HastRoot): void {
  visit(tree, (node) => {
    if (!('children' in node)) return;
    const children = node.children as ElementContent[];
    for (let index = 0; index < children.length; index++) {
      const first = children[index];
      if (!isWordListItem(first)) continue;
      const list = listIdOf(first);
      const sameList = (node: ElementContent) => isWordListItem(node) && listIdOf(node) === list;
      const blank = (node: ElementContent) => node.type === 'text' && !node.value.trim();
      let end = index;
      const run: Element[] = [];
      for (; end < children.length && (sameList(children[end]) || blank(children[end])); end++) {
        if (isElement(children[end])) run.push(children[end] as Element);
      }
      children.splice(index, end - index, wordList(run));
    }
  });
}

function isWordListItem(node: ElementContent): node is Element {
  return isElement(node) && node.tagName === 'p' && /mso-list:\s*l\d+\s+level\d+/.test(styleOf(node));
}

/** The words of the span Word marks to ignore: the item's bullet or number. */
function markerOf(node: Element): string {
  for (const child of node.children) {
    if (!isElement(child)) continue;
    if (/mso-list:\s*ignore/i.test(styleOf(child))) return textOf(child);
    const inner = markerOf(child);
    if (inner) return inner;
  }
  return '';
}

const textOf = (node: ElementContent): string => (node.type === 'text' ? node.value : isElement(node) ? node.children.map(textOf).join('') : '');

/** Word's list id (l0, l1…): a run of paragraphs of another id is another list. */
const listIdOf = (paragraph: Element) => /mso-list:\s*(l\d+)/.exec(styleOf(paragraph))?.[1];

const levelOf = (paragraph: Element) => Number(/level(\d+)/.exec(styleOf(paragraph))?.[1] ?? 1);

function wordList(run: Element[]): Element {
  const orderedAt = (paragraph: Element) => /^\s*(?:\d+|[a-z]|[ivxlc]+)[.)]/i.test(markerOf(paragraph));
  const root: Element = { type: 'element', tagName: orderedAt(run[0]) ? 'ol' : 'ul', properties: {}, children: [] };
  const stack: Array<{ list: Element; level: number }> = [{ list: root, level: levelOf(run[0]) }];
  for (const paragraph of run) {
    const level = levelOf(paragraph);
    while (stack.length > 1 && level < stack[stack.length - 1].level) stack.pop();
    let top = stack[stack.length - 1];
    if (level > top.level) {
      const parentItem = top.list.children[top.list.children.length - 1] as Element | undefined;
      const nested: Element = { type: 'element', tagName: orderedAt(paragraph) ? 'ol' : 'ul', properties: {}, children: [] };
      if (parentItem) parentItem.children.push(nested);
      else top.list.children.push({ type: 'element', tagName: 'li', properties: {}, children: [nested] });
      top = { list: nested, level };
      stack.push(top);
    }
    top.list.children.push({ type: 'element', tagName: 'li', properties: {}, children: paragraph.children });
  }
  return root;
}

/**
 * Text from HTML is words, not GitBook's tags: `{%` in it is written `{\%`, so that a
 * page which shows a tag (GitBook's own documentation does) pastes as what it shows.
 */
const TAG_OPENING = { character: '%', before: '\\{' };

// ---------------------------------------------------------------------------------------
// The last guard, on whatever path the blocks came by.

/** Schemes whose URLs run script or show a page of their own making. Browsers ignore whitespace and controls inside a scheme. */
export function isScriptUrl(url: string): boolean {
  return /^(?:javascript|vbscript|data|file):/i.test(url.replace(/[\u0000-\u0020\u007f]/g, ''));
}

type JsonNode = Record<string, unknown>;

/** True when a URL-bearing field (`url`, `href`, `src`) anywhere in a value holds a script URL. */
export function carriesScriptUrl(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(carriesScriptUrl);
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(value).some(([key, field]) => (typeof field === 'string' ? (key === 'url' || key === 'href' || key === 'src') && isScriptUrl(field) : carriesScriptUrl(field)));
}

/**
 * The blocks with every node that points at a script URL left out (a link keeps its
 * words), and any node kind without a name left out: what a paste adds is blocks of
 * GitBook's model that no reader would run.
 */
export function scrubbed(nodes: Blocks): Blocks {
  return scrubList(nodes as unknown as JsonNode[]) as unknown as Blocks;
}

function scrubList(nodes: JsonNode[]): JsonNode[] {
  const out: JsonNode[] = [];
  for (const node of nodes) {
    if (typeof node !== 'object' || node === null) continue;
    if (node.object === 'text') {
      out.push(node);
      continue;
    }
    const children = Array.isArray(node.nodes) ? scrubList(node.nodes as JsonNode[]) : undefined;
    if (carriesScriptUrl(node.data) || carriesScriptUrl(node.meta)) {
      if (node.type === 'link' && children) out.push(...children);
      continue;
    }
    const copy: JsonNode = { ...node };
    if (children) copy.nodes = children;
    if (Array.isArray(node.fragments)) copy.fragments = scrubList(node.fragments as JsonNode[]);
    out.push(copy);
  }
  return out;
}
