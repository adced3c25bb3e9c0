// A published site as its readers read it, in one call per view: the site by id or
// hostname, the rule for outsiders (services/publishedAccess.ts, policies/publishedSite.ts),
// the site space a path names, the page at the rest of the path in that space's current
// revision without what the reader's claims do not open (or the site's redirect from
// it), its document with its includes and conditions decided, the navigation, and the
// links the page leads to. src/reader/ renders what this answers; it reads and
// authorizes nothing itself.
import { isSafeLinkUrl } from '../content/gitbook/safety.ts';
import { linkResolverFor, namedFiles, openApiSpecsOf, reusableContentsOf, withConditionsDecided, withIncludedBlocks } from '../content/document.ts';
import { pageDocument } from './pageDocuments.ts';
import type { Block, ContentRef, JSONDocument } from '../content/gitbook/model.ts';
import { childrenOfSettledTree, findPageByPath, inReadingOrder, pagePath, type FlatPage } from '../content/tree.ts';
import { findSiteByHostname, publicSites } from '../db/repos/sites.ts';
import { publishedSiteUrl } from '../presenters/site.ts';
import { readPublishedSiteWithInstallations } from '../db/repos/siteStructure.ts';
import { conditionHolds } from '../lib/conditions.ts';
import { presentFile, loadRevision, markdownReadBy, markdownWithIncludes, type RevisionView } from './revisionContent.ts';
import type { ServiceContext } from './context.ts';
import { publishedSiteClaims, visitorSignIn, type ReadCredentials } from './publishedAccess.ts';
import { defaultSectionOf, orderedSections, shownStructure, siteSpaceAtPath, topLevelItems } from '../lib/siteStructure.ts';
import { pagesReadBy } from '../content/adaptive.ts';
import { redirectedPath } from './siteRedirects.ts';
import { siteScripts } from './integrationEvents.ts';
import { excerpter, parseSearchQuery } from '../content/search.ts';
import { hitsSeenBy } from './search.ts';
import { latestOpenApiVersions, publishedOpenApiDocument } from './openApiSpecs.ts';
import { isDeepStrictEqual } from 'node:util';
import { createHash } from 'node:crypto';
import type { PublishedSiteRows, PublishedSiteWithInstallations, SiteRow } from '../db/schema.ts';

export type { ReadCredentials };
export type SiteScript = ReturnType<typeof siteScripts>[number];

const MACHINE_FILES = new Set(['sitemap.xml', 'robots.txt', 'llms.txt', 'llms-full.txt']);

/**
 * How a reader reached a site: under Quire's own URL by the site's id, or at the site's
 * custom hostname (a proxy pointing it at Quire), whose origin as the reader sees it
 * makes the page's links.
 */
export interface SiteAddress {
  siteId: string;
  /** The origin of the site's hostname as the reader sees it; unset under Quire's own URL. */
  origin?: string;
}

/** A page of the site's navigation, with its sub-pages. */
export interface PublishedNavigationItem {
  title: string;
  /** The page's emoji (code points in hex) or Font Awesome icon name, shown before its title. */
  emoji?: string;
  icon?: string;
  href?: string;
  current: boolean;
  children: PublishedNavigationItem[];
}

/** A page rendered before, as the reader keeps it: the OpenAPI specs it showed, at which versions. */
export interface KeptPage {
  specs: { slugs: string[]; versions: Array<string | null> };
}

/** What a reader is shown around every page of the site: the site, where it is read, by whom, and the scripts its pages load. */
export interface PublishedFrame {
  site: SiteRow;
  /** The site's root as the reader reaches it. */
  base: string;
  origin?: string;
  claims: Record<string, unknown>;
  scripts: SiteScript[];
}

/** A page of a site space, for the files machines read. */
export interface SitePageEntry {
  page: FlatPage;
  url: string;
  /** The page's markdown as the reader reads it, for llms-full.txt only. */
  markdown?: string;
}

