// Spaces as repositories in GitBook's format, both ways, for Git Sync and for the
// command line's folder import and export: a repository read by
// content/gitbook/repository.ts becomes a space's tree and files (pages keep their ids
// where their files keep their paths), and a revision becomes the files of a repository.
import { readdir, readFile, mkdir, writeFile } from 'node:fs/promises';
import { join, posix, relative as relativePath, sep } from 'node:path';
import { documentToMarkdown, hasScheme, linkResolverFor, linksAsWritten, linkWriterFor, markdownToDocument, namedFiles, pageLinkPath, STORED_PAGE_LINK, withReusableContents, type ContentRef } from '../content/document.ts';
import type { FileEntry } from '../content/files.ts';
import type { ReusableEntry } from '../content/reusables.ts';
import { parse as parseYaml } from 'yaml';
import { ASSETS_DIRECTORY, computedPagesBlocksOf, decodePath, INCLUDES_DIRECTORY, readConfig, readRepository, writeIncludeFile, writePageFile, writeSummary, type ExportedPage, type ComputedPagesBlock, type RepositoryConfig, type RepositoryContent, type RepositoryPage, type RepositorySource } from '../content/gitbook/repository.ts';
import { brokenLinkTo } from '../content/gitbook/toMarkdown.ts';
import { isPageSlug } from '../content/changes.ts';
import { hashOf, type Hash } from '../content/objects.ts';
import { childrenByParent, inReadingOrder, type FlatPage, type FlatTree, type PageMeta } from '../content/tree.ts';
import { databaseObjectStore } from '../db/repos/contentObjects.ts';
import { findRevisionGit } from '../db/repos/gitSync.ts';
import { firstAdminId } from '../db/repos/members.ts';
import { openApiSpecsQuery } from '../db/repos/openApiSpecs.ts';
import { findSpace } from '../db/repos/spaces.ts';
import { findUserById } from '../db/repos/users.ts';
import type { Db, GitPaths, SpaceRow } from '../db/schema.ts';
import { NotFound } from '../errors.ts';
import { isoNow } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { imageFacts } from '../lib/uploads.ts';
import { mergeRevisionIntoSpace, storeRevision } from './changeRequestContent.ts';
import type { Actor, ServiceContext } from './context.ts';
import { listsOf, requireRevision, treeOf } from './revisionContent.ts';
import { slugify, uniquePath } from '../lib/slugs.ts';

function hasCredentials(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const { username, password } = new URL(url);
  return username !== '' || password !== '';
}

/** The largest file an import brings in; a larger one stays where it is and is reported. */
export const MAX_GIT_FILE_BYTES = 10 * 1024 * 1024;

/** A revision as an import starts from: its tree, files and where each sat in git. */
interface Baseline {
  revisionId: string;
  tree: FlatTree;
  files: FileEntry[];
  /** Page and file ids by their path (relative to the docs' root). */
  pageByPath: Map<string, string>;
  fileByName: Map<string, string>;
  reusableByPath: Map<string, string>;
  /** The git blob each page's file and each file had at the last sync, by path: an import reuses what it made of one that is unchanged. */
  syncedOids: Map<string, string>;
}

async function loadBaseline(db: Db, revisionId: string, root: string): Promise<Baseline> {
  const revision = await requireRevision(db, revisionId);
  const tree = await treeOf(db, revision.root_hash);
  const { files, reusables } = await listsOf(db, revision);
  const synced = await findRevisionGit(db, revisionId);
  const paths = synced ? (JSON.parse(synced.paths) as GitPaths) : undefined;
  const pageByPath = new Map<string, string>();
  const strip = (path: string) => (root && path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path);
  const syncedOids = new Map<string, string>();
  if (paths) {
    for (const [id, [path, oid]] of Object.entries(paths.pages)) {
      pageByPath.set(strip(path), id);
      syncedOids.set(strip(path), oid);
    }
    for (const [path, oid] of Object.values(paths.files)) syncedOids.set(strip(path), oid);
  } else for (const [id, path] of defaultPagePaths(tree, 'README.md')) pageByPath.set(path, id);
  const keptReusables = new Map(Object.entries(paths?.reusables ?? {}).map(([id, [path]]) => [id, strip(path)]));
  const reusableByPath = new Map([...defaultReusablePaths(reusables, keptReusables)].map(([id, path]) => [path, id]));
  return { revisionId, tree, files, pageByPath, fileByName: new Map(files.map((file) => [file.name, file.id])), reusableByPath, syncedOids };
}

const LAYOUT_PARTS = ['title', 'description', 'tableOfContents', 'outline', 'pagination'] as const;

