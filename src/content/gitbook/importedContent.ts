// A repository in GitBook's format as a space's content, made from the revision it
// replaces (the baseline): pages keep their ids where their files keep their paths,
// files where they keep their names, and links between them become references that
// survive moves. Files are stored as they are read, through the object store.
import { posix } from 'node:path';
import { newId } from '../../lib/ids.ts';
import { slugify, uniquePath } from '../../lib/slugs.ts';
import { imageFacts } from '../../lib/uploads.ts';
import { isPageSlug } from '../changes.ts';
import { documentToMarkdown, hasScheme, linksAsWritten, linkWriterFor, markdownToDocument, withReusableContents, type ContentRef } from '../document.ts';
import type { FileEntry } from '../files.ts';
import { hashOf, type Hash, type ObjectStore } from '../objects.ts';
import type { ReusableEntry } from '../reusables.ts';
import type { TagLibrary } from '../tagLibrary.ts';
import type { FlatPage, FlatTree, PageMeta } from '../tree.ts';
import { metaFromFront } from './frontMatter.ts';
import { defaultPagePaths, defaultReusablePaths, pagePlaceOf } from './layout.ts';
import { ASSETS_DIRECTORY, decodePath, INCLUDES_DIRECTORY, type RepositoryContent, type RepositoryPage } from './repository.ts';

/** The largest file an import brings in; a larger one stays where it is and is reported. */
export const MAX_GIT_FILE_BYTES = 10 * 1024 * 1024;

/** A revision as an import starts from: its tree, files and where each sat in git. */
export interface Baseline {
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

/** A git blob: a path and the blob's id, as the last sync recorded each page's, file's and reusable content's. */
export type SyncedBlob = [path: string, oid: string];

/**
 * The baseline of a revision's content: where the last sync had its pages and files
 * (`paths`, from the repository's top, `root` stripped), else GitBook's layout.
 */
export function baselineOf(
  revisionId: string,
  content: { tree: FlatTree; files: FileEntry[]; reusables: ReusableEntry[] },
  paths: { pages: Record<string, SyncedBlob>; files: Record<string, SyncedBlob>; reusables?: Record<string, SyncedBlob> } | undefined,
  root: string,
): Baseline {
  const { tree, files, reusables } = content;
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
  tags: TagLibrary;
  redirects: Array<{ path: string; pageId: string }>;
  warnings: string[];
}

/**
 * The space's content as the repository holds it, made from `baseline`: a page keeps its
 * id where its file keeps its path, a file where it keeps its name; links between pages
 * and to files become references that survive moves.
 */
export async function importedContent(
  /** Where the files read are stored as they are read, and the baseline's markdown is. */
  store: ObjectStore,
  /** The time the import's pages are created or updated at (ISO). */
  now: string,
  repository: RepositoryContent,
  readDocsFile: (path: string) => Promise<Buffer | undefined>,
  oidOf: (path: string) => string | undefined,
  baseline: Baseline,
  /** Told after each page, with how many there are. */
  onPage?: (done: number, total: number) => void,
): Promise<ImportedContent> {
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
    reusables.push({ id, title: include.title, blob, file: include.path.slice(INCLUDES_DIRECTORY.length + 1), ...(include.frontText !== undefined ? { frontMatter: include.frontText } : {}) });
    reusablePaths[id] = [include.path, oidOf(include.path) ?? ''];
  }

  const redirects: ImportedContent['redirects'] = [];
  for (const redirect of repository.config.redirects) {
    const pageId = pageAtPath.get(redirect.destination);
    if (pageId) redirects.push({ path: redirect.source.replace(/\.md$/i, '').replace(/\/README$/i, ''), pageId });
    else warnings.push(`.gitbook.yaml: the redirect from ${redirect.source} leads to ${redirect.destination}, which is not a page; it is left out`);
  }
  return { tree, files, reusables, blobs, pagePaths, filePaths, reusablePaths, tags: repository.tags, redirects, warnings };
}

function contentTypeOf(name: string): string {
  const extension = posix.extname(name).toLowerCase();
  const known: Record<string, string> = { '.pdf': 'application/pdf', '.json': 'application/json', '.yaml': 'application/yaml', '.yml': 'application/yaml', '.txt': 'text/plain', '.csv': 'text/csv', '.zip': 'application/zip', '.mp4': 'video/mp4' };
  return known[extension] ?? 'application/octet-stream';
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