/** One view of a published site, as `readPublishedView` answers it. */
export type PublishedView<Kept extends KeptPage> =
  /** No such site, or not open to this reader: a 404 outside any frame. */
  /** `fallback`: where a visitor-auth site sends a reader without a valid visitor token. */
  | { kind: 'closed'; fallback?: string }
  /** A site redirect, to this URL. */
  | { kind: 'redirect'; location: string }
  /** No page at the path: a 404 in the site's frame. */
  | ({ kind: 'missing' } & PublishedFrame)
  /** The site's search, at its root with a query. */
  | ({ kind: 'search'; input: string; results: Array<{ title: string; href: string; heading?: string; excerpt: string }> } & PublishedFrame)
  /** sitemap.xml, robots.txt, llms.txt or llms-full.txt. */
  | { kind: 'machine'; name: string; site: SiteRow; base: string; spaces: Array<{ spaceId: string; title: string; pages: SitePageEntry[] }> }
  /** A page's markdown (its path with ".md"). */
  | { kind: 'markdown'; page: FlatPage; markdown: string }
  /** A page the reader rendered before and may serve again, as it kept it. */
  | { kind: 'kept'; kept: Kept; scripts: SiteScript[] }
  | ({ kind: 'page' } & PublishedFrame & PublishedPage);

/** A page to render: its document as the reader reads it, where its links lead, and the site around it. */
export interface PublishedPage {
  /** Everything the rendered page depends on, to keep it by. */
  cacheKey: string;
  page: FlatPage;
  document: JSONDocument;
  /** Whether the document was made ahead (else converted for this reader). */
  ready: boolean;
  /** The page's canonical address: the published one, however it was reached. */
  url: string;
  /** The organization's OpenAPI specs the page shows, in the order of `slugs`: undefined where none is published. */
  specs: { slugs: string[]; documents: Array<{ versionId: string; document: Record<string, unknown> } | undefined> };
  /** What a link as written in the document refers to, where the page sits. */
  resolve: (url: string) => ContentRef;
  /** Where a reference leads, if anywhere. */
  href: (ref: ContentRef) => string | undefined;
  pageTitle: (pageId: string) => string | undefined;
  tabs: Array<{ title: string; href: string; current: boolean; links?: Array<{ title: string; href: string; current: boolean }> }>;
  variants: Array<{ title: string; href: string; current: boolean }>;
  navigation: PublishedNavigationItem[];
  previous?: { title: string; href: string };
  next?: { title: string; href: string };
}

/** Where a site is read: Quire's own URL, or the origin of its hostname, with the site's base path. */
function siteBase(ctx: ServiceContext, site: SiteRow, origin?: string): string {
  const root = origin ?? `${ctx.config.publicUrl}/sites/${site.id}`;
  return `${root}${site.basename ? `/${site.basename}` : ''}`;
}

/** The site served at a custom hostname, if any. */
export function siteAtHostname(ctx: ServiceContext, hostname: string): Promise<SiteRow | undefined> {
  return findSiteByHostname(ctx.db, hostname);
}

/** The public published sites the instance's front page lists, at most `limit`, each with where it is read. */
export async function frontPageSites(ctx: ServiceContext, limit: number): Promise<Array<{ title: string; href: string }>> {
  const sites = await publicSites(ctx.db, limit);
  return sites.map((site) => ({ title: site.title, href: siteBase(ctx, site) }));
}

/** The site's sections as tabs and the current section's site spaces as variants, each linked to its start. */
function siteNavigation({ site, structure, spaces }: PublishedSiteRows, claims: Record<string, unknown>, base: string, current: { sectionId?: string; siteSpaceId: string }) {
  const shown = shownStructure(structure, claims);
  const sections = shown.sections;
  const defaultSection = defaultSectionOf(site, sections);
  const sectionBase = (section: (typeof sections)[number]) => (section.id === defaultSection?.id ? base : `${base}/${section.path}`);
  const tab = (section: (typeof sections)[number]) => ({ title: section.title, href: sectionBase(section), current: section.id === current.sectionId });
  // A section group is a menu of its sections, as GitBook's header shows it; it has no path of its own.
  const tabs = topLevelItems(structure).flatMap((item) => {
    if (item.section) return sections.includes(item.section) ? [tab(item.section)] : [];
    const grouped = sections.filter((section) => section.group_id === item.group!.id).map(tab);
    return grouped.length ? [{ title: item.group!.title, href: grouped[0].href, current: grouped.some((section) => section.current), links: grouped }] : [];
  });
  const siteSpaces = shown.siteSpaces.filter((siteSpace) => siteSpace.section_id === (current.sectionId ?? null));
  const section = sections.find((candidate) => candidate.id === current.sectionId);
  const defaultSiteSpace = section ? section.default_site_space_id : site.default_site_space_id;
  const start = section ? sectionBase(section) : base;
  const variants = siteSpaces.length < 2 ? [] : siteSpaces.flatMap((siteSpace) => {
    const space = spaces.get(siteSpace.space_id);
    return space ? [{ title: space.title, href: siteSpace.id === defaultSiteSpace ? start : `${start}/${siteSpace.path}`, current: siteSpace.id === current.siteSpaceId }] : [];
  });
  return { tabs: sections.length < 2 ? [] : tabs, variants };
}

