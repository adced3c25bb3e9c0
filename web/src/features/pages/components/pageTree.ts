// A space's page tree, indexed once for the side navigation and for finding a page by
// its path or id (a space may hold thousands of pages).
import { slugify, uniquePath } from '../../../../../src/lib/slugs.ts';
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

/** The pages directly under `parent` (undefined: the top level), in order. */
export function childrenOf(index: PageIndex, parent: string | undefined): IndexedPage[] {
  return index.ordered.filter((entry) => entry.parent === parent);
}

/**
 * The row the arrow keys, Home and End lead to from row `from`, or undefined for any
 * other key. A group's title is no stop: it holds nothing to focus.
 */
export function rowAfterKey(rows: IndexedPage[], from: number, key: string): number | undefined {
  let next: number;
  if (key === 'ArrowDown') next = Math.min(rows.length - 1, from + 1);
  else if (key === 'ArrowUp') next = Math.max(0, from - 1);
  else if (key === 'Home') next = 0;
  else if (key === 'End') next = rows.length - 1;
  else return undefined;
  const step = next > from || key === 'Home' ? 1 : -1;
  while (rows[next]?.page.type === 'group' && rows[next + step]) next += step;
  return next;
}

/** Where a moved page goes, as update_page takes it: its new parent (null: the top level) and its position among its new siblings, itself left out; no position: last. */
export interface Placement {
  into: string | null;
  at?: number;
}

export type DropPosition = 'before' | 'after' | 'inside';

/** A link leads elsewhere and holds no pages; documents and groups do. */
export const holdsPages = (page: PageEntry) => page.type !== 'link';

/** Where a page dropped before, after or inside another goes; undefined when it would go into itself or stay where it is. */
export function dropPlacement(index: PageIndex, movedId: string, targetId: string, position: DropPosition): Placement | undefined {
  const moved = index.byId.get(movedId);
  const target = index.byId.get(targetId);
  if (!moved || !target || movedId === targetId || ancestorsOf(index, targetId).includes(movedId)) return undefined;
  if (position === 'inside') return holdsPages(target.page) && target.page.id !== moved.parent ? { into: targetId } : undefined;
  const siblings = childrenOf(index, target.parent);
  const others = siblings.filter((entry) => entry.page.id !== movedId);
  const at = others.indexOf(target) + (position === 'after' ? 1 : 0);
  if (moved.parent === target.parent && siblings.indexOf(moved) === at) return undefined;
  return { into: target.parent ?? null, at };
}

export type KeyboardMove = 'up' | 'down' | 'in' | 'out';

/** Where Alt-Shift-Arrow moves a page: up or down among its siblings, in (last under the sibling above) or out (after its parent); undefined when it cannot go that way. */
export function keyboardPlacement(index: PageIndex, pageId: string, move: KeyboardMove): Placement | undefined {
  const entry = index.byId.get(pageId);
  if (!entry) return undefined;
  const siblings = childrenOf(index, entry.parent);
  const at = siblings.indexOf(entry);
  const into = entry.parent ?? null;
  if (move === 'up') return at > 0 ? { into, at: at - 1 } : undefined;
  if (move === 'down') return at < siblings.length - 1 ? { into, at: at + 1 } : undefined;
  if (move === 'in') {
    const above = siblings[at - 1];
    return above && holdsPages(above.page) ? { into: above.page.id } : undefined;
  }
  if (!entry.parent) return undefined;
  const parent = index.byId.get(entry.parent)!;
  return { into: parent.parent ?? null, at: childrenOf(index, parent.parent).indexOf(parent) + 1 };
}

/**
 * A page's slug once it is titled `title`: a slug Quire made from the old title
 * (`install`, `install-2`) is made anew from the new one, as GitBook does, so that its
 * address follows its name; a slug the writer chose stays.
 */
export function slugAfterRename(page: { title: string; slug: string }, title: string, siblingSlugs: string[]): string {
  const made = slugify(page.title, 'page');
  if (page.slug !== made && !new RegExp(`^${made}-\\d+$`).test(page.slug)) return page.slug;
  return uniquePath(slugify(title, 'page'), siblingSlugs);
}
