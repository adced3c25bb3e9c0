// Where a space's pages and reusable contents go in GitBook's layout: where the last
// sync had them, else GitBook's own places (a page with sub-pages a folder's README.md).
import { posix } from 'node:path';
import { slugify } from '../../lib/slugs.ts';
import type { ReusableEntry } from '../reusables.ts';
import { childrenByParent, inReadingOrder, type FlatPage, type FlatTree } from '../tree.ts';
import { INCLUDES_DIRECTORY } from './repository.ts';

/** Where a page's file puts the page in GitBook's layout, the folder its sub-pages go in: `guide/README.md` and `guide.md` are both `guide`, `README.md` is ''. */
export function pagePlaceOf(path: string): string {
  return /(^|\/)README\.md$/i.test(path) ? (posix.dirname(path) === '.' ? '' : posix.dirname(path)) : path.replace(/\.md$/i, '');
}

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
export function defaultReusablePaths(reusables: ReusableEntry[], kept: Map<string, string> = new Map()): Map<string, string> {
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
