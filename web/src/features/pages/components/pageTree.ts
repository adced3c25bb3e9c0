// A space's page tree, indexed once for the side navigation and for finding a page by
// its path or id (a space may hold thousands of pages).
import type { PageEntry } from '../api/content.ts';

export interface IndexedPage {
  page: PageEntry;
  parent: string | undefined;
  depth: number;
  hasChildren: boolean;
}

export interface PageIndex {
  /** Every page, depth first, as the navigation lists them. */
  ordered: IndexedPage[];
  byId: Map<string, IndexedPage>;
  byPath: Map<string, IndexedPage>;
  /** The first page a reader can read, where the space opens. */
  first: PageEntry | undefined;
}

export function indexPages(pages: PageEntry[]): PageIndex {
  const ordered: IndexedPage[] = [];
  const byId = new Map<string, IndexedPage>();
  const byPath = new Map<string, IndexedPage>();
  let first: PageEntry | undefined;
  const walk = (list: PageEntry[], parent: string | undefined, depth: number) => {
    for (const page of list) {
      const entry = { page, parent, depth, hasChildren: (page.pages?.length ?? 0) > 0 };
      ordered.push(entry);
      byId.set(page.id, entry);
      if (page.path !== undefined) byPath.set(page.path, entry);
      if (!first && page.type === 'document') first = page;
      if (page.pages) walk(page.pages, page.id, depth + 1);
    }
  };
  walk(pages, undefined, 0);
  return { ordered, byId, byPath, first };
}

/** The ids of a page's ancestors. */
export function ancestorsOf(index: PageIndex, pageId: string | undefined): string[] {
  const ids: string[] = [];
  for (let parent = pageId ? index.byId.get(pageId)?.parent : undefined; parent; parent = index.byId.get(parent)?.parent) ids.push(parent);
  return ids;
}

/** The rows the navigation shows: every page whose ancestors are all open (groups always are). */
export function visibleRows(index: PageIndex, expanded: ReadonlySet<string>): IndexedPage[] {
  const rows: IndexedPage[] = [];
  let closedBelow = Infinity;
  for (const entry of index.ordered) {
    if (entry.depth > closedBelow) continue;
    closedBelow = Infinity;
    rows.push(entry);
    if (entry.hasChildren && entry.page.type !== 'group' && !expanded.has(entry.page.id)) closedBelow = entry.depth;
  }
  return rows;
}