/** Page metadata from GitBook's front matter; fields of the wrong kind are reported and left out. */
function metaFromFront(front: Record<string, unknown>, frontText: string | undefined, where: string, coverFile: (path: string) => string | undefined, warnings: string[]): Partial<PageMeta> {
  const meta: Partial<PageMeta> = {};
  for (const field of ['description', 'icon', 'emoji', 'if'] as const) {
    if (front[field] === undefined) continue;
    if (typeof front[field] === 'string') meta[field] = front[field];
    else warnings.push(`${where}: front matter "${field}" must be text; it is left out`);
  }
  for (const field of ['hidden', 'noIndex', 'noRobotsIndex'] as const) {
    if (front[field] === undefined) continue;
    if (typeof front[field] === 'boolean') meta[field] = front[field];
    else warnings.push(`${where}: front matter "${field}" must be true or false; it is left out`);
  }
  if (typeof front.cover === 'string') {
    const file = coverFile(front.cover);
    if (file) meta.cover = { ref: { kind: 'file', file }, ...(typeof front.coverY === 'number' ? { yPos: front.coverY } : {}) };
    else {
      // Absent from the repository (or too large to import): the page shows none, and its front matter keeps it for the way back.
      meta.coverNotImported = true;
      warnings.push(`${where}: the cover ${front.cover} is not a file of the repository; the page has none, and an export keeps it in the front matter`);
    }
  }
  if (front.layout && typeof front.layout === 'object') {
    const given = front.layout as Record<string, { visible?: unknown; size?: unknown } | undefined>;
    const layout: Record<string, unknown> = {};
    for (const part of LAYOUT_PARTS) if (typeof given[part]?.visible === 'boolean') layout[part] = given[part]!.visible;
    if (typeof given.cover?.visible === 'boolean') layout.cover = given.cover.visible;
    if (given.cover?.size === 'hero' || given.cover?.size === 'full') layout.coverSize = given.cover.size;
    if (Object.keys(layout).length > 0) meta.layout = layout;
  }
  // The front matter as written, for an export to keep its order, its styles and the fields Quire does not use. As text:
  // a page's metadata is stored with its keys sorted (canonicalJson), which lost the order of an object.
  if (Object.keys(front).length > 0 && frontText !== undefined) meta.frontMatter = frontText;
  return meta;
}

const MANAGED_FIELDS = new Set(['description', 'icon', 'emoji', 'hidden', 'noIndex', 'noRobotsIndex', 'cover', 'coverY', 'if']);
type Fields = Record<string, unknown>;
const isFields = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `managed` (what Quire's metadata says now) laid over `written` (the front matter the
 * page came with): the file's order and its other fields stay; Quire's fields take
 * Quire's values, and go when Quire's metadata no longer has them.
 */
function overlay(written: Fields, managed: Fields, isManaged: (key: string) => boolean): Fields {
  const out: Fields = {};
  for (const [key, value] of Object.entries(written)) {
    if (isFields(value) && isFields(managed[key])) out[key] = overlay(value, managed[key] as Fields, () => true);
    else if (!isManaged(key)) out[key] = value;
    else if (managed[key] !== undefined) out[key] = managed[key];
  }
  for (const [key, value] of Object.entries(managed)) if (!(key in written) && value !== undefined) out[key] = value;
  return out;
}

