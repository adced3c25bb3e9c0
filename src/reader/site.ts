// Reading a published site as its readers do: the site by id or hostname, the rule for
// outsiders (policies/publishedSite.ts, through services/siteAccess.ts), the site space
// a path names, the page at the rest of the path in that space's current revision (or
// the site's redirect from it), and the page rendered in the site's frame. Reads through
// services and repos only; answers HTML for a page or for a 404.
import { isSafeLinkUrl } from '../content/gitbook/safety.ts';
import { linkResolverFor, linksAsWritten, markdownToDocument, namedFiles, openApiSpecsOf, reusableContentsOf, withConditionsDecided, withIncludedBlocks } from '../content/document.ts';
import { pageDocument } from '../services/pageDocuments.ts';
import type { Block, ContentRef } from '../content/gitbook/model.ts';
import { childrenOfSettledTree, findPageByPath, inReadingOrder, pagePath, type FlatPage } from '../content/tree.ts';
import { findSiteByHostname, publicSites } from '../db/repos/sites.ts';
import { publishedSiteUrl } from '../presenters/site.ts';
import { readPublishedSiteWithInstallations } from '../db/repos/siteStructure.ts';
import { conditionHolds } from '../lib/conditions.ts';
import { WeightBoundedCache } from '../lib/weightBoundedCache.ts';
import { presentFile, loadRevision, markdownReadBy, markdownWithIncludes, type RevisionView } from '../services/revisionContent.ts';
import type { ServiceContext } from '../services/context.ts';
import { publishedSiteClaims, type ReadCredentials } from '../services/publishedAccess.ts';
import { defaultSectionOf, orderedSections, shownStructure, siteSpaceAtPath, topLevelItems } from '../lib/siteStructure.ts';
import { pagesReadBy } from '../content/adaptive.ts';
import { redirectedPath } from '../services/siteRedirects.ts';
import { siteScripts } from '../services/integrationEvents.ts';
import { READER_SCRIPT_PATH, notFoundPage, searchPage, siteIndexPage, sitePage, type NavigationItem, type PageScripts } from './layout.ts';
import { siteFrame } from './customization.ts';
import { excerpter, parseSearchQuery } from '../content/search.ts';
import { hitsSeenBy } from '../services/search.ts';
import { documentToHast, loadRenderers, outlineOf } from './render.ts';
import { OpenApiView } from './openapi.ts';
import { latestOpenApiVersions, publishedOpenApiDocument } from '../services/openApiSpecs.ts';
import { isDeepStrictEqual } from 'node:util';
import type { ElementContent } from 'hast';
import { createHash } from 'node:crypto';
import type { PublishedSiteRows, PublishedSiteWithInstallations, SiteRow } from '../db/schema.ts';

type SiteScript = ReturnType<typeof siteScripts>[number];

export type ReaderAnswer =
  | {
      status: 200 | 404;
      /** A cached page is kept as bytes: encoding it again for each reader costs as much as the rest of a hit. */
      body: string | Buffer;
      /** text/html unless said otherwise. */
      contentType?: string;
      /** For a page: served as rendered before, rendered from its document made ahead, or converted for this reader. */
      cache?: 'page' | 'document' | 'none';
      /** The integrations' scripts the page loads (GitBook's SiteIntegrationScript): its policy lets them, and what they declare, load. */
      scripts?: SiteScript[];
    }
  /** A site redirect: temporary (307), as GitBook's renderer answers them, since they can be edited. */
  | { status: 307; redirect: string };

interface RenderedPage {
  html: Buffer;
  /** The organization's OpenAPI specs the page shows, and the versions it showed: a new version makes it stale. */
  specs: { slugs: string[]; versions: Array<string | null> };
  expires: number;
}

/** How long a rendered page is served again: within the hour the signed file links in it last. */
const RENDERED_PAGE_MS = 30 * 60 * 1000;

/**
 * Rendered pages, by everything they depend on: a new revision, a changed site or
 * another reader's claims make another key, so nothing stale is served and old entries
 * age out. Bounded by their bytes, not their number: every page carries its site's
 * whole sidebar, ~100 B a page of the site (a page of a 1,000-page site is 102 KB), so
 * the 500 pages kept before were ~250 MB of a 5,000-page site, and a crawler's walk
 * through one large site took a small server far past its memory. 16 MB keeps about 160
 * pages of a 1,000-page site; the others render again from documents made ahead. A page
 * over 2 MB (a site of some 20,000 pages) is rendered for each reader rather than
 * pushing out an eighth of the others.
 */
const renderedPages = new WeightBoundedCache<RenderedPage>(16_000_000, (page) => page.html.length, 2_000_000);

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

