// GitBook's repository format (Git Sync), read and written: `.gitbook.yaml` (root,
// structure.readme, structure.summary, redirects), SUMMARY.md as the table of contents
// (`##` headings are page groups, nested lists nested pages, http links link pages),
// the folder layout when there is no SUMMARY.md, each page a markdown file with YAML
// front matter and its title as the leading `# heading`, files in .gitbook/assets, and
// reusable contents in .gitbook/includes (front matter `title`, then the body), which
// pages show with `{% include "../.gitbook/includes/<name>.md" %}`.
// Pure: the caller lists and reads the repository (a git tree, a folder) and stores
// what this answers.
import type { Code, List, ListItem, Root } from 'mdast';
import { posix } from 'node:path';
import { dump as dumpYaml } from 'js-yaml';
import { parse as parseYaml } from 'yaml';
import { toString } from 'mdast-util-to-string';
import { NO_TAGS, type TagLibrary } from '../tagLibrary.ts';
import { parseGitBookMarkdown } from './fromMarkdown.ts';
import { readTagsFile, TAGS_FILE } from './tagsFile.ts';
import { titleHeading } from './toMarkdown.ts';

/** Where the docs sit in the repository and what the configuration says of them. */
export interface RepositoryConfig {
  /** The docs' root, relative to the repository: "" or "docs". */
  root: string;
  readme: string;
  summary: string;
  /** Old paths (relative to the root, as written) and the page files they now lead to. */
  redirects: Array<{ source: string; destination: string }>;
}

export interface RepositoryPage {
  kind: 'document' | 'group' | 'link' | 'computed';
  title: string;
  /** The file's `# heading`, where it differs from the title SUMMARY.md gives. */
  heading?: string;
  /** SUMMARY.md's label for the page (the link's own title): GitBook's linkTitle, its words in the table of contents. */
  linkTitle?: string;
  /** A group's anchor, as its heading in SUMMARY.md gives it. */
  slug?: string;
  /** The page's markdown file, relative to the docs' root (documents only). */
  path?: string;
  href?: string;
  /** The front matter, every field (GitBook's: description, icon, hidden, cover, coverY, layout, if, and more). */
  front: Record<string, unknown>;
  /** The front matter's YAML as written, for the way back. */
  frontText?: string;
  /** The markdown after the front matter and the title heading. */
  body: string;
  /** Pages GitBook computes (computed only). */
  computed?: ComputedSource;
  children: RepositoryPage[];
}

/**
 * What GitBook computes pages from, as SUMMARY.md lists it (a YAML block where a page's
 * link would be): the source as GitBook's model has it (`computed` of a computed page,
 * `builtin:openapi` for an API reference made from an OpenAPI spec), and its YAML as
 * written, for the way back.
 */
export interface ComputedSource {
  source: Record<string, unknown> & { type: string };
  yaml: string;
}

/** A reusable content's file. */
export interface RepositoryInclude {
  /** Relative to the docs' root. */
  path: string;
  title: string;
  /** The front matter's YAML as written, where it says more than the title or says it otherwise: for the way back. */
  frontText?: string;
  body: string;
}

export interface RepositoryContent {
  config: RepositoryConfig;
  pages: RepositoryPage[];
  /** The reusable contents, from .gitbook/includes. */
  includes: RepositoryInclude[];
  /** Files under .gitbook/assets, relative to the docs' root. */
  assets: string[];
  /** The tag library, from .gitbook/tags.yaml. */
  tags: TagLibrary;
  /** What a person should know about the import: files listed twice, pages left out, unreadable front matter. */
  warnings: string[];
}

export interface RepositorySource {
  /** Every file of the repository, relative to its top, with "/" separators. */
  paths: string[];
  read(path: string): Promise<Buffer>;
}

export const ASSETS_DIRECTORY = '.gitbook/assets';
export const INCLUDES_DIRECTORY = '.gitbook/includes';
const CONFIG_FILE = '.gitbook.yaml';
const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

export class RepositoryFormatError extends Error {}