/**
 * A view of a published site at `path`, or with `query` at the site's root, its search
 * results. `keptPage` is the reader's page rendered before under a key, if it still
 * serves: the view answers it when nothing it showed has changed since.
 */
export async function readPublishedView<Kept extends KeptPage>(
  ctx: ServiceContext,
  address: SiteAddress,
  path: string,
  credentials: ReadCredentials,
  query: string | undefined,
  keptPage: (cacheKey: string) => Kept | undefined,
): Promise<PublishedView<Kept>> {
  const published = await readPublishedSiteWithInstallations(ctx.db, address.siteId);
  const claims = published && (await publishedSiteClaims(ctx.db, published.site, credentials));
  if (!published || !claims) return { kind: 'closed', fallback: published ? await visitorSignIn(ctx, published.site, path) : undefined };
  const { site, structure } = published;
  const { origin } = address;
  const base = siteBase(ctx, site, origin);
  // The router has decoded the path already: decoding again would misread a literal '%'.
  const segments = path.split('/').filter(Boolean);
  if (site.basename && segments[0] === site.basename) segments.shift();
  if (query && segments.length === 0) return siteSearch(ctx, published, claims, { base, origin }, query);
  const { siteSpace, section, rest, prefix } = siteSpaceAtPath(site, structure, segments, claims);
  const space = siteSpace && published.spaces.get(siteSpace.space_id);
  if (segments.length === 1 && MACHINE_FILES.has(segments[0])) return machineFile(ctx, published, claims, base, segments[0]);
  // GitBook serves each page's markdown at its path with ".md" added.
  const asMarkdown = rest.length > 0 && rest[rest.length - 1].endsWith('.md');
  const scripts = asMarkdown ? [] : siteScripts(ctx, site, published.installations, origin);
  // Where no page answers, the site's redirects may.
  const notFound = async (): Promise<PublishedView<Kept>> => {
    const target = await redirectedPath(ctx, site, structure, `/${segments.join('/')}`);
    if (target !== undefined) return { kind: 'redirect', location: `${base}${target}` };
    return { kind: 'missing', site, base, origin, claims, scripts };
  };
  if (!space || space.deleted_at) return notFound();
  // Everything a rendered page depends on: the site's frame, the revision, the path read, by whom, and the scripts it
  // loads. Known before the page tree is walked, so that a page read again costs a few small queries.
  const cacheKey = createHash('sha256')
    .update(JSON.stringify([base, site.title, site.hostname, site.customization, site.visitor_logout_url, structure, space.revision_id, rest, prefix, claims, scripts]))
    .digest('base64url');
  const cached = asMarkdown ? undefined : keptPage(cacheKey);
  if (cached && (cached.specs.slugs.length === 0 || isDeepStrictEqual(await latestOpenApiVersions(ctx, site.organization_id, cached.specs.slugs), cached.specs.versions))) {
    return { kind: 'kept', kept: cached, scripts };
  }
  const view = await revisionReadBy(ctx, space.revision_id, claims);
  // Quire computes no pages: a computed page shows nowhere.
  const shown = (page: FlatPage) => page.meta.type !== 'computed';
  const order = inReadingOrder(view.tree, { leaveOutHidden: true }).filter((page) => page.meta.type !== 'group' && shown(page));
  const spaceBase = [base, ...prefix].join('/');
  const pageUrl = (page: FlatPage) => `${spaceBase}/${pagePath(view.tree, page.id)}`;
  const pathOfPage = asMarkdown ? [...rest.slice(0, -1), rest[rest.length - 1].slice(0, -3)] : rest;
  const page = pathOfPage.length === 0 ? order.find((candidate) => candidate.meta.type === 'document') : findPageByPath(childrenOfSettledTree(view.tree), pathOfPage.join('/'));
  if (!page || page.meta.type !== 'document') return notFound();
  if (asMarkdown) return { kind: 'markdown', page, markdown: await markdownReadBy(await markdownWithIncludes(ctx, view, page), claims) };
  const { document: written, ready } = await pageDocument(ctx, page);
  // The document keeps links as written; what they lead to depends on where the page sits.
  const resolveLink = linkResolverFor(view.tree, page.id, namedFiles(view.files));
  const href = (ref: ContentRef): string | undefined => {
    switch (ref.kind) {
      case 'url':
        return ref.url;
      case 'anchor':
        return ref.page && view.tree.has(ref.page) ? `${pageUrl(view.tree.get(ref.page)!)}#${ref.anchor}` : `#${ref.anchor}`;
      case 'page': {
        const target = view.tree.get(ref.page);
        return target ? `${pageUrl(target)}${ref.anchor ? `#${ref.anchor}` : ''}` : undefined;
      }
      case 'file': {
        const file = view.files.find((candidate) => candidate.id === ref.file);
        return file ? presentFile(ctx, file).downloadURL : undefined;
      }
      default:
        return undefined;
    }
  };
  // What the page includes shows where it is included.
  const included = new Map<string, Block[]>();
  for (const id of reusableContentsOf(written)) {
    const reusable = view.reusables.find((candidate) => candidate.id === id);
    if (reusable) included.set(id, (await pageDocument(ctx, reusable)).document.nodes);
  }
  const document = withConditionsDecided(
    withIncludedBlocks(written, (id) => included.get(id)),
    (expression) => conditionHolds(expression, claims),
  );
  const slugs = openApiSpecsOf(document);
  const specs = await Promise.all(slugs.map((slug) => publishedOpenApiDocument(ctx, site.organization_id, slug)));
  const children = childrenOfSettledTree(view.tree);
  const navigation = (parentId: string | null): PublishedNavigationItem[] =>
    (children.get(parentId) ?? [])
      .filter((child) => child.meta.hidden !== true && shown(child))
      .map((child) => ({
        title: navigationTitle(child),
        ...pageMarkOf(child),
        href: child.meta.type === 'document' ? pageUrl(child) : child.meta.type === 'link' ? linkHref(child) : undefined,
        current: child.id === page.id,
        children: navigation(child.id),
      }));
  const at = order.findIndex((candidate) => candidate.id === page.id);
  const neighbour = (candidate: FlatPage | undefined) => (candidate && candidate.meta.type === 'document' ? { title: navigationTitle(candidate), href: pageUrl(candidate) } : undefined);
  const { tabs, variants } = siteNavigation(published, claims, base, { sectionId: section?.id, siteSpaceId: siteSpace!.id });
  return {
    kind: 'page',
    site,
    base,
    origin,
    claims,
    scripts,
    cacheKey,
    page,
    document,
    ready,
    // The canonical address is the published one (the custom hostname's, when the site has one), however it was reached.
    url: `${publishedSiteUrl(ctx.config.publicUrl, site)}${pageUrl(page).slice(base.length)}`,
    specs: { slugs, documents: specs },
    resolve: resolveLink,
    href,
    pageTitle: (pageId) => view.tree.get(pageId)?.meta.title,
    tabs,
    variants,
    navigation: navigation(null),
    previous: neighbour(order[at - 1]),
    next: neighbour(order[at + 1]),
  };
}

