// Markdown → GitBook's JSONDocument, through the mdast tree of remark (with GFM for
// tables, task lists and strikethrough). Tools that read GitBook documents read
// Quire's: paragraphs, headings 1–3 with anchors, lists, quotes, code with its lines,
// dividers, images, tables, hints; links as content references; bold, italic, code
// and strikethrough marks.
import type { Blockquote, Code, Heading, List, ListItem, PhrasingContent, Root, RootContent, Table } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { findPageByPath, type FlatTree } from './tree.ts';

export type ContentRef =
  | { kind: 'url'; url: string }
  | { kind: 'page'; page: string; anchor?: string }
  | { kind: 'file'; file: string }
  | { kind: 'anchor'; anchor: string };

/** Turns a link target into a content reference (a page of the revision, a file, an anchor, a URL). */
export type LinkResolver = (url: string) => ContentRef;

type Mark = { object: 'mark'; type: 'bold' | 'italic' | 'code' | 'strikethrough' };
type Leaf = { object: 'leaf'; text: string; marks: Mark[] };
type TextNode = { object: 'text'; leaves: Leaf[] };
type Inline = { object: 'inline'; type: string; data: Record<string, unknown>; isVoid: boolean; nodes: Array<TextNode | Inline> };
type Block = { object: 'block'; type: string; isVoid: boolean; data: Record<string, unknown>; meta?: Record<string, unknown>; nodes: Array<Block | Inline | TextNode> };

export interface JSONDocument {
  object: 'document';
  data: Record<string, unknown>;
  nodes: Block[];
}

const parser = unified().use(remarkParse).use(remarkGfm);

/** Markdown as an mdast tree (CommonMark with GFM): the one parse every reader of markdown uses. */
export function parseMarkdown(markdown: string): Root {
  return parser.parse(markdown) as Root;
}

/** True for a URL with a scheme (https:, mailto:, …), as opposed to a path. */
export function hasScheme(url: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(url);
}

const HINT = /^\s*\{%\s*hint\s+style="(info|warning|danger|success)"\s*%\}\s*$/;

function text(value: string, marks: Mark[]): TextNode {
  return { object: 'text', leaves: [{ object: 'leaf', text: value, marks }] };
}

function mark(type: Mark['type']): Mark {
  return { object: 'mark', type };
}

/** A heading's anchor: its words in lower case joined by dashes, as GitBook writes them. */
export function anchorOf(heading: Heading): string {
  const words = heading.children.map(function plain(node: PhrasingContent): string {
    return 'value' in node ? String(node.value) : 'children' in node ? (node.children as PhrasingContent[]).map(plain).join('') : '';
  });
  return words.join('').toLowerCase().trim().replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '');
}

