// A revision in GitBook's format, written file by file: each page a file (where it was
// at the last sync, else GitBook's layout), files in .gitbook/assets, links relative,
// front matter as the page came with it, and SUMMARY.md.
import { posix } from 'node:path';
import { slugify } from '../../lib/slugs.ts';
import { documentToMarkdown, linkResolverFor, markdownToDocument, linkWriterFor, namedFiles, pageLinkPath, STORED_PAGE_LINK, withReusableContents } from '../document.ts';
import type { FileEntry } from '../files.ts';
import type { ObjectStore } from '../objects.ts';
import type { ReusableEntry } from '../reusables.ts';
import type { TagLibrary } from '../tagLibrary.ts';
import { childrenByParent, type FlatTree, type PageMeta } from '../tree.ts';
import { frontFromMeta } from './frontMatter.ts';
import { defaultPagePaths, defaultReusablePaths } from './layout.ts';
import { ASSETS_DIRECTORY, writeIncludeFile, writePageFile, writeSummary, type ComputedPagesBlock, type ExportedPage, type RepositoryConfig } from './repository.ts';
import { TAGS_FILE, writeTagsFile } from './tagsFile.ts';
import { brokenLinkTo } from './toMarkdown.ts';

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
 * A revision's content in GitBook's format, written file by file: each page a file (where
 * it was at the last sync, else GitBook's layout), files in .gitbook/assets, links
 * relative, OpenAPI blocks naming the specs' addresses given, and SUMMARY.md.
 */
export async function writeAsRepository(
  /** Where the revision's markdown and files are read. */
  store: ObjectStore,
  content: { tree: FlatTree; files: FileEntry[]; reusables: ReusableEntry[]; tags: TagLibrary },
  config: RepositoryConfig,
  /** Where pages and includes were at the last sync, and the blocks of computed pages the repository's SUMMARY.md lists. */
  kept: { pages: Map<string, string>; reusables: Map<string, string>; computedPages?: ComputedPagesBlock[] },
  /** The address an OpenAPI block names for a spec, by its slug; one absent is not written. */
  specUrls: Map<string, string>,
  /** Called once per file, one at a time: memory holds one file's bytes, not the space's. */
  write: (path: string, bytes: Buffer) => Promise<void>,
  /**
   * The last sync with the branch being written (`before`, its tree): a page whose
   * content, fields, path and links' targets are all as they were then keeps its file as
   * the branch holds it (`keep`), byte for byte, rather than being written anew in
   * GitBook's normal form.
   */
  synced?: { before: FlatTree; pageBlobs: Map<string, string>; files: Map<string, string>; keep: (path: string, oid: string) => void },
): Promise<RepositoryLayout> {
  const { tree, files, reusables } = content;
  const before = synced?.before;
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
    await write(path, Buffer.from(writeIncludeFile(reusable.title, written(markdown.get(reusable.blob) ?? '', path).body, reusable.frontMatter)));
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
  // As it was read while the tags are the same; a space without tags writes none, and leaves the branch's file as it is.
  if (content.tags.tags.length > 0) await write(TAGS_FILE, Buffer.from(writeTagsFile(content.tags)));
  await write(config.summary, Buffer.from(writeSummary(outline(null), config.summary, computedPages)));
  return { pagePaths, filePaths, reusablePaths };
}
