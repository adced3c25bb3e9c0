// GitBook's JSONDocument and the markdown Quire stores pages in: the converter lives in
// ./gitbook (GitBook-flavoured markdown ⇄ document, every node kind); this module joins
// it to a revision's tree, turning links into page and file references and back.
import type { Heading, PhrasingContent, Root } from 'mdast';
import { posix } from 'node:path';
import { anchorOfText, hasEarlierForms, markdownToDocument, parseGitBookMarkdown } from './gitbook/fromMarkdown.ts';
import { documentToMarkdown } from './gitbook/toMarkdown.ts';
import { hasScheme, type Block, type ContentRef, type Inline, type JSONDocument, type LinkResolver, type LinkWriter, type TextNode } from './gitbook/model.ts';
import { childrenOfSettledTree, findPageByPath, pagePath, type FlatPage, type FlatTree } from './tree.ts';

export type { ContentRef, JSONDocument, LinkResolver, LinkWriter } from './gitbook/model.ts';
export { documentToMarkdown, hasEarlierForms, hasScheme, markdownToDocument };

/** Markdown as an mdast tree (CommonMark, GFM, GitBook's tags isolated): the one parse every reader of markdown uses. */
export function parseMarkdown(markdown: string): Root {
  return parseGitBookMarkdown(markdown).root;
}

/** A heading's anchor: its words in lower case joined by dashes, as GitBook writes them. */
export function anchorOf(heading: Heading): string {
  const words = heading.children.map(function plain(node: PhrasingContent): string {
    return 'value' in node ? String(node.value) : 'children' in node ? (node.children as PhrasingContent[]).map(plain).join('') : '';
  });
  return anchorOfText(words.join(''));
}

/** A file of the revision, as links name it. */
export interface NamedFile {
  id: string;
  name: string;
}

/** Only what links need of a revision's files, so that little crosses to worker threads. */
export function namedFiles(files: ReadonlyArray<NamedFile>): NamedFile[] {
  return files.map(({ id, name }) => ({ id, name }));
}

/** Where a page's markdown file sits in GitBook's layout: "guides/README.md" for a page with sub-pages, "guides/install.md" otherwise. */
function pageFile(tree: FlatTree, pageId: string, children: Map<string | null, FlatPage[]>): string {
  const path = pagePath(tree, pageId);
  return children.has(pageId) ? `${path}/README.md` : `${path}.md`;
}

/** Every link as a URL reference, as written: for documents resolved later, where they are shown. */
export const linksAsWritten: LinkResolver = (url) => ({ kind: 'url', url });

function isWrittenLink(value: unknown): value is { kind: 'url'; url: string } {
  if (typeof value !== 'object' || value === null) return false;
  const link = value as { kind?: unknown; url?: unknown };
  // Object.keys last: it allocates, and this runs for every object of a document.
  return link.kind === 'url' && typeof link.url === 'string' && Object.keys(value).length === 2;
}

/**
 * A document made with links as written, with every link resolved as `resolve` would
 * have resolved it while converting: the same document as converting the markdown with
 * `resolve`, at the cost of a walk instead of a parse. Inline images' data URLs stay.
 * The document is changed in place and must be the caller's own (pageDocument parses
 * one per call): copying a large page's document doubled the server's time to read it.
 */
export function resolveWrittenLinks<Node>(node: Node, resolve: LinkResolver): Node {
  if (typeof node !== 'object' || node === null) return node;
  if (Array.isArray(node)) {
    node.forEach((item, index) => {
      const resolved = resolveWrittenLinks(item, resolve);
      if (resolved !== item) node[index] = resolved;
    });
    return node;
  }
  if (isWrittenLink(node)) return (/^data:image\//i.test(node.url) ? node : resolve(node.url)) as Node;
  resolveFieldsOf(node as Record<string, unknown>, resolve);
  return node;
}

/** Resolves the links among an object's fields in place, but for those `except` names. */
function resolveFieldsOf(fields: Record<string, unknown>, resolve: LinkResolver, except?: (field: string) => boolean): void {
  for (const field in fields) {
    const value = fields[field];
    if (typeof value !== 'object' || value === null || except?.(field)) continue;
    const resolved = resolveWrittenLinks(value, resolve);
    if (resolved !== value) fields[field] = resolved;
  }
}

/**
 * The document with each reusable content's reference renamed: GitBook's repositories
 * name an included content by its file's path relative to the including file, Quire's
 * markdown by the content's id.
 */
export function withReusableContents<Node>(node: Node, rename: (target: string) => string): Node {
  if (Array.isArray(node)) return node.map((item) => withReusableContents(item, rename)) as Node;
  if (typeof node !== 'object' || node === null) return node;
  const fields = node as Record<string, unknown>;
  if (fields.kind === 'reusable-content' && typeof fields.reusableContent === 'string') return { ...fields, reusableContent: rename(fields.reusableContent) } as Node;
  const renamed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) renamed[key] = withReusableContents(value, rename);
  return renamed as Node;
}