/** YAML front matter (read, and its text) and what follows it; unreadable front matter is an error naming the file. */
export function splitFrontMatter(markdown: string, where: string): { front: Record<string, unknown>; frontText?: string; body: string } {
  const matter = FRONT_MATTER.exec(markdown);
  if (!matter) return { front: {}, body: markdown };
  let data: unknown;
  try {
    data = parseYaml(matter[1]);
  } catch (error) {
    throw new RepositoryFormatError(`${where}: the front matter is not valid YAML (${(error as Error).message.split('\n')[0]})`);
  }
  const front = data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
  return { front, frontText: `${matter[1]}\n`, body: markdown.slice(matter[0].length) };
}

/** A leading "# Heading" as the title, and the body without it. */
export function splitTitle(markdown: string): { title?: string; body: string } {
  const heading = /^\s*#[ \t]+(.+?)[ \t]*#*[ \t]*(?:\r?\n|$)/.exec(markdown);
  return heading ? { title: titleText(heading[0]), body: markdown.slice(heading[0].length).replace(/^\s*\n/, '') } : { body: markdown };
}

/** Words markdown reads as they are written: no escape, entity, mark, link, tag, emoji or HTML. */
const PLAIN_WORDS = /^[\p{L}\p{N} .,;'"?()/+=%-]*$/u;

/** A `# …` line's words as the page's title: its escapes and entities read (GitBook writes `# disable\_functions bypass`). */
function titleText(line: string): string {
  // Parsing the line is most of reading a page that is not converted (a page Git Sync finds unchanged): plain words need none.
  const words = line.trim().replace(/^#+[ \t]+/, '').replace(/[ \t]+#*$/, '');
  if (PLAIN_WORDS.test(words)) return words;
  const [heading] = parseGitBookMarkdown(line.trim()).root.children;
  return heading?.type === 'heading' ? toString(heading) : line.replace(/^\s*#+/, '').trim();
}

/** A relative path inside the repository, or undefined for one that climbs out of it. */
function inside(...parts: string[]): string | undefined {
  const joined = posix.normalize(posix.join(...parts)).replace(/^\.(\/|$)/, '').replace(/\/$/, '');
  return joined.startsWith('..') || posix.isAbsolute(joined) ? undefined : joined;
}

/** The path a relative link names: without its #anchor and ?query, percent-decoded when it is encoded. */
export function decodePath(href: string): string {
  const path = href.split('#')[0].split('?')[0];
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

function stringOf(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new RepositoryFormatError(`${CONFIG_FILE}: "${field}" must be a path`);
  return value;
}

/** .gitbook.yaml of the project directory, with GitBook's defaults. */
export function readConfig(text: string | undefined, projectDirectory: string): RepositoryConfig {
  let data: Record<string, unknown> = {};
  if (text !== undefined) {
    try {
      const parsed = parseYaml(text);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) data = parsed as Record<string, unknown>;
    } catch (error) {
      throw new RepositoryFormatError(`${CONFIG_FILE} is not valid YAML (${(error as Error).message.split('\n')[0]})`);
    }
  }
  const root = inside(projectDirectory, stringOf(data.root, 'root') ?? '.');
  if (root === undefined) throw new RepositoryFormatError(`${CONFIG_FILE}: "root" leads outside the repository`);
  const structure = (data.structure && typeof data.structure === 'object' ? data.structure : {}) as Record<string, unknown>;
  const readme = inside(stringOf(structure.readme, 'structure.readme') ?? 'README.md');
  const summary = inside(stringOf(structure.summary, 'structure.summary') ?? 'SUMMARY.md');
  if (readme === undefined || summary === undefined) throw new RepositoryFormatError(`${CONFIG_FILE}: "structure" paths must stay inside the docs' root`);
  const redirects = data.redirects && typeof data.redirects === 'object' && !Array.isArray(data.redirects) ? Object.entries(data.redirects as Record<string, unknown>) : [];
  return {
    root,
    readme,
    summary,
    redirects: redirects
      .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
      .map(([source, destination]) => ({ source: source.replace(/^\/+/, ''), destination: inside(destination) ?? destination })),
  };
}

interface Outline {
  kind: 'document' | 'group' | 'link' | 'computed';
  title: string;
  path?: string;
  /** As SUMMARY.md wrote it, for an entry that points into a page (`page.md#section`). */
  href?: string;
  /** A group's anchor, from GitBook's `<a id>` in its heading. */
  slug?: string;
  /** The link's own title (`[Title](page.md "Label")`): GitBook's label for the page in the table of contents. */
  label?: string;
  /** Listed in SUMMARY.md, whose words are then the page's title. */
  listed?: boolean;
  computed?: ComputedSource;
  children: Outline[];
}

/** The words of a node; HTML in it (GitBook's `<a id>` anchors in headings) is no part of them. */
function textOf(node: { type?: string; children?: unknown[]; value?: unknown }): string {
  if (node.type === 'html') return '';
  if (typeof node.value === 'string') return node.value;
  return (node.children ?? []).map((child) => textOf(child as { children?: unknown[] })).join('');
}

/**
 * A block of pages GitBook computes, as SUMMARY.md lists it: its YAML source, under the
 * entry keyed `parent` (a page's path, a link's URL, `## <group title>`, or "" at the top)
 * at `index` among that entry's items.
 */
export interface ComputedPagesBlock {
  parent: string;
  index: number;
  yaml: string;
}

/** How a group is named as the `parent` of a block of computed pages, read and written alike. */
const groupKey = (title: string) => `## ${title}`;

/** The outline SUMMARY.md describes, paths relative to the docs' root; the blocks of computed pages it lists go to `computed`. */
function readSummary(markdown: string, summaryPath: string, warnings: string[], computed: ComputedPagesBlock[] = []): Outline[] {
  const root: Root = parseGitBookMarkdown(markdown).root;
  const directory = posix.dirname(summaryPath);
  const top: Outline[] = [];
  let group: Outline | undefined;
  const itemsSoFar = new Map<string, number>();
  const items = (list: List, parent: string): Outline[] => list.children.flatMap((item) => entry(item, parent));
  const entry = (item: ListItem, parent: string): Outline[] => {
    const index = itemsSoFar.get(parent) ?? 0;
    itemsSoFar.set(parent, index + 1);
    const paragraph = item.children.find((child) => child.type === 'paragraph');
    const link = paragraph?.children.find((child) => child.type === 'link');
    const lists = item.children.filter((child): child is List => child.type === 'list');
    const under = (key: string) => lists.flatMap((list) => items(list, key));
    if (!link) {
      const title = paragraph ? textOf(paragraph).trim() : '';
      if (title) warnings.push(`${summaryPath}: "${title}" links to no file; it is left out`);
      const code = item.children.find((child): child is Code => child.type === 'code');
      if (!code) return under(parent);
      computed.push({ parent, index, yaml: code.value });
      const source = computedSourceOf(code.value);
      if (!source) {
        warnings.push(`${summaryPath}: a YAML block where GitBook lists the source of pages it computes is not such a source; it is left out of the space, and an export to the repository keeps it in ${summaryPath}`);
        return under(parent);
      }
      warnings.push(computedPagesWarning(summaryPath, source));
      return [{ kind: 'computed', title: computedTitle(source), computed: { source, yaml: code.value }, children: [] }, ...under(parent)];
    }
    const title = textOf(link).trim() || link.url;
    if (/^[a-z][a-z0-9+.-]*:/i.test(link.url)) return [{ kind: 'link', title, href: link.url, children: under(link.url) }];
    const path = inside(directory, decodePath(link.url));
    if (path === undefined) {
      warnings.push(`${summaryPath}: "${link.url}" leads outside the docs; it is left out`);
      return under(parent);
    }
    return [{ kind: 'document', title, path, listed: true, ...(link.url.includes('#') ? { href: link.url } : {}), ...(link.title ? { label: link.title } : {}), children: under(path) }];
  };
  for (const node of root.children) {
    if (node.type === 'heading' && node.depth >= 2) {
      const anchor = node.children.map((child) => (child.type === 'html' ? /\bid="([^"]+)"/.exec(child.value)?.[1] : undefined)).find(Boolean);
      group = { kind: 'group', title: textOf(node).trim(), ...(anchor ? { slug: anchor } : {}), children: [] };
      top.push(group);
    } else if (node.type === 'thematicBreak') {
      // GitBook writes `***` after a group for the top-level pages that follow it.
      group = undefined;
    } else if (node.type === 'list') {
      (group ? group.children : top).push(...items(node, group ? groupKey(group.title) : ''));
    }
  }
  return top;
}

/**
 * The blocks of computed pages a SUMMARY.md lists, which an export writes back where they
 * were when the space does not hold them as computed pages (an import before it kept
 * them, or a block that is no source GitBook computes from).
 */
export function computedPagesBlocksOf(markdown: string, summaryPath: string): ComputedPagesBlock[] {
  const computed: ComputedPagesBlock[] = [];
  readSummary(markdown, summaryPath, [], computed);
  return computed;
}

/** The source of computed pages a SUMMARY.md item's YAML block gives: an object with its `type`, else undefined. */
function computedSourceOf(yaml: string): ComputedSource['source'] | undefined {
  try {
    const source = parseYaml(yaml) as unknown;
    return source && typeof source === 'object' && typeof (source as { type?: unknown }).type === 'string' ? (source as ComputedSource['source']) : undefined;
  } catch {
    return undefined;
  }
}

const specOf = (source: ComputedSource['source']) => {
  const spec = (source.dependencies as { spec?: { ref?: { spec?: unknown } } } | undefined)?.spec?.ref?.spec;
  return typeof spec === 'string' ? spec : undefined;
};

/** SUMMARY.md gives computed pages no title, and GitBook's model wants one: the spec an API reference is made from, else the kind of source. */
function computedTitle(source: ComputedSource['source']): string {
  const spec = specOf(source);
  return spec ? `OpenAPI: ${spec}` : source.type;
}

/**
 * GitBook computes these pages (an API reference from an OpenAPI spec, a translation);
 * Quire keeps their source as a computed page but computes none, so it says so rather
 * than show nothing unannounced.
 */
function computedPagesWarning(summaryPath: string, source: ComputedSource['source']): string {
  const spec = specOf(source);
  return `${summaryPath}: pages GitBook computes (${source.type})${spec ? ` from the OpenAPI spec "${spec}"` : ''} are kept as a computed page, which Quire does not compute: its readers see no pages for it (openapi-operation blocks in a page show a spec's operations); an export writes it back in ${summaryPath}`;
}

const isMarkdown = (path: string) => /\.md$/i.test(path);
const titleOfFile = (path: string) => {
  const name = posix.basename(path).replace(/\.md$/i, '');
  return name.replace(/[-_]+/g, ' ').replace(/^\w/, (first) => first.toUpperCase());
};

/** The outline of a folder when there is no SUMMARY.md: README.md first at each level, then files and folders by name. */
function outlineFromFolders(markdownPaths: string[], readme: string): Outline[] {
  const within = (directory: string): Outline[] => {
    const prefix = directory ? `${directory}/` : '';
    const here = markdownPaths.filter((path) => path.startsWith(prefix) && !path.slice(prefix.length).includes('/'));
    const folders = [...new Set(markdownPaths.filter((path) => path.startsWith(prefix) && path.slice(prefix.length).includes('/')).map((path) => prefix + path.slice(prefix.length).split('/')[0]))];
    const entries: Array<{ name: string; outline: Outline }> = [];
    for (const path of here) {
      if (/(^|\/)README\.md$/i.test(path) && directory) continue;
      entries.push({ name: posix.basename(path), outline: { kind: 'document', title: titleOfFile(path), path, children: [] } });
    }
    for (const folder of folders) {
      const readmeOf = markdownPaths.find((path) => path.toLowerCase() === `${folder}/readme.md`.toLowerCase());
      const children = within(folder);
      entries.push({ name: posix.basename(folder), outline: readmeOf ? { kind: 'document', title: titleOfFile(folder), path: readmeOf, children } : { kind: 'document', title: titleOfFile(folder), children } });
    }
    entries.sort((a, b) => a.name.localeCompare(b.name));
    if (!directory) {
      const first = entries.findIndex((entry) => entry.outline.path === readme);
      if (first > 0) entries.unshift(...entries.splice(first, 1));
    }
    return entries.map((entry) => entry.outline);
  };
  return within('');
}

/**
 * Reads a repository in GitBook's format. Paths in the answer are relative to the docs'
 * root; the source's paths are relative to the repository's top.
 */
export async function readRepository(source: RepositorySource, projectDirectory = ''): Promise<RepositoryContent> {
  const configPath = inside(projectDirectory, CONFIG_FILE);
  const has = new Set(source.paths);
  const config = readConfig(configPath && has.has(configPath) ? (await source.read(configPath)).toString('utf8') : undefined, projectDirectory);
  const prefix = config.root ? `${config.root}/` : '';
  const docs = source.paths.filter((path) => path.startsWith(prefix)).map((path) => path.slice(prefix.length));
  const docSet = new Set(docs);
  const warnings: string[] = [];
  const read = async (path: string) => (await source.read(prefix + path)).toString('utf8');
  const skipped = (path: string) => path.startsWith('.') || path.includes('/.') || path.startsWith('node_modules/') || path.includes('/node_modules/');
  const markdownPaths = docs.filter((path) => isMarkdown(path) && !skipped(path) && path !== config.summary).sort();

  let outline = docSet.has(config.summary)
    ? readSummary(await read(config.summary), config.summary, warnings)
    : outlineFromFolders(markdownPaths, config.readme);
  // The README is the first page, listed or not.
  const listed = new Set<string>();
  const collect = (entries: Outline[]) => entries.forEach((entry) => (entry.path && listed.add(entry.path), collect(entry.children)));
  collect(outline);
  if (docSet.has(config.readme) && !listed.has(config.readme)) outline = [{ kind: 'document', title: 'Introduction', path: config.readme, children: [] }, ...outline];

  const seen = new Set<string>();
  const build = async (entries: Outline[]): Promise<RepositoryPage[]> => {
    const pages: RepositoryPage[] = [];
    for (const entry of entries) {
      const children = await build(entry.children);
      if (entry.kind !== 'document' || entry.path === undefined) {
        pages.push({ kind: entry.kind, title: entry.title, ...(entry.href ? { href: entry.href } : {}), ...(entry.slug ? { slug: entry.slug } : {}), ...(entry.computed ? { computed: entry.computed } : {}), front: {}, body: '', children });
        continue;
      }
      if (seen.has(entry.path) && entry.href) {
        // A section of a page listed on its own: GitBook's table of contents shows it as a link.
        pages.push({ kind: 'link', title: entry.title, href: entry.href, front: {}, body: '', children });
        continue;
      }
      if (seen.has(entry.path)) {
        warnings.push(`${config.summary}: ${entry.path} is listed more than once; it is imported where it is first listed`);
        pages.push(...children);
        continue;
      }
      seen.add(entry.path);
      if (!docSet.has(entry.path)) {
        warnings.push(`${config.summary}: ${entry.path} does not exist; its page is imported empty`);
        pages.push({ kind: 'document', title: entry.title, path: entry.path, front: {}, body: '', children });
        continue;
      }
      const { front, frontText, body } = splitFrontMatter(await read(entry.path), entry.path);
      const titled = splitTitle(body);
      // GitBook's documented precedence: SUMMARY.md's words for a page are its title ("Page main title"), the link's own
      // title its words in the table of contents; the file's heading names a page SUMMARY.md does not list.
      const title = entry.listed ? entry.title : (titled.title ?? entry.title);
      const heading = titled.title !== undefined && titled.title !== title ? { heading: titled.title } : {};
      pages.push({ kind: 'document', title, ...heading, ...(entry.label ? { linkTitle: entry.label } : {}), path: entry.path, front, frontText, body: titled.body, children });
    }
    return pages;
  };
  const pages = await build(outline);
  const unlisted = markdownPaths.filter((path) => !seen.has(path) && path !== config.readme);
  if (unlisted.length > 0) warnings.push(`not in ${config.summary}, so not imported: ${unlisted.join(', ')}`);
  const assets = docs.filter((path) => path.startsWith(`${ASSETS_DIRECTORY}/`) && !path.slice(ASSETS_DIRECTORY.length + 1).includes('/'));
  const includes: RepositoryInclude[] = [];
  for (const path of docs.filter((candidate) => candidate.startsWith(`${INCLUDES_DIRECTORY}/`) && isMarkdown(candidate)).sort()) {
    const { front, frontText, body } = splitFrontMatter(await read(path), path);
    const title = typeof front.title === 'string' && front.title.trim() ? front.title : posix.basename(path).replace(/\.md$/i, '');
    const kept = frontText !== undefined && frontText !== frontMatterYaml({ title }) ? { frontText } : {};
    includes.push({ path, title, ...kept, body });
  }
  const tags = docSet.has(TAGS_FILE) ? readTagsFile(await read(TAGS_FILE), warnings) : NO_TAGS;
  return { config, pages, includes, assets, tags, warnings };
}

/** A page as exported: its file, and where its sub-pages go. */
export interface ExportedPage {
  kind: 'document' | 'group' | 'link' | 'computed';
  /** As SUMMARY.md lists it. */
  title: string;
  /** A group's anchor, written when it is not what GitBook makes of the title. */
  anchor?: string;
  /** The link's own title in SUMMARY.md. */
  label?: string;
  path?: string;
  href?: string;
  /** A computed page's source, its YAML as SUMMARY.md wrote it. */
  yaml?: string;
  children: ExportedPage[];
}

/** Text with every character that could start markup escaped, so that it reads back as written. */
const literal = (text: string) => text.replace(/([\\[\]*_`<>!~#])/g, '\\$1').replace(/&(?=#?[A-Za-z0-9]+;)/g, '\\&');

function summaryLink(title: string, target: string, label?: string): string {
  const escaped = literal(title);
  const href = /[\s()<>]/.test(target) ? `<${target}>` : target;
  return `[${escaped}](${href}${label ? ` "${label.replace(/(["\\])/g, '\\$1')}"` : ''})`;
}

/** SUMMARY.md for a space's pages, written as GitBook writes it; paths relative to the summary's folder. */
export function writeSummary(pages: ExportedPage[], summaryPath: string, computed: ComputedPagesBlock[] = []): string {
  const directory = posix.dirname(summaryPath);
  const lines: string[] = ['# Table of contents', ''];
  const itemsSoFar = new Map<string, number>();
  const written = new Set<ComputedPagesBlock>();
  /** An item of computed pages as GitBook writes it: a YAML fence where a page's link would be. */
  const computedItem = (yaml: string, depth: number) => {
    const indent = '  '.repeat(depth);
    lines.push(`${indent}* \`\`\`yaml`, ...yaml.split('\n').map((line) => (line ? `${indent}  ${line}` : '')), `${indent}  \`\`\``);
  };
  /**
   * The blocks of computed pages that stood under `parent` (any, when undefined) at the
   * place reached (all that are left, once its entries are written), as GitBook writes
   * them: an item holding a YAML fence.
   */
  const computedBlocks = (parent: string | undefined, depth: number, rest: boolean) => {
    for (;;) {
      const index = itemsSoFar.get(parent ?? '') ?? 0;
      const block = computed.find((candidate) => (parent === undefined || candidate.parent === parent) && !written.has(candidate) && (rest || candidate.index <= index));
      if (!block) return;
      written.add(block);
      computedItem(block.yaml, depth);
      itemsSoFar.set(parent ?? '', index + 1);
    }
  };
  const list = (entries: ExportedPage[], depth: number, parent: string) => {
    for (const entry of entries) {
      computedBlocks(parent, depth, false);
      if (entry.kind === 'computed') {
        computedItem(entry.yaml!, depth);
        itemsSoFar.set(parent, (itemsSoFar.get(parent) ?? 0) + 1);
        continue;
      }
      const target = entry.kind === 'link' ? entry.href! : posix.relative(directory, entry.path!);
      lines.push(`${'  '.repeat(depth)}* ${summaryLink(entry.title, target, entry.label)}`);
      itemsSoFar.set(parent, (itemsSoFar.get(parent) ?? 0) + 1);
      const key = entry.kind === 'link' ? entry.href! : entry.path!;
      list(entry.children, depth + 1, key);
      computedBlocks(key, depth + 1, true);
    }
  };
  // A list after a `##` heading belongs to its group: top-level pages that follow a group
  // come after `***`, which ends it, as GitBook writes them.
  let afterGroup = false;
  for (const entry of pages) {
    if (entry.kind === 'group') {
      const anchor = entry.anchor ? ` <a href="#${entry.anchor}" id="${entry.anchor}"></a>` : '';
      lines.push('', `## ${literal(entry.title)}${anchor}`, '');
      list(entry.children, 0, groupKey(entry.title));
      computedBlocks(groupKey(entry.title), 0, true);
      afterGroup = true;
      continue;
    }
    if (afterGroup) lines.push('', '***', '');
    afterGroup = false;
    list([entry], 0, '');
  }
  // The rest (at the top, or a block whose page is gone) stays at the end of the top level, rather than be lost.
  if (afterGroup && computed.some((block) => !written.has(block))) lines.push('', '***', '');
  computedBlocks('', 0, true);
  computedBlocks(undefined, 0, true);
  return `${lines.join('\n').replace(/\n{3,}/g, '\n\n').replace(/\n+$/, '')}\n`;
}

/**
 * Front matter as GitBook writes it: js-yaml's dump, with its defaults (long text folded
 * at 80 columns as `>-`, text with a no-break space double-quoted), which writes 249 of
 * the 252 front matters of GitBook's own documentation back byte for byte (the other
 * three were written by hand).
 */
function frontMatterYaml(fields: Record<string, unknown>): string {
  return dumpYaml(fields);
}

/**
 * A body as a file ends it: from its first line with anything on it, to one newline, or
 * to the blank lines the writer put after the last block for GitBook's empty paragraphs
 * there (`</table>`, a blank line, the end). Nothing when the body is blank.
 */
function fileBody(body: string): string {
  const text = body.trim();
  if (!text) return '';
  const endingNewlines = body.slice(body.trimEnd().length).split('\n').length - 1;
  return `${text}${'\n'.repeat(Math.max(1, endingNewlines))}`;
}

/** A reusable content's file, as GitBook writes it: its title in the front matter, then the body. */
/**
 * A reusable content's file: its front matter (the YAML it came with, `frontText`, as
 * written while its title is the one given, its other fields and their order kept
 * otherwise), then its body.
 */
export function writeIncludeFile(title: string, body: string, frontText?: string): string {
  const text = fileBody(body);
  let yaml = frontMatterYaml({ title });
  if (frontText !== undefined) {
    const written: unknown = parseYaml(frontText);
    const fields = written && typeof written === 'object' && !Array.isArray(written) ? (written as Record<string, unknown>) : {};
    yaml = fields.title === title ? frontText : frontMatterYaml('title' in fields ? { ...fields, title } : { title, ...fields });
  }
  return `---\n${yaml}---\n${text ? `\n${text}` : ''}`;
}

/** A page's file: its front matter (when it has any: its fields, or the YAML to write as it is), the title as a heading, the body. */
export function writePageFile(front: Record<string, unknown> | string, title: string, body: string): string {
  const fields = typeof front === 'string' ? {} : Object.fromEntries(Object.entries(front).filter(([, value]) => value !== undefined));
  const yaml = typeof front === 'string' ? front : Object.keys(fields).length > 0 ? frontMatterYaml(fields) : '';
  // GitBook writes a blank line after the title even when nothing follows it.
  return `${yaml ? `---\n${yaml}---\n\n` : ''}${titleHeading(title)}\n\n${fileBody(body)}`;
}