/** The layout as written, with Quire's parts over it: a part's `visible`, the cover's `visible` and `size`. */
function overlayLayout(written: unknown, managed: unknown): unknown {
  if (!isFields(written)) return managed;
  const parts = isFields(managed) ? managed : {};
  const out: Fields = {};
  for (const [key, value] of Object.entries(written)) {
    const mine = parts[key];
    if (!isFields(value) || !(LAYOUT_PARTS.includes(key as never) || key === 'cover')) out[key] = value;
    else {
      // Quire knows `visible`, and `size` when it is hero or full; anything else of the part stays.
      const known = (field: string) => field === 'visible' || (field === 'size' && (value.size === 'hero' || value.size === 'full'));
      const merged = overlay(value, isFields(mine) ? mine : {}, known);
      if (Object.keys(merged).length > 0) out[key] = merged;
    }
  }
  for (const [key, value] of Object.entries(parts)) if (!(key in written)) out[key] = value;
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The front matter a page was imported with: its YAML (stored since 2026-11-27), or the fields, as stored before. */
function writtenFrontMatter(meta: PageMeta): { fields: Fields; text?: string } {
  if (typeof meta.frontMatter === 'string') {
    const fields = parseYaml(meta.frontMatter) as unknown;
    return { fields: isFields(fields) ? fields : {}, text: meta.frontMatter };
  }
  return { fields: isFields(meta.frontMatter) ? meta.frontMatter : {} };
}

/**
 * GitBook's front matter from page metadata (what `metaFromFront` reads): the YAML the
 * page was imported with while Quire's fields still say what it says, so a file comes
 * back as written; its fields with Quire's laid over them otherwise.
 */
function frontFromMeta(meta: PageMeta, coverPath: (fileId: string) => string | undefined): Record<string, unknown> | string {
  const front: Record<string, unknown> = {};
  for (const field of ['description', 'icon', 'emoji', 'hidden', 'noIndex', 'noRobotsIndex'] as const) if (meta[field] !== undefined && meta[field] !== '') front[field] = meta[field];
  const cover = meta.cover as { ref?: { kind?: string; file?: string }; yPos?: number } | undefined;
  const coverAt = cover?.ref?.kind === 'file' && cover.ref.file ? coverPath(cover.ref.file) : undefined;
  if (coverAt) {
    front.cover = coverAt;
    if (cover?.yPos !== undefined) front.coverY = cover.yPos;
  }
  const parts = meta.layout as Record<string, unknown> | undefined;
  if (parts) {
    const layout: Record<string, unknown> = {};
    if (parts.cover !== undefined || parts.coverSize !== undefined) layout.cover = { visible: parts.cover ?? true, ...(parts.coverSize ? { size: parts.coverSize } : {}) };
    for (const part of LAYOUT_PARTS) if (typeof parts[part] === 'boolean') layout[part] = { visible: parts[part] };
    if (Object.keys(layout).length > 0) front.layout = layout;
  }
  if (typeof meta.if === 'string') front.if = meta.if;
  const { fields: written, text } = writtenFrontMatter(meta);
  const layout = overlayLayout(written.layout, front.layout);
  // A cover the import could not bring in stays as written, until the page is given one in Quire.
  const keptCover = meta.coverNotImported === true && !coverAt;
  const fields = overlay({ ...written, layout: undefined }, { ...front, layout }, (key) => (MANAGED_FIELDS.has(key) && !(keptCover && (key === 'cover' || key === 'coverY'))) || key === 'layout');
  return text !== undefined && JSON.stringify(fields) === JSON.stringify(written) ? text : fields;
}

const sameMeta = (a: PageMeta, b: Partial<PageMeta>) => JSON.stringify({ ...a, createdAt: 0, updatedAt: 0 }) === JSON.stringify({ ...a, ...b, createdAt: 0, updatedAt: 0 }) && Object.keys(a).length === Object.keys({ ...a, ...b }).length;

export interface ImportedContent {
  tree: FlatTree;
  files: FileEntry[];
  blobs: Map<Hash, string>;
  /** Paths relative to the docs' root. */
  pagePaths: Record<string, [string, string]>;
  filePaths: Record<string, [string, string]>;
  reusables: ReusableEntry[];
  reusablePaths: Record<string, [string, string]>;
  redirects: Array<{ path: string; pageId: string }>;
  warnings: string[];
}

/**
 * The space's content as the repository holds it, made from `baseline`: a page keeps its
 * id where its file keeps its path, a file where it keeps its name; links between pages
 * and to files become references that survive moves.
 */
async function importedContent(
  ctx: ServiceContext,
  repository: RepositoryContent,
  readDocsFile: (path: string) => Promise<Buffer | undefined>,
  oidOf: (path: string) => string | undefined,
  baseline: Baseline,
  /** Told after each page, with how many there are. */
  onPage?: (done: number, total: number) => void,
): Promise<ImportedContent> {
  const now = isoNow(ctx.clock);
  const store = databaseObjectStore(ctx.db);
  const warnings = [...repository.warnings];
  const blobs = new Map<Hash, string>();
  const tree: FlatTree = new Map();
  const pagePaths: Record<string, [string, string]> = {};
  const filePaths: Record<string, [string, string]> = {};
  const usedPages = new Set<string>();
  const pageAtPath = new Map<string, string>();

  // Ids first: links may point forward.
  const idOf = new Map<RepositoryPage, string>();
  const baseGroups = [...baseline.tree.values()].filter((page) => page.parentId === null && page.meta.type === 'group');
  const baseLinks = [...baseline.tree.values()].filter((page) => page.meta.type === 'link');
  const baseComputed = [...baseline.tree.values()].filter((page) => page.meta.type === 'computed');
  const claim = (candidate: string | undefined) => (candidate && !usedPages.has(candidate) ? (usedPages.add(candidate), candidate) : undefined);
  const assign = (pages: RepositoryPage[], topLevel: boolean) => {
    for (const page of pages) {
      const reused =
        page.kind === 'document' && page.path ? claim(baseline.pageByPath.get(page.path))
        : page.kind === 'group' && topLevel ? claim(baseGroups.find((group) => group.meta.title === page.title)?.id)
        : page.kind === 'link' ? claim(baseLinks.find((link) => link.meta.href === page.href && link.meta.title === page.title)?.id)
        : page.kind === 'computed' ? claim(baseComputed.find((computed) => computed.meta.computedYaml === page.computed!.yaml)?.id)
        : undefined;
      const id = reused ?? newId();
      usedPages.add(id);
      idOf.set(page, id);
      if (page.path) pageAtPath.set(page.path, id);
      assign(page.children, false);
    }
  };
  assign(repository.pages, true);
  // Reusable contents keep their ids where their files keep their paths.
  const reusableAtPath = new Map(repository.includes.map((include) => [include.path, baseline.reusableByPath.get(include.path) ?? newId()]));
  const reusableIds = new Set(reusableAtPath.values());

  // Files: everything in .gitbook/assets, and any other file a page links to.
  const files: FileEntry[] = [];
  const fileAtPath = new Map<string, string>();
  const takenNames = new Set<string>();
  const addFile = async (path: string): Promise<string | undefined> => {
    if (fileAtPath.has(path)) return fileAtPath.get(path);
    const unchanged = unchangedFile(path);
    if (unchanged && !takenNames.has(unchanged.name)) {
      // The same bytes as at the last sync: the stored file serves as it is, unread.
      takenNames.add(unchanged.name);
      return keepFile(path, unchanged);
    }
    const bytes = await readDocsFile(path);
    if (!bytes) return undefined;
    if (bytes.length > MAX_GIT_FILE_BYTES) {
      warnings.push(`${path} is ${(bytes.length / 1_048_576).toFixed(1)} MB, over the ${MAX_GIT_FILE_BYTES / 1_048_576} MB a file may hold; it is not imported`);
      return undefined;
    }
    const base = posix.basename(path);
    let name = base;
    for (let copy = 1; takenNames.has(name); copy++) name = base.replace(/(\.[^.]*)?$/, (extension) => ` (${copy})${extension}`);
    takenNames.add(name);
    const base64 = bytes.toString('base64');
    const image = imageFacts(bytes);
    const id = baseline.fileByName.get(name) ?? newId();
    // Stored as it is read, so that memory holds one file at a time, not all of them.
    await store.put(new Map([[hashOf(base64), base64]]));
    return keepFile(path, { id, name, contentType: image?.contentType ?? contentTypeOf(name), size: bytes.length, ...(image?.dimensions ? { dimensions: image.dimensions } : {}), blob: hashOf(base64) });
  };
  /** The file of the last sync at this path in .gitbook/assets, when its blob is the same. */
  function unchangedFile(path: string): FileEntry | undefined {
    const oid = oidOf(path);
    if (!oid || !path.startsWith(`${ASSETS_DIRECTORY}/`) || baseline.syncedOids.get(path) !== oid) return undefined;
    const id = baseline.fileByName.get(posix.basename(path));
    return baseline.files.find((file) => file.id === id);
  }
  function keepFile(path: string, file: FileEntry): string {
    files.push(file);
    fileAtPath.set(path, file.id);
    filePaths[file.id] = [`${ASSETS_DIRECTORY}/${file.name}`, oidOf(path) ?? ''];
    return file.id;
  }
  for (const asset of repository.assets) await addFile(asset);

  /** Where a link of a page's (or reusable content's) file leads in the repository, relative to the docs' root. */
  // An empty link (GitBook's inactive button) names no file: not the page's folder.
  const pathFrom = (page: { path?: string }, url: string) => {
    if (url === '' || url.startsWith('#') || hasScheme(url) || url.startsWith('//')) return undefined;
    const path = decodePath(url);
    const joined = posix.normalize(path.startsWith('/') ? path.slice(1) : posix.join(posix.dirname(page.path ?? '.'), path));
    return joined.startsWith('..') ? undefined : joined.replace(/\/$/, '');
  };
  /**
   * A page's markdown as Quire stores it: links to pages and files of the repository as
   * /pages/<id> and /files/<id>, which survive moves. The converter reads the links (as
   * written); files they name come in before the writing, which resolves each.
   */
  const storedMarkdown = async (page: { path?: string; body: string }): Promise<string> => {
    const written: string[] = [];
    const document = markdownToDocument(page.body, (url) => (written.push(url), linksAsWritten(url)));
    const files = new Map<string, string>();
    for (const url of written) {
      const path = pathFrom(page, url);
      if (path === undefined || files.has(path) || pageAtPath.has(path) || pageAtPath.has(`${path}/README.md`) || /\.md$/i.test(path)) continue;
      const file = await addFile(path);
      if (file) files.set(path, file);
    }
    const resolve = (url: string): ContentRef => {
      if (url.startsWith('#')) return { kind: 'anchor', anchor: url.slice(1) };
      const path = pathFrom(page, url);
      if (path === undefined) return { kind: 'url', url };
      const anchor = url.includes('#') ? url.slice(url.indexOf('#') + 1) : undefined;
      const pageId = pageAtPath.get(path) ?? pageAtPath.get(`${path}/README.md`) ?? pageAtPath.get(`${path}.md`);
      if (pageId) return { kind: 'page', page: pageId, ...(anchor ? { anchor } : {}) };
      return files.has(path) ? { kind: 'file', file: files.get(path)! } : { kind: 'url', url };
    };
    /** An include names its file relative to the including one; Quire's markdown names the reusable content's id, and keeps what it cannot find as written. */
    const included = (target: string): string => {
      if (reusableIds.has(target)) return target;
      const path = pathFrom(page, target);
      const id = path === undefined ? undefined : reusableAtPath.get(path);
      if (id) return id;
      warnings.push(`${page.path}: includes ${target}, which is not a file of ${INCLUDES_DIRECTORY}; the include shows nothing`);
      return target;
    };
    // Without a page to be relative to, the writer writes /pages/<id> and /files/<id>.
    const write = linkWriterFor(new Map());
    return documentToMarkdown(withReusableContents(document, included), { link: (ref) => write(ref.kind === 'url' ? resolve(ref.url) : ref) });
  };

  // Links resolve through the layout: what an unchanged file made at the last sync holds only if every page, include and asset is where it was then.
  const sameLayout =
    [...pageAtPath].every(([path, id]) => baseline.pageByPath.get(path) === id) &&
    [...baseline.pageByPath.keys()].every((path) => pageAtPath.has(path)) &&
    repository.includes.every((include) => baseline.reusableByPath.has(include.path)) &&
    baseline.reusableByPath.size === repository.includes.length &&
    repository.assets.length === [...baseline.syncedOids.keys()].filter((path) => path.startsWith(`${ASSETS_DIRECTORY}/`)).length &&
    repository.assets.every((asset) => baseline.syncedOids.has(asset));
  /**
   * The stored markdown of a page whose file is the last sync's, in the same layout: no
   * conversion, which is most of an import's time. A page that links to a file outside
   * .gitbook/assets (which may be gone), or whose include named no reusable content (to
   * say so again), is converted.
   */
  const unchangedPage = async (page: RepositoryPage, id: string, previous: FlatPage | undefined): Promise<Hash | undefined> => {
    const oid = page.path ? oidOf(page.path) : undefined;
    if (!sameLayout || !previous?.blob || !oid || baseline.syncedOids.get(page.path!) !== oid || baseline.pageByPath.get(page.path!) !== id) return undefined;
    const markdown = (await store.get([previous.blob])).get(previous.blob);
    if (markdown === undefined) return undefined;
    for (const [, target] of markdown.matchAll(/\{%\s*include\s+"([^"]*)"/g)) if (!reusableIds.has(target)) return undefined;
    for (const [, fileId] of markdown.matchAll(/\/files\/([A-Za-z0-9_-]+)/g)) if (!filePaths[fileId]) return undefined;
    return previous.blob;
  };

  const build = async (pages: RepositoryPage[], parentId: string | null) => {
    const slugs: string[] = [];
    for (const [index, page] of pages.entries()) {
      const id = idOf.get(page)!;
      const previous = baseline.tree.get(id);
      const where = page.path ?? page.title;
      const fromFile = page.path ? posix.basename(page.path).replace(/\.md$/i, '') : '';
      const wanted = /^readme$/i.test(fromFile)
        ? page.path!.includes('/') ? posix.basename(posix.dirname(page.path!)) : (folderOfSubPages(page) ?? slugify(page.title, 'page'))
        : fromFile || (page.kind === 'group' ? page.slug : undefined) || slugify(page.title, 'page');
      // A file's or folder's name stays the page's slug where a slug may be it, as GitBook keeps it, so that an export writes the file back at its path.
      const slug = uniquePath(isPageSlug(wanted) ? wanted : slugify(wanted, 'page'), slugs);
      slugs.push(slug);
      let blob: Hash | null = null;
      if (page.kind === 'document') {
        blob = (await unchangedPage(page, id, previous)) ?? null;
        if (blob === null) {
          const markdown = await storedMarkdown(page);
          blob = hashOf(markdown);
          blobs.set(blob, markdown);
        }
        if (page.path) pagePaths[id] = [page.path, oidOf(page.path) ?? ''];
      }
      const coverDirectory = posix.dirname(page.path ?? '.');
      const fields = metaFromFront(page.front, page.frontText, where, (cover) => fileAtPath.get(posix.normalize(posix.join(coverDirectory, cover))), warnings);
      const meta: PageMeta = {
        title: page.title,
        slug,
        type: page.kind,
        ...(page.href ? { href: page.href } : {}),
        // What GitBook computes the pages from, and its YAML as SUMMARY.md wrote it, which an export writes back.
        ...(page.computed ? { computed: page.computed.source, computedYaml: page.computed.yaml } : {}),
        ...(page.linkTitle ? { linkTitle: page.linkTitle } : {}),
        // The file's own heading, kept while the page keeps the title SUMMARY.md gave it.
        ...(page.heading ? { heading: { title: page.title, text: page.heading } } : {}),
        ...fields,
        createdAt: previous?.meta.createdAt ?? now,
        updatedAt: now,
      } as PageMeta;
      const unchanged = previous && previous.blob === blob && sameMeta(previous.meta, meta) && sameMeta(meta, previous.meta);
      if (unchanged) meta.updatedAt = previous.meta.updatedAt;
      tree.set(id, { id, parentId, index, meta, blob });
      onPage?.(tree.size, idOf.size);
      await build(page.children, id);
    }
  };
  // Cover files named in front matter come in like linked files.
  const covers = async (pages: RepositoryPage[]): Promise<void> => {
    for (const page of pages) {
      if (typeof page.front.cover === 'string' && page.path) await addFile(posix.normalize(posix.join(posix.dirname(page.path), page.front.cover)));
      await covers(page.children);
    }
  };
  await covers(repository.pages);
  await build(repository.pages, null);
  const reusables: ReusableEntry[] = [];
  const reusablePaths: ImportedContent['reusablePaths'] = {};
  for (const include of repository.includes) {
    const id = reusableAtPath.get(include.path)!;
    const markdown = await storedMarkdown(include);
    const blob = hashOf(markdown);
    blobs.set(blob, markdown);
    reusables.push({ id, title: include.title, blob, file: include.path.slice(INCLUDES_DIRECTORY.length + 1) });
    reusablePaths[id] = [include.path, oidOf(include.path) ?? ''];
  }

  const redirects: ImportedContent['redirects'] = [];
  for (const redirect of repository.config.redirects) {
    const pageId = pageAtPath.get(redirect.destination);
    if (pageId) redirects.push({ path: redirect.source.replace(/\.md$/i, '').replace(/\/README$/i, ''), pageId });
    else warnings.push(`.gitbook.yaml: the redirect from ${redirect.source} leads to ${redirect.destination}, which is not a page; it is left out`);
  }
  return { tree, files, reusables, blobs, pagePaths, filePaths, reusablePaths, redirects, warnings };
}

/**
 * A repository's docs stored as a revision of the space made from `base` (pages keep
 * their ids where their files keep their paths), with `alsoInTransaction`'s work in
 * the same transaction; answers the revision and what the import read.
 */
export async function storeImportedRevision(
  ctx: ServiceContext,
  actor: Actor,
  spaceId: string,
  input: {
    source: RepositorySource;
    repository: RepositoryContent;
    base: string;
    /** The git blob of a file of the repository, by its path from the repository's top. */
    oidOf?: (path: string) => string | undefined;
    onPage?: (done: number, total: number) => void;
    alsoInTransaction?: (trx: Db, revisionId: string, content: ImportedContent) => Promise<void>;
  },
) {
  const { source, repository } = input;
  const prefix = repository.config.root ? `${repository.config.root}/` : '';
  const has = new Set(source.paths);
  const baseline = await loadBaseline(ctx.db, input.base, repository.config.root);
  const readDocsFile = async (path: string) => (has.has(prefix + path) ? source.read(prefix + path) : undefined);
  const content = await importedContent(ctx, repository, readDocsFile, (path) => input.oidOf?.(prefix + path), baseline, input.onPage);
  await databaseObjectStore(ctx.db).put(content.blobs);
  const revision = await ctx.db.transaction().execute(async (trx) => {
    const revisionId = await storeRevision(ctx, trx, content, [], new Map(), [input.base], actor, spaceId);
    await input.alsoInTransaction?.(trx, revisionId, content);
    return revisionId;
  });
  return { revision, content };
}

function contentTypeOf(name: string): string {
  const extension = posix.extname(name).toLowerCase();
  const known: Record<string, string> = { '.pdf': 'application/pdf', '.json': 'application/json', '.yaml': 'application/yaml', '.yml': 'application/yaml', '.txt': 'text/plain', '.csv': 'text/csv', '.zip': 'application/zip', '.mp4': 'video/mp4' };
  return known[extension] ?? 'application/octet-stream';
}

/** Where a page's file puts the page in GitBook's layout, the folder its sub-pages go in: `guide/README.md` and `guide.md` are both `guide`, `README.md` is ''. */
function pagePlaceOf(path: string): string {
  return /(^|\/)README\.md$/i.test(path) ? (posix.dirname(path) === '.' ? '' : posix.dirname(path)) : path.replace(/\.md$/i, '');
}

/**
 * The docs' README page's slug as GitBook's layout shows it: the name of the one folder
 * its sub-pages' files are in (`getting-started/readme/…` under a README.md whose page
 * GitBook calls `readme`), since the README's own file has no name of its page; else undefined.
 */
function folderOfSubPages(page: RepositoryPage): string | undefined {
  const folders = new Set(page.children.map((child) => child.path && posix.dirname(pagePlaceOf(child.path) || '.')));
  const [folder] = folders;
  if (folders.size !== 1 || !folder || folder === '.') return undefined;
  const name = posix.basename(folder);
  return isPageSlug(name) ? name : undefined;
}

// ─── Export ─────────────────────────────────────────────────────────────────────────

/**
 * GitBook's layout for pages without a place yet: the first page is the README, a page
 * with sub-pages a folder's README.md. The first page's sub-pages go in a folder of its
 * slug, as any page's do, not beside the README (GitBook's `getting-started/…` under a
 * first page "Getting Started").
 */
export function defaultPagePaths(
  tree: FlatTree,
  readme: string,
  kept: Map<string, string> = new Map(),
  /** Folders' README.md paths that have pages under them Quire does not hold (pages GitBook computes): a page that would be written there is, as GitBook writes it. */
  folderPages: ReadonlySet<string> = new Set(),
): Map<string, string> {
  const paths = new Map<string, string>();
  const used = new Set<string>();
  for (const [id, path] of kept) {
    if (tree.get(id)?.meta.type !== 'document' || used.has(path.toLowerCase())) continue;
    paths.set(id, path);
    used.add(path.toLowerCase());
  }
  const take = (wanted: string) => {
    let path = wanted;
    for (let copy = 2; used.has(path.toLowerCase()); copy++) path = wanted.replace(/(\/README)?\.md$/i, (ending) => (ending.toLowerCase() === '.md' ? `-${copy}.md` : `-${copy}/README.md`));
    used.add(path.toLowerCase());
    return path;
  };
  const children = childrenByParent(tree);
  const directoryOf = (page: FlatPage | undefined): string => {
    if (!page) return '';
    const asFolder = () => posix.join(directoryOf(page.parentId ? tree.get(page.parentId) : undefined), page.meta.slug);
    if (page.meta.type !== 'document') return asFolder();
    const path = paths.get(page.id)!;
    if (path.toLowerCase() === readme.toLowerCase()) return asFolder();
    return pagePlaceOf(path);
  };
  const first = inReadingOrder(tree).find((page) => page.meta.type === 'document');
  for (const page of inReadingOrder(tree)) {
    if (page.meta.type !== 'document' || paths.has(page.id)) continue;
    if (page === first && !used.has(readme.toLowerCase())) {
      paths.set(page.id, take(readme));
      continue;
    }
    const directory = directoryOf(page.parentId ? tree.get(page.parentId) : undefined);
    const asFolder = posix.join(directory, `${page.meta.slug}/README.md`);
    const hasChildren = (children.get(page.id) ?? []).length > 0 || folderPages.has(asFolder);
    paths.set(page.id, take(hasChildren ? asFolder : posix.join(directory, `${page.meta.slug}.md`)));
  }
  return paths;
}

/** Each reusable content's file: where it was at the last sync, else its file's path as imported, else .gitbook/includes/<its title's slug>.md. */
function defaultReusablePaths(reusables: ReusableEntry[], kept: Map<string, string> = new Map()): Map<string, string> {
  const paths = new Map<string, string>();
  const used = new Set<string>();
  for (const { id, file } of reusables) {
    const path = kept.get(id) ?? (file && `${INCLUDES_DIRECTORY}/${file}`);
    if (path === undefined || used.has(path.toLowerCase())) continue;
    paths.set(id, path);
    used.add(path.toLowerCase());
  }
  for (const { id, title } of reusables) {
    if (paths.has(id)) continue;
    const wanted = `${INCLUDES_DIRECTORY}/${slugify(title, 'include')}`;
    let path = `${wanted}.md`;
    for (let copy = 2; used.has(path.toLowerCase()); copy++) path = `${wanted}-${copy}.md`;
    paths.set(id, path);
    used.add(path.toLowerCase());
  }
  return paths;
}

/**
 * A page's words as an export writes them: SUMMARY.md's text and label, and its file's
 * heading, which is the title unless the page came with another and keeps the title it
 * came with. Pages imported before 2026-12-06 took their title from the heading and kept
 * SUMMARY.md's words, while the title stayed, in `summary`.
 */
function writtenTitles(meta: PageMeta): { listed: string; label?: string; heading: string } {
  const before = meta.summary as { title: string; text: string; label?: string } | undefined;
  if (before) return before.title === meta.title ? { listed: before.text, label: before.label, heading: meta.title } : { listed: meta.title, heading: meta.title };
  const heading = meta.heading as { title: string; text: string } | undefined;
  return { listed: meta.title, label: meta.linkTitle as string | undefined, heading: heading?.title === meta.title ? heading.text : meta.title };
}

/** Where a revision's pages, files and reusable contents went, paths relative to the docs' root. */
export interface RepositoryLayout {
  pagePaths: Map<string, string>;
  filePaths: Map<string, string>;
  reusablePaths: Map<string, string>;
}

/**
 * A space's current revision in GitBook's format: each page a file (where it was at the
 * last sync, else GitBook's layout), files in .gitbook/assets, links relative, OpenAPI
 * blocks naming the organization's public specs' addresses, and SUMMARY.md.
 */
export async function revisionAsRepository(
  db: Db,
  space: Pick<SpaceRow, 'organization_id' | 'revision_id'>,
  config: RepositoryConfig,
  /** Where pages and includes were at the last sync, and the blocks of computed pages the repository's SUMMARY.md lists. */
  kept: { pages: Map<string, string>; reusables: Map<string, string>; computedPages?: ComputedPagesBlock[] },
  /** Called once per file, one at a time: memory holds one file's bytes, not the space's. */
  write: (path: string, bytes: Buffer) => Promise<void>,
  /**
   * The last sync with the branch being written: a page whose content, fields, path and
   * links' targets are all as they were then keeps its file as the branch holds it
   * (`keep`), byte for byte, rather than being written anew in GitBook's normal form.
   */
  synced?: { revisionId: string; pageBlobs: Map<string, string>; files: Map<string, string>; keep: (path: string, oid: string) => void },
): Promise<RepositoryLayout> {
  const revision = await requireRevision(db, space.revision_id);
  const tree = await treeOf(db, revision.root_hash);
  const before = synced ? await treeOf(db, (await requireRevision(db, synced.revisionId)).root_hash) : undefined;
  const store = databaseObjectStore(db);
  const { files, reusables } = await listsOf(db, revision);
  // The blocks of the repository's SUMMARY.md that the space holds as computed pages are written from the space.
  const held = new Set([...tree.values()].map((page) => page.meta.computedYaml));
  const computedPages = (kept.computedPages ?? []).filter((block) => !held.has(block.yaml));
  const pagePaths = defaultPagePaths(tree, config.readme, kept.pages, new Set(computedPages.map((block) => block.parent)));
  const reusablePaths = defaultReusablePaths(reusables, kept.reusables);
  const filePaths = new Map<string, string>();
  const usedNames = new Set<string>();
  for (const file of files) {
    const base = file.name.replace(/[/\\]/g, '-') || file.id;
    let name = base;
    for (let copy = 1; usedNames.has(name.toLowerCase()); copy++) name = base.replace(/(\.[^.]*)?$/, (extension) => ` (${copy})${extension}`);
    usedNames.add(name.toLowerCase());
    filePaths.set(file.id, `${ASSETS_DIRECTORY}/${name}`);
  }
  for (const file of files) {
    const base64 = (await store.get([file.blob])).get(file.blob) ?? '';
    await write(filePaths.get(file.id)!, Buffer.from(base64, 'base64'));
  }
  const markdown = await store.get([...[...tree.values()].flatMap((page) => (page.blob ? [page.blob] : [])), ...reusables.map((reusable) => reusable.blob)]);
  const resolverFiles = namedFiles(files);
  const fallback = linkWriterFor(tree);
  // A repository may be public: only a public spec's address is written (as its content's
  // public URL is answered), never one holding credentials; one uploaded as text has none.
  const specs = await openApiSpecsQuery(db, space.organization_id).where('s.visibility', '=', 'public').execute();
  const specUrls = new Map(specs.flatMap((spec) => (spec.source_url && !hasCredentials(spec.source_url) ? [[spec.slug, spec.source_url] as const] : [])));
  /**
   * A file's markdown as written at `path`: links to pages, files and reusable contents
   * relative to it; `moved` says whether a target is no longer where the last sync had it.
   */
  const written = (text: string, path: string, fromPageId?: string) => {
    const directory = posix.dirname(path);
    let moved = false;
    const at = <T extends string | undefined>(now: T, then: string | undefined): T => {
      if (now !== then) moved = true;
      return now;
    };
    const relative = (target: string) => posix.relative(directory, target) || posix.basename(target);
    const fileAt = (fileId: string) => at(filePaths.get(fileId), synced?.files.get(fileId));
    const document = markdownToDocument(text, linkResolverFor(tree, fromPageId, resolverFiles));
    // An include whose file the import did not find stays as it was written.
    const included = (id: string) => {
      const target = at(reusablePaths.get(id), kept.reusables.get(id));
      return target !== undefined ? relative(target) : id;
    };
    const body = documentToMarkdown(withReusableContents(document, included), {
      link: (ref) => {
        const target = ref.kind === 'page' || ref.kind === 'anchor' ? ref.page : undefined;
        if (target && at(pagePaths.get(target), kept.pages.get(target)) !== undefined) return `${pageLinkPath(directory, pagePaths.get(target)!)}${ref.kind !== 'url' && 'anchor' in ref && ref.anchor ? `#${ref.anchor}` : ''}`;
        if (ref.kind === 'file' && fileAt(ref.file) !== undefined) return relative(filePaths.get(ref.file)!);
        // A page or file that is gone, in GitBook's form for it (Quire's own, /pages/<id>, would read as a path).
        if (ref.kind === 'file') return brokenLinkTo('files', ref.file);
        const gone = ref.kind === 'url' ? STORED_PAGE_LINK.exec(ref.url) : null;
        if (gone && !tree.has(gone[1])) return at(brokenLinkTo('pages', gone[1]), undefined);
        return fallback(ref);
      },
      openApiSpecUrl: (spec) => specUrls.get(spec),
    });
    return { body, relative, fileAt, moved: () => moved };
  };
  for (const page of tree.values()) {
    if (page.meta.type !== 'document') continue;
    const path = pagePaths.get(page.id)!;
    const { body, relative, fileAt, moved } = written(page.blob ? (markdown.get(page.blob) ?? '') : '', path, page.id);
    const front = frontFromMeta(page.meta, (fileId) => {
      const file = fileAt(fileId);
      return file !== undefined ? relative(file) : undefined;
    });
    const then = before?.get(page.id);
    const oid = synced?.pageBlobs.get(page.id);
    if (then && oid && then.blob === page.blob && JSON.stringify(then.meta) === JSON.stringify(page.meta) && kept.pages.get(page.id) === path && !moved()) synced!.keep(path, oid);
    else await write(path, Buffer.from(writePageFile(front, writtenTitles(page.meta).heading, body)));
  }
  for (const reusable of reusables) {
    const path = reusablePaths.get(reusable.id)!;
    await write(path, Buffer.from(writeIncludeFile(reusable.title, written(markdown.get(reusable.blob) ?? '', path).body)));
  }
  const children = childrenByParent(tree);
  const outline = (parentId: string | null): ExportedPage[] =>
    (children.get(parentId) ?? []).map((page) => {
      const { listed, label } = writtenTitles(page.meta);
      return {
        kind: page.meta.type,
        title: listed,
        ...(label ? { label } : {}),
        ...(page.meta.type === 'group' && page.meta.slug !== slugify(page.meta.title, 'page') ? { anchor: page.meta.slug } : {}),
        path: pagePaths.get(page.id),
        href: page.meta.href as string | undefined,
        ...(page.meta.type === 'computed' ? { yaml: page.meta.computedYaml as string } : {}),
        children: outline(page.id),
      };
    });
  await write(config.summary, Buffer.from(writeSummary(outline(null), config.summary, computedPages)));
  return { pagePaths, filePaths, reusablePaths };
}

/** The files of a folder, as a repository to read; .git and node_modules left out. */
export async function folderSource(folder: string): Promise<RepositorySource> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  const paths = entries
    .filter((entry) => entry.isFile())
    .map((entry) => relativePath(folder, join(entry.parentPath ?? (entry as unknown as { path: string }).path, entry.name)).split(sep).join('/'))
    .filter((path) => !/(^|\/)(\.git|node_modules)\//.test(path));
  return { paths, read: (path) => readFile(join(folder, ...path.split('/'))) };
}

/** Who acts for a command run on the server: the organization's longest-standing administrator. */
async function actingAdministrator(ctx: ServiceContext, spaceId: string): Promise<Actor> {
  const space = await findSpace(ctx.db, spaceId);
  if (!space || space.deleted_at) throw new NotFound(`No space with id "${spaceId}"`);
  const userId = await firstAdminId(ctx.db, space.organization_id);
  const user = userId ? await findUserById(ctx.db, userId) : undefined;
  if (!user) throw new NotFound(`The organization of space "${spaceId}" has no active administrator to act as`);
  return { user, tokenId: 'command-line' };
}

/**
 * Imports a folder in GitBook's format into a space as its new content (the folder
 * wins), made from the space's current revision so that pages keep their ids; the
 * organization's first administrator is its author. Answers what came in.
 */
export async function importFolderIntoSpace(ctx: ServiceContext, spaceId: string, folder: string, onPage?: (done: number, total: number) => void) {
  const actor = await actingAdministrator(ctx, spaceId);
  const source = await folderSource(folder);
  const repository = await readRepository(source, '');
  const space = (await findSpace(ctx.db, spaceId))!;
  const { revision, content } = await storeImportedRevision(ctx, actor, spaceId, { source, repository, base: space.revision_id, onPage });
  await mergeRevisionIntoSpace(ctx, actor, spaceId, { base: space.revision_id, revision, summary: `Import of ${folder}` }, async () => undefined);
  return { pages: content.tree.size, files: content.files.length, warnings: content.warnings };
}

/** Writes a space's current content into a folder in GitBook's format; files Quire does not write stay. */
export async function exportSpaceToFolder(ctx: ServiceContext, spaceId: string, folder: string) {
  const space = await findSpace(ctx.db, spaceId);
  if (!space || space.deleted_at) throw new NotFound(`No space with id "${spaceId}"`);
  let configText: string | undefined;
  try {
    configText = await readFile(join(folder, '.gitbook.yaml'), 'utf8');
  } catch {
    // No configuration: GitBook's defaults.
  }
  const config = readConfig(configText, '');
  const docs = join(folder, ...config.root.split('/').filter(Boolean));
  // As Git Sync does: the folder's SUMMARY.md keeps the blocks of pages GitBook computes.
  const summary = await readFile(join(docs, ...config.summary.split('/')), 'utf8').catch(() => undefined);
  const computedPages = summary === undefined ? [] : computedPagesBlocksOf(summary, config.summary);
  const layout = await revisionAsRepository(ctx.db, space, config, { pages: new Map(), reusables: new Map(), computedPages }, async (path, bytes) => {
    const target = join(docs, ...path.split('/'));
    await mkdir(join(target, '..'), { recursive: true });
    await writeFile(target, bytes);
  });
  return { pages: layout.pagePaths.size, files: layout.filePaths.size };
}