/** A block or inline as the walks below read it: its kind, its data and its lists of nodes. */
interface NodeFields {
  type?: unknown;
  key?: unknown;
  data?: { ref?: { reusableContent?: unknown }; expression?: unknown };
  nodes?: unknown[];
  fragments?: unknown[];
}

/**
 * The nodes with each one `replace` answers for put in place of its answer (a list, empty
 * to leave it out), and every other one copied with its lists of nodes walked the same way.
 */
function withNodesReplaced(nodes: unknown[], replace: (node: NodeFields) => unknown[] | undefined): unknown[] {
  return nodes.flatMap((node) => {
    if (typeof node !== 'object' || node === null) return [node];
    const fields = node as NodeFields;
    return (
      replace(fields) ?? [
        {
          ...fields,
          ...(Array.isArray(fields.nodes) ? { nodes: withNodesReplaced(fields.nodes, replace) } : {}),
          ...(Array.isArray(fields.fragments) ? { fragments: withNodesReplaced(fields.fragments, replace) } : {}),
        },
      ]
    );
  });
}

/**
 * The document with the blocks of each reusable content it includes in place of the
 * include, for readers and PDFs. An include within included blocks is left out (GitBook
 * nests none), so no content includes itself; an include `blocksOf` does not know shows nothing.
 */
export function withIncludedBlocks<Document extends { nodes: unknown[] }>(
  document: Document,
  blocksOf: (reusableContentId: string, include: { key?: unknown }) => unknown[] | undefined,
): Document {
  const nestedLeftOut = (node: NodeFields) => (node.type === 'reusable-content' ? [] : undefined);
  const inPlace = (node: NodeFields) => {
    if (node.type !== 'reusable-content') return undefined;
    const id = node.data?.ref?.reusableContent;
    return typeof id === 'string' ? withNodesReplaced(blocksOf(id, node) ?? [], nestedLeftOut) : [];
  };
  return { ...document, nodes: withNodesReplaced(document.nodes, inPlace) };
}

const INCLUDE_TAG = /\{% include "([^"\\]+)" %\}/g;

/** The reusable contents stored markdown includes, by id. */
export function includesOf(markdown: string): string[] {
  return [...markdown.matchAll(INCLUDE_TAG)].map((match) => match[1]!);
}

/**
 * Stored markdown with the markdown of each reusable content it includes in place of
 * the include, for readers of markdown (a page's `.md`, llms-full.txt). One level, as
 * withIncludedBlocks: the includes of included markdown are left out; an include
 * `markdownOf` does not know stays as written.
 */
export function withIncludedMarkdown(markdown: string, markdownOf: (reusableContentId: string) => string | undefined): string {
  return markdown.replace(INCLUDE_TAG, (tag, id: string) => markdownOf(id)?.replace(INCLUDE_TAG, '').trim() ?? tag);
}