/** Where a site is read: Quire's own URL, or the origin of its hostname, with the site's base path. */
/** Text inside XML markup. */
function xmlText(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function siteBase(ctx: ServiceContext, site: SiteRow, origin?: string): string {
  const root = origin ?? `${ctx.config.publicUrl}/sites/${site.id}`;
  return `${root}${site.basename ? `/${site.basename}` : ''}`;
}

/** The site served at a custom hostname, if any. */
export function siteAtHostname(ctx: ServiceContext, hostname: string): Promise<SiteRow | undefined> {
  return findSiteByHostname(ctx.db, hostname);
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

/** A description in an OpenAPI document, rendered as page content whose links lead only to URLs. */
function describeMarkdown(markdown: string): ElementContent[] {
  const document = markdownToDocument(markdown, linksAsWritten);
  return documentToHast(document, { href: (ref) => (ref.kind === 'url' ? ref.url : undefined) }).children as ElementContent[];
}

/** A page of a published site at `path`, or with `query` at the site's root, its search results. */
export async function readPublishedPage(ctx: ServiceContext, address: SiteAddress, path: string, credentials: ReadCredentials, query?: string): Promise<ReaderAnswer> {
  const published = await readPublishedSiteWithInstallations(ctx.db, address.siteId);
  const claims = published && (await publishedSiteClaims(ctx.db, published.site, credentials));
  if (!published || !claims) return { status: 404, body: notFoundPage(undefined) };
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
  const notFound = async (): Promise<ReaderAnswer> => {
    const target = await redirectedPath(ctx, site, structure, `/${segments.join('/')}`);
    if (target !== undefined) return { status: 307, redirect: `${base}${target}` };
    return { status: 404, body: notFoundPage({ frame: siteFrame(site, base, claims), scripts: pageScripts(ctx, scripts, origin) }), scripts };
  };
  if (!space || space.deleted_at) return notFound();
  // Everything a rendered page depends on: the site's frame, the revision, the path read, by whom, and the scripts it
  // loads. Known before the page tree is walked, so that a page read again costs a few small queries.
  const cacheKey = createHash('sha256')
    .update(JSON.stringify([base, site.title, site.hostname, site.customization, structure, space.revision_id, rest, prefix, claims, scripts]))
    .digest('base64url');
  const kept = asMarkdown ? undefined : renderedPages.get(cacheKey);
  const cached = kept && kept.expires > ctx.clock.now().getTime() ? kept : undefined;
  if (cached && (cached.specs.slugs.length === 0 || isDeepStrictEqual(await latestOpenApiVersions(ctx, site.organization_id, cached.specs.slugs), cached.specs.versions))) {
    return { status: 200, body: cached.html, cache: 'page', scripts };
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
  if (asMarkdown) return { status: 200, body: pageAsMarkdown(page, await markdownReadBy(await markdownWithIncludes(ctx, view, page), claims)), contentType: 'text/markdown; charset=utf-8' };
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
  const [specs] = await Promise.all([Promise.all(slugs.map((slug) => publishedOpenApiDocument(ctx, site.organization_id, slug))), loadRenderers()]);
  const content = documentToHast(document, {
    resolve: (ref) => (ref.kind === 'url' ? resolveLink(ref.url) : ref),
    openapi: (slug) => {
      const spec = specs[slugs.indexOf(slug)];
      return spec && new OpenApiView(spec.document, describeMarkdown);
    },
    href,
    search: (query) => (query ? `${base}?q=${encodeURIComponent(query)}` : base),
    pageTitle: (pageId) => view.tree.get(pageId)?.meta.title,
  });
  const children = childrenOfSettledTree(view.tree);
  const navigation = (parentId: string | null): NavigationItem[] =>
    (children.get(parentId) ?? [])
      .filter((child) => child.meta.hidden !== true && shown(child))
      .map((child) => ({
        title: navigationTitle(child),
        href: child.meta.type === 'document' ? pageUrl(child) : child.meta.type === 'link' ? linkHref(child) : undefined,
        current: child.id === page.id,
        children: navigation(child.id),
      }));
  const at = order.findIndex((candidate) => candidate.id === page.id);
  const neighbour = (candidate: FlatPage | undefined) => (candidate && candidate.meta.type === 'document' ? { title: navigationTitle(candidate), href: pageUrl(candidate) } : undefined);
  const { tabs, variants } = siteNavigation(published, claims, base, { sectionId: section?.id, siteSpaceId: siteSpace!.id });
  const body = sitePage({
    site: siteFrame(site, base, claims, href),
    tabs,
    variants,
    // The canonical address is the published one (the custom hostname's, when the site has one), however it was reached.
    url: `${publishedSiteUrl(ctx.config.publicUrl, site)}${pageUrl(page).slice(base.length)}`,
    scripts: pageScripts(ctx, scripts, origin),
    mermaidUrl: ctx.config.mermaidUrl,
    noIndex: page.meta.noIndex === true || page.meta.noRobotsIndex === true,
    page: { title: page.meta.title, description: typeof page.meta.description === 'string' ? page.meta.description : undefined, content: content.children as ElementContent[] },
    navigation: navigation(null),
    outline: outlineOf(document),
    previous: neighbour(order[at - 1]),
    next: neighbour(order[at + 1]),
  });
  renderedPages.forget(cacheKey);
  renderedPages.keep(cacheKey, { html: Buffer.from(body), specs: { slugs, versions: specs.map((spec) => spec?.versionId ?? null) }, expires: ctx.clock.now().getTime() + RENDERED_PAGE_MS });
  return { status: 200, body, cache: ready ? 'document' : 'none', scripts };
}

/**
 * What every page of the site loads. At a custom hostname the scripts are served there
 * too (`origin`): from the page's own origin, never as mixed content.
 */
function pageScripts(ctx: ServiceContext, scripts: SiteScript[], origin: string | undefined): PageScripts {
  return {
    reader: `${origin ?? ctx.config.publicUrl}${READER_SCRIPT_PATH}`,
    integrations: scripts.map((script) => script.script),
    cookieNotice: scripts.some((script) => script.cookies),
  };
}

/** A page's words in the table of contents and the pagination: its link title (SUMMARY.md's label) where it has one, as GitBook shows it. */
function navigationTitle(page: FlatPage): string {
  return typeof page.meta.linkTitle === 'string' ? page.meta.linkTitle : page.meta.title;
}

function linkHref(page: FlatPage): string | undefined {
  const target = typeof page.meta.href === 'string' ? page.meta.href : undefined;
  return target && isSafeLinkUrl(target) ? target : undefined;
}


function pageAsMarkdown(page: FlatPage, markdown: string): string {
  const description = typeof page.meta.description === 'string' && page.meta.description ? `${page.meta.description}\n\n` : '';
  return `# ${page.meta.title}\n\n${description}${markdown}`;
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

/** sitemap.xml, robots.txt, llms.txt and llms-full.txt, as GitBook serves them for a site. */
async function machineFile(ctx: ServiceContext, published: PublishedSiteRows, claims: Record<string, unknown>, base: string, name: string): Promise<ReaderAnswer> {
  const { site } = published;
  const spaces = await sitePages(ctx, published, claims, base);
  const all = spaces.flatMap((space) => space.pages);
  switch (name) {
    case 'sitemap.xml': {
      const urls = all.filter(({ page }) => page.meta.noIndex !== true && page.meta.noRobotsIndex !== true).map(({ url }) => `<url><loc>${xmlText(url)}</loc></url>`);
      return { status: 200, contentType: 'application/xml; charset=utf-8', body: `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join('')}</urlset>\n` };
    }
    case 'robots.txt': {
      const hidden = all.filter(({ page }) => page.meta.noRobotsIndex === true).map(({ url }) => `Disallow: ${new URL(url).pathname}`);
      return { status: 200, contentType: 'text/plain; charset=utf-8', body: ['User-agent: *', 'Allow: /', ...hidden, `Sitemap: ${base}/sitemap.xml`, ''].join('\n') };
    }
    case 'llms.txt': {
      const sections = spaces.map((space) => [`## ${space.title}`, '', ...space.pages.map(({ page, url }) => `- [${page.meta.title}](${url}.md)${typeof page.meta.description === 'string' && page.meta.description ? `: ${page.meta.description}` : ''}`), ''].join('\n'));
      return { status: 200, contentType: 'text/plain; charset=utf-8', body: [`# ${site.title}`, '', ...sections].join('\n') };
    }
    default: {
      const pages = await Promise.all(all.map(async ({ page, markdown }) => pageAsMarkdown(page, await markdown())));
      return { status: 200, contentType: 'text/plain; charset=utf-8', body: `${pages.join('\n\n---\n\n')}\n` };
    }
  }
}

/** How many public sites the front page lists at most. */
const FRONT_PAGE_SITES = 200;

/** The instance's front page: the public published sites, or a redirect to the only one. */
export async function readFrontPage(ctx: ServiceContext): Promise<ReaderAnswer | { redirect: string }> {
  const sites = await publicSites(ctx.db, FRONT_PAGE_SITES);
  if (sites.length === 1) return { redirect: siteBase(ctx, sites[0]) };
  return { status: 200, body: siteIndexPage(sites.map((site) => ({ title: site.title, href: siteBase(ctx, site) }))) };
}

/** Results a search page shows at most. */
const SEARCH_RESULTS = 20;

/** The site's search: the published content of every site space the reader may see, hidden pages left out. */
async function siteSearch(ctx: ServiceContext, published: PublishedSiteWithInstallations, claims: Record<string, unknown>, { base, origin }: { base: string; origin?: string }, input: string): Promise<ReaderAnswer> {
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
  return { status: 200, body: searchPage(siteFrame(site, base, claims), pageScripts(ctx, scripts, origin), input, results.slice(0, SEARCH_RESULTS)), scripts };
}
