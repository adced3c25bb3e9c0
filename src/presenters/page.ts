// Page objects of a revision, nested as in GitBook's content API.
import { linkResolverFor } from '../content/document.ts';
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

const OPTIONAL_FIELDS = ['linkTitle', 'emoji', 'icon', 'description', 'hidden', 'noIndex', 'noRobotsIndex', 'cover', 'href', 'createdAt', 'updatedAt'] as const;

/** GitBook's kind of each page type: a document page is a "sheet"; a computed page has none. */
const KINDS = { document: 'sheet', group: 'group', link: 'link', computed: undefined } as const;

/** Every part of a page's layout shown, as GitBook lays out a page nobody has changed: one object for all such pages of a page list. */
const DEFAULT_LAYOUT = Object.freeze({
  width: 'default',
  cover: true,
  coverSize: 'hero',
  coverMask: 'none',
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true,
  tags: true,
  actions: true,
  anchors: true,
});

/** The page's layout: every option, the stored ones (Git Sync's front matter) over GitBook's defaults. */
function layoutOf(stored: unknown) {
  if (typeof stored !== 'object' || stored === null) return DEFAULT_LAYOUT;
  const layout: Record<string, unknown> = { ...DEFAULT_LAYOUT };
  for (const [option, value] of Object.entries(stored)) if (option in layout && typeof value === typeof layout[option]) layout[option] = value;
  return layout;
}

const NO_PAGE_TAGS = Object.freeze([]);

/** GitBook's RevisionPageTag of each slug the page's front matter lists (Git Sync), naming a tag of its revision's library. */
function pageTags(slugs: unknown) {
  if (!Array.isArray(slugs) || slugs.length === 0) return NO_PAGE_TAGS;
  return slugs.map((slug: string) => ({ tag: { kind: 'tag' as const, tag: slug } }));
}

/** Where a page opens in the app. */
export function pageAppUrl(publicUrl: string, spaceId: string, path: string): string {
  return `${publicUrl}/s/${spaceId}/${path}`;
}

export function presentPage(
  publicUrl: string,
  spaceId: string,
  tree: FlatTree,
  page: FlatPage,
  options: {
    markdown?: string;
    nested?: boolean;
    children?: Map<string | null, FlatPage[]>;
    git?: Record<string, GitBlob>;
    /** Whether the reader is shown each page's condition: members are; readers of published content never, as GitBook answers site tokens. */
    conditions?: boolean;
  } = {},
): PresentedPage {
  // Grouped once and handed down to the sub-pages: grouping per page would be quadratic.
  const byParent = options.nested === false ? undefined : (options.children ?? childrenByParent(tree));
  const children = byParent?.get(page.id) ?? [];
  const path = pagePath(tree, page.id);
  const { type } = page.meta;
  const presented: PresentedPage = {
    id: page.id,
    title: page.meta.title,
    ...(KINDS[type] ? { kind: KINDS[type] } : {}),
    type,
    slug: page.meta.slug,
    path,
    ...(options.markdown !== undefined ? { markdown: options.markdown } : {}),
    urls: { app: pageAppUrl(publicUrl, spaceId, path) },
    pages: children.map((child) => presentPage(publicUrl, spaceId, tree, child, { nested: true, children: byParent, git: options.git, conditions: options.conditions })),
    ...(type === 'document' ? { layout: layoutOf(page.meta.layout), tags: pageTags(page.meta.tags), ...(page.blob ? { documentId: page.blob } : {}) } : {}),
    // A link page's href, as GitBook's reference: a page of the space when the path names one, else the URL.
    ...(type === 'link' && typeof page.meta.href === 'string' ? { target: linkResolverFor(tree, page.id)(page.meta.href) } : {}),
    ...(type === 'computed' ? { computed: page.meta.computed } : {}),
  };
  for (const field of OPTIONAL_FIELDS) if (page.meta[field] !== undefined) presented[field] = page.meta[field];
  if (options.conditions && typeof page.meta.if === 'string') presented.condition = page.meta.if;
  const git = options.git?.[page.id];
  if (git) presented.git = { oid: git[1], path: git[0] };
  return presented;
}

/** The top-level pages with their sub-pages; `children`: the tree grouped by parent; `git`: where each sits in the commit the revision matches. */
export function presentPageTree(
  publicUrl: string,
  spaceId: string,
  tree: FlatTree,
  children: Map<string | null, FlatPage[]>,
  git?: Record<string, GitBlob>,
  conditions?: boolean,
): PresentedPage[] {
  return (children.get(null) ?? []).map((page) => presentPage(publicUrl, spaceId, tree, page, { children, git, conditions }));
}