const CONDITION_TAG = /\{%\s*if\s/;

/** Whether markdown holds a block shown on a condition ({% if %}): most pages hold none. */
export function hasConditionalBlocks(markdown: string): boolean {
  return CONDITION_TAG.test(markdown);
}

/**
 * The document as a reader reads it once its conditions are decided: each `if` block
 * whose expression `holds` gives its blocks in its place, and each other one nothing.
 */
export function withConditionsDecided<Document extends { nodes: unknown[] }>(document: Document, holds: (expression: string) => boolean): Document {
  const decided = (node: NodeFields): unknown[] | undefined =>
    node.type !== 'if' ? undefined : holds(String(node.data?.expression ?? '')) ? withNodesReplaced(node.nodes ?? [], decided) : [];
  return { ...document, nodes: withNodesReplaced(document.nodes, decided) };
}

/** A node's lists of nodes, which withKeys walks itself. */
const isChildList = (field: string) => field === 'nodes' || field === 'fragments';

/**
 * The document with a key on every block and inline that has none, as GitBook's
 * documents carry them (its renderer keys tabs, list items and React nodes by them).
 * Keys are made from each node's place ("k0", "k0.2"; after `prefix`, "k" unless
 * given), so that the same document always has the same keys. Given `resolve`, its
 * links written as-is are resolved in the same walk, as `resolveWrittenLinks` resolves
 * them. Changed in place, as `resolveWrittenLinks` changes it: the document must be the
 * caller's own.
 */
export function withKeys<Document extends { nodes: unknown[] }>(document: Document, resolve?: LinkResolver, prefix = 'k'): Document {
  const keyed = (nodes: unknown[], prefix: string): void => {
    nodes.forEach((node, index) => {
      if (typeof node !== 'object' || node === null) return;
      const fields = node as { object?: unknown; key?: unknown; nodes?: unknown; fragments?: unknown };
      if (fields.object !== 'block' && fields.object !== 'inline' && fields.object !== 'fragment') {
        if (resolve) nodes[index] = resolveWrittenLinks(node, resolve);
        return;
      }
      const key = `${prefix}${index}`;
      if (resolve) resolveFieldsOf(fields as Record<string, unknown>, resolve, isChildList);
      if (fields.key === undefined) fields.key = key;
      if (Array.isArray(fields.nodes)) keyed(fields.nodes, `${key}.`);
      if (Array.isArray(fields.fragments)) keyed(fields.fragments, `${key}f`);
    });
  };
  keyed(document.nodes, prefix);
  return document;
}

/** A link to a page as Quire's markdown stores it, `/pages/<id>#anchor`: the page while the tree has it. */
export const STORED_PAGE_LINK = /^\/?pages\/([^/?#]+)(?:#(.*))?$/;

/**
 * Resolves links as a page of a revision sees them: "#anchor", "/files/<id>",
 * "/pages/<id>", paths of pages relative to the page's own file ("../guide/README.md#install",
 * "./install#steps"; from the space's root when no page is named or the path starts
 * with "/"), files by their path in .gitbook/assets ("../.gitbook/assets/logo.png"),
 * and anything else as a URL. The tree is one nothing changes any more (a revision's):
 * its grouping by parent is made once (childrenOfSettledTree).
 */
export function linkResolverFor(tree: FlatTree, fromPageId?: string, files: ReadonlyArray<NamedFile> = []): LinkResolver {
  const filesByName = new Map(files.map((file) => [file.name, file.id]));
  const children = childrenOfSettledTree(tree);
  const directory = fromPageId && tree.has(fromPageId) ? posix.dirname(pageFile(tree, fromPageId, children)) : '.';
  return (url) => {
    // An empty link (GitBook's inactive button) leads nowhere, not to the page's folder.
    if (url === '') return { kind: 'url', url };
    if (url.startsWith('#')) return { kind: 'anchor', anchor: url.slice(1) };
    const file = /^\/?files\/([^/?#]+)/.exec(url);
    if (file) return { kind: 'file', file: file[1] };
    const page = STORED_PAGE_LINK.exec(url);
    if (page && tree.has(page[1])) return { kind: 'page', page: page[1], ...(page[2] ? { anchor: page[2] } : {}) };
    if (hasScheme(url) || url.startsWith('//')) return { kind: 'url', url };
    const [path, anchor] = url.split('#');
    let decoded = path;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      // Not percent-encoded after all: read it as written.
    }
    const joined = decoded.startsWith('/') ? decoded : posix.join(directory, decoded);
    // Git Sync keeps files in .gitbook/assets, named as in the revision.
    const asset = /(?:^|\/)\.gitbook\/assets\/([^/]+)$/.exec(joined);
    if (asset && filesByName.has(asset[1])) return { kind: 'file', file: filesByName.get(asset[1])! };
    const slugs = posix.normalize(joined).replace(/^(\.\/|\/)+/, '').replace(/(^|\/)README\.md$/i, '').replace(/\.md$/i, '');
    const target = slugs === '.' || slugs.startsWith('..') ? undefined : findPageByPath(children, slugs);
    return target ? { kind: 'page', page: target.id, ...(anchor ? { anchor } : {}) } : { kind: 'url', url };
  };
}

/**
 * The relative link from a file in `directory` to a page's file, as GitBook writes it:
 * a page with sub-pages (its folder's README.md) by its folder, `../guide/` or `./`.
 */
export function pageLinkPath(directory: string, file: string): string {
  if (posix.basename(file) === 'README.md') return `${posix.relative(directory, posix.dirname(file)) || '.'}/`;
  return posix.relative(directory, file) || posix.basename(file);
}

/**
 * Writes references back as `linkResolverFor` reads them: pages and files as paths
 * relative to the page's own file (files in .gitbook/assets), or as "/pages/<id>" and
 * "/files/<id>" when no page is named (markdown that may be stored anywhere). The tree
 * is a settled one, as for linkResolverFor.
 */
export function linkWriterFor(tree: FlatTree, fromPageId?: string, files: ReadonlyArray<NamedFile> = []): LinkWriter {
  const namesById = new Map(files.map((file) => [file.id, file.name]));
  const children = childrenOfSettledTree(tree);
  const directory = fromPageId && tree.has(fromPageId) ? posix.dirname(pageFile(tree, fromPageId, children)) : '.';
  const pageHref = (pageId: string, anchor?: string) => {
    const target = fromPageId && tree.has(pageId) ? pageLinkPath(directory, pageFile(tree, pageId, children)) : `/pages/${pageId}`;
    return `${target}${anchor ? `#${anchor}` : ''}`;
  };
  return (ref: ContentRef) => {
    switch (ref.kind) {
      case 'url':
        return ref.url;
      case 'page':
        return pageHref(ref.page, ref.anchor);
      case 'anchor':
        return ref.page ? pageHref(ref.page, ref.anchor) : `#${ref.anchor}`;
      case 'file': {
        const name = namesById.get(ref.file);
        return fromPageId && name ? posix.relative(directory, `.gitbook/assets/${name}`) : `/files/${ref.file}`;
      }
      case 'user':
        return `user:${ref.user}`;
      case 'space':
        return `/s/${ref.space}`;
      case 'collection':
        return `/collections/${ref.collection}`;
      case 'reusable-content':
        return `/reusable-content/${ref.reusableContent}`;
      case 'tag':
        return ref.tag;
      case 'openapi':
        return ref.spec;
      default:
        return '';
    }
  };
}


/** The users a markdown text mentions: links to user:<id> or /users/<id>, as GitBook writes mentions. */
export function mentionsIn(markdown: string): string[] {
  // A link's destination is the text as written, less backslash escapes (which only
  // punctuation takes) and with character references decoded: without "user" or "&" in
  // the text, none can name a user. Most comments mention no one, and parsing one cost
  // 250 µs, an eighth of posting it (bench/RESULTS.md, session 52).
  if (!markdown.includes('user') && !markdown.includes('&')) return [];
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

/** The kind of every block and inline of a document that holds a reference, with the reference. */
function referencesOf(document: Pick<JSONDocument, 'nodes'>): Array<{ type: string; ref: ContentRef }> {
  const found: Array<{ type: string; ref: ContentRef }> = [];
  const visit = (nodes: Array<Block | Inline | TextNode>) => {
    for (const node of nodes) {
      if (node.object === 'text') continue;
      const ref = node.data?.ref as ContentRef | undefined;
      if (ref) found.push({ type: node.type, ref });
      visit((node.nodes ?? []) as Array<Block | Inline | TextNode>);
      for (const fragment of (node as Block).fragments ?? []) visit(fragment.nodes as Array<Block | Inline | TextNode>);
    }
  };
  visit(document.nodes);
  return found;
}

/** The OpenAPI specs a document's blocks show, by slug. */
export function openApiSpecsOf(document: Pick<JSONDocument, 'nodes'>): string[] {
  return [...new Set(referencesOf(document).flatMap(({ type, ref }) => (type.startsWith('openapi') && ref.kind === 'openapi' && ref.spec ? [ref.spec] : [])))];
}

/** The reusable contents a document includes, by id. */
export function reusableContentsOf(document: Pick<JSONDocument, 'nodes'>): string[] {
  return [...new Set(referencesOf(document).flatMap(({ type, ref }) => (type === 'reusable-content' && ref.kind === 'reusable-content' ? [ref.reusableContent] : [])))];
}