/** A page's emoji or icon, GitBook's fields, where it has one. */
export function pageMarkOf(page: FlatPage): { emoji?: string; icon?: string } {
  const { emoji, icon } = page.meta;
  return { ...(typeof emoji === 'string' && emoji ? { emoji } : {}), ...(typeof icon === 'string' && icon ? { icon } : {}) };
}

/** A page's words in the table of contents and the pagination: its link title (SUMMARY.md's label) where it has one, as GitBook shows it. */
function navigationTitle(page: FlatPage): string {
  return typeof page.meta.linkTitle === 'string' ? page.meta.linkTitle : page.meta.title;
}

function linkHref(page: FlatPage): string | undefined {
  const target = typeof page.meta.href === 'string' ? page.meta.href : undefined;
  return target && isSafeLinkUrl(target) ? target : undefined;
}

/** A space's published revision without the pages the reader's claims do not open. */
async function revisionReadBy(ctx: ServiceContext, revisionId: string, claims: Record<string, unknown>): Promise<RevisionView> {
  const view = await loadRevision(ctx, revisionId);
  return { ...view, ...pagesReadBy(view.tree, claims) };
}

/** Every readable page of every site space the reader may see, for the files machines read. */
async function sitePages(ctx: ServiceContext, { site, structure, spaces: shown }: PublishedSiteRows, claims: Record<string, unknown>, base: string) {
  const sections = new Map(orderedSections(structure).map((section) => [section.id, section]));
  const defaultSection = site.default_section_id ?? orderedSections(structure)[0]?.id ?? null;
  const spaces: Array<{ spaceId: string; title: string; pages: Array<{ page: FlatPage; url: string; markdown: () => Promise<string> }> }> = [];
  for (const siteSpace of shownStructure(structure, claims).siteSpaces) {
    const section = siteSpace.section_id ? sections.get(siteSpace.section_id) : undefined;
    const space = shown.get(siteSpace.space_id);
    if (!space || space.deleted_at) continue;
    const isDefault = siteSpace.id === (section ? section.default_site_space_id : site.default_site_space_id);
    const prefix = [...(section && section.id !== defaultSection ? [section.path] : []), ...(isDefault ? [] : [siteSpace.path])];
    const view = await revisionReadBy(ctx, space.revision_id, claims);
    const pages = inReadingOrder(view.tree, { leaveOutHidden: true })
      .filter((page) => page.meta.type === 'document')
      .map((page) => ({ page, url: [base, ...prefix, pagePath(view.tree, page.id)].join('/'), markdown: async () => markdownReadBy(await markdownWithIncludes(ctx, view, page), claims) }));
    spaces.push({ spaceId: space.id, title: space.title, pages });
  }
  return spaces;
}

