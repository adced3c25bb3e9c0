// Page objects of a revision, nested as in GitBook's content API.
import { childrenByParent, pagePath, type FlatPage, type FlatTree } from '../content/tree.ts';
import type { GitBlob } from '../db/schema.ts';

export interface PresentedPage {
  id: string;
  title: string;
  type: string;
  slug: string;
  path: string;
  pages: PresentedPage[];
  markdown?: string;
  [field: string]: unknown;
}

const OPTIONAL_FIELDS = ['emoji', 'icon', 'description', 'hidden', 'noIndex', 'noRobotsIndex', 'layout', 'cover', 'href', 'createdAt', 'updatedAt'] as const;

/** Where a page opens in the app. */
export function pageAppUrl(publicUrl: string, spaceId: string, path: string): string {
  return `${publicUrl}/s/${spaceId}/${path}`;
}

export function presentPage(
  publicUrl: string,
  spaceId: string,
  tree: FlatTree,
  page: FlatPage,
  options: { markdown?: string; nested?: boolean; children?: Map<string | null, FlatPage[]>; git?: Record<string, GitBlob> } = {},
): PresentedPage {
  // Computed once per tree and handed down: recomputing it per page would be quadratic.
  const byParent = options.children ?? childrenByParent(tree);
  const children = options.nested === false ? [] : (byParent.get(page.id) ?? []);
  const path = pagePath(tree, page.id);
  const presented: PresentedPage = {
    id: page.id,
    title: page.meta.title,
    type: page.meta.type,
    slug: page.meta.slug,
    path,
    ...(options.markdown !== undefined ? { markdown: options.markdown } : {}),
    urls: { app: pageAppUrl(publicUrl, spaceId, path) },
    pages: children.map((child) => presentPage(publicUrl, spaceId, tree, child, { nested: true, children: byParent, git: options.git })),
  };
  for (const field of OPTIONAL_FIELDS) if (page.meta[field] !== undefined) presented[field] = page.meta[field];
  const git = options.git?.[page.id];
  if (git) presented.git = { oid: git[1], path: git[0] };
  return presented;
}

/** The top-level pages with their sub-pages; `git`: where each sits in the commit the revision matches. */
export function presentPageTree(publicUrl: string, spaceId: string, tree: FlatTree, git?: Record<string, GitBlob>): PresentedPage[] {
  const children = childrenByParent(tree);
  return (children.get(null) ?? []).map((page) => presentPage(publicUrl, spaceId, tree, page, { children, git }));
}