export function markdownToDocument(markdown: string, resolve: LinkResolver): JSONDocument {
  const root = parseMarkdown(markdown);

  const phrasing = (nodes: PhrasingContent[], marks: Mark[] = []): Array<TextNode | Inline> =>
    nodes.flatMap((node): Array<TextNode | Inline> => {
      switch (node.type) {
        case 'text':
          return [text(node.value, marks)];
        case 'strong':
          return phrasing(node.children, [...marks, mark('bold')]);
        case 'emphasis':
          return phrasing(node.children, [...marks, mark('italic')]);
        case 'delete':
          return phrasing(node.children, [...marks, mark('strikethrough')]);
        case 'inlineCode':
          return [text(node.value, [...marks, mark('code')])];
        case 'break':
          return [text('\n', marks)];
        case 'link':
          return [{ object: 'inline', type: 'link', isVoid: false, data: { ref: resolve(node.url) }, nodes: phrasing(node.children, marks) }];
        case 'image':
          return [{ object: 'inline', type: 'inline-image', isVoid: true, data: { ref: resolve(node.url), caption: node.alt ?? '' }, nodes: [] }];
        case 'html':
          return [text(node.value, marks)];
        default:
          return 'children' in node ? phrasing(node.children as PhrasingContent[], marks) : [];
      }
    });

  const block = (type: string, nodes: Block['nodes'], data: Record<string, unknown> = {}, isVoid = false): Block => ({
    object: 'block',
    type,
    isVoid,
    data,
    nodes,
  });

  const listItem = (item: ListItem): Block =>
    block('list-item', blocks(item.children), item.checked === null || item.checked === undefined ? {} : { checked: item.checked });

  const blocks = (nodes: RootContent[]): Block[] => {
    const out: Block[] = [];
    for (let index = 0; index < nodes.length; index++) {
      const node = nodes[index];
      switch (node.type) {
        case 'paragraph': {
          const hint = node.children.length === 1 && node.children[0].type === 'text' ? HINT.exec(node.children[0].value) : null;
          if (hint) {
            // {% hint style="…" %} … {% endhint %}: the blocks in between form the hint.
            const end = nodes.findIndex((candidate, at) => at > index && candidate.type === 'paragraph' && /\{%\s*endhint\s*%\}/.test(JSON.stringify(candidate)));
            const inner = nodes.slice(index + 1, end < 0 ? nodes.length : end);
            out.push(block('hint', blocks(inner), { style: hint[1] }));
            index = end < 0 ? nodes.length : end;
            break;
          }
          const images = node.children.filter((child) => child.type === 'image');
          if (images.length > 0 && images.length === node.children.filter((child) => !(child.type === 'text' && !child.value.trim())).length) {
            out.push(
              block(
                'images',
                images.map((image) => block('image', [], { ref: resolve(image.url), caption: image.alt ?? '' }, true)),
              ),
            );
          } else out.push(block('paragraph', phrasing(node.children)));
          break;
        }
        case 'heading': {
          const heading = node as Heading;
          out.push({ ...block(`heading-${Math.min(heading.depth, 3)}`, phrasing(heading.children)), meta: { id: anchorOf(heading) } });
          break;
        }
        case 'list': {
          const list = node as List;
          const tasks = list.children.some((item) => item.checked !== null && item.checked !== undefined);
          const type = tasks ? 'list-tasks' : list.ordered ? 'list-ordered' : 'list-unordered';
          out.push(block(type, list.children.map(listItem), list.ordered && list.start && list.start !== 1 ? { start: list.start } : {}));
          break;
        }
        case 'blockquote':
          out.push(block('blockquote', blocks((node as Blockquote).children)));
          break;
        case 'code': {
          const code = node as Code;
          out.push(
            block(
              'code',
              code.value.split('\n').map((line) => block('code-line', [text(line, [])])),
              code.lang ? { syntax: code.lang } : {},
            ),
          );
          break;
        }
        case 'thematicBreak':
          out.push(block('divider', [], {}, true));
          break;
        case 'table': {
          const table = node as Table;
          const [header, ...rows] = table.children;
          const columns = (header?.children ?? []).map((cell, column) => ({ id: `c${column}`, title: phrasing(cell.children) }));
          out.push(
            block(
              'table',
              [],
              {
                view: { type: 'grid', columns: columns.map((column) => column.id) },
                definition: Object.fromEntries(columns.map((column) => [column.id, { id: column.id, type: 'text', title: column.title }])),
                records: Object.fromEntries(
                  rows.map((row, index) => [
                    `r${index}`,
                    { orderIndex: String(index), values: Object.fromEntries(row.children.map((cell, column) => [`c${column}`, phrasing(cell.children)])) },
                  ]),
                ),
              },
              true,
            ),
          );
          break;
        }
        case 'html':
          out.push(block('paragraph', [text(node.value, [])]));
          break;
        default:
          break;
      }
    }
    return out;
  };

  return { object: 'document', data: {}, nodes: blocks(root.children) };
}

/**
 * Resolves links as a revision sees them: "#anchor", "/files/<id>", "/pages/<id>",
 * paths of pages ("guides/install.md", "./install#steps"), and anything else as a URL.
 */
export function linkResolverFor(tree: FlatTree): LinkResolver {
  return (url) => {
    if (url.startsWith('#')) return { kind: 'anchor', anchor: url.slice(1) };
    const file = /^\/?files\/([^/?#]+)/.exec(url);
    if (file) return { kind: 'file', file: file[1] };
    const page = /^\/?pages\/([^/?#]+)(?:#(.*))?$/.exec(url);
    if (page && tree.has(page[1])) return { kind: 'page', page: page[1], ...(page[2] ? { anchor: page[2] } : {}) };
    if (hasScheme(url) || url.startsWith('//')) return { kind: 'url', url };
    const [path, anchor] = url.split('#');
    const target = findPageByPath(tree, path.replace(/^\.?\//, '').replace(/(\/README)?\.md$/i, ''));
    return target ? { kind: 'page', page: target.id, ...(anchor ? { anchor } : {}) } : { kind: 'url', url };
  };
}

/** The users a markdown text mentions: links to user:<id> or /users/<id>, as GitBook writes mentions. */
export function mentionsIn(markdown: string): string[] {
  const ids = new Set<string>();
  const visit = (node: { type: string; url?: string; children?: unknown[] }) => {
    if (node.type === 'link' && node.url) {
      const match = /^(?:user:|\/?users\/)([A-Za-z0-9_-]+)$/.exec(node.url);
      if (match) ids.add(match[1]);
    }
    for (const child of node.children ?? []) visit(child as { type: string });
  };
  visit(parseMarkdown(markdown) as unknown as { type: string });
  return [...ids];
}