/** What sitemap.xml, robots.txt, llms.txt and llms-full.txt list: every page the reader may read, with its markdown for llms-full.txt. */
async function machineFile<Kept extends KeptPage>(ctx: ServiceContext, published: PublishedSiteRows, claims: Record<string, unknown>, base: string, name: string): Promise<PublishedView<Kept>> {
  const spaces = await sitePages(ctx, published, claims, base);
  const withMarkdown = name === 'llms-full.txt';
  const listed = await Promise.all(
    spaces.map(async ({ spaceId, title, pages }) => ({
      spaceId,
      title,
      pages: await Promise.all(pages.map(async ({ page, url, markdown }) => ({ page, url, ...(withMarkdown ? { markdown: await markdown() } : {}) }))),
    })),
  );
  return { kind: 'machine', name, site: published.site, base, spaces: listed };
}

/** Results a search page shows at most. */
const SEARCH_RESULTS = 20;

/** The site's search: the published content of every site space the reader may see, hidden pages left out. */
async function siteSearch<Kept extends KeptPage>(ctx: ServiceContext, published: PublishedSiteWithInstallations, claims: Record<string, unknown>, { base, origin }: { base: string; origin?: string }, input: string): Promise<PublishedView<Kept>> {
  const { site } = published;
  const scripts = siteScripts(ctx, site, published.installations, origin);
  const spaces = await sitePages(ctx, published, claims, base);
  const pageUrls = new Map(spaces.flatMap((space) => space.pages.map(({ page, url }) => [page.id, { url, title: page.meta.title }] as const)));
  const query = parseSearchQuery(input);
  const spaceIds = [...new Set(spaces.map((space) => space.spaceId))];
  const { hits } = await hitsSeenBy(ctx, query, { organizationId: site.organization_id, spaceIds }, { leaveOutHidden: true, claims });
  const excerpt = excerpter(query);
  const results = hits.flatMap((hit) => {
    const page = pageUrls.get(hit.page_id);
    if (!page) return [];
    return [{ title: page.title, href: hit.anchor ? `${page.url}#${hit.anchor}` : page.url, heading: hit.anchor ? hit.heading : undefined, excerpt: excerpt(hit.body) }];
  });
  return { kind: 'search', site, base, origin, claims, scripts, input, results: results.slice(0, SEARCH_RESULTS) };
}
