// A published site rendered as its readers see it: what services/publishedReads.ts
// answers for a view (the site's frame, the page's document, the navigation, the
// reader's claims), as HTML for a page or for a 404, its markdown, the files machines
// read, or the site's search. Reads and authorizes nothing itself.
import { linksAsWritten, markdownToDocument } from '../content/document.ts';
import type { FlatPage } from '../content/tree.ts';
import { WeightBoundedCache } from '../lib/weightBoundedCache.ts';
import type { ServiceContext } from '../services/context.ts';
import { iconShape } from '../lib/icons.ts';
import { frontPageSites, pageMarkOf, readPublishedView, type PublishedNavigationItem, type ReadCredentials, type SiteAddress, type SiteScript } from '../services/publishedReads.ts';
import { READER_SCRIPT_PATH, notFoundPage, searchPage, siteIndexPage, sitePage, type NavigationItem, type PageMark, type PageScripts } from './layout.ts';
import { siteFrame } from './customization.ts';
import { documentToHast, loadRenderers, outlineOf } from './render.ts';
import { OpenApiView } from './openapi.ts';
import type { ElementContent } from 'hast';
import type { SiteRow } from '../db/schema.ts';

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
  | { status: 307; redirect: string }
  /** A visitor-auth site's fallbackURL, for a reader without a valid visitor token. */
  | { status: 302; redirect: string };

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

/** Text inside XML markup. */
function xmlText(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A description in an OpenAPI document, rendered as page content whose links lead only to URLs. */
function describeMarkdown(markdown: string): ElementContent[] {
  const document = markdownToDocument(markdown, linksAsWritten);
  return documentToHast(document, { href: (ref) => (ref.kind === 'url' ? ref.url : undefined) }).children as ElementContent[];
}

/** A page of a published site at `path`, or with `query` at the site's root, its search results. */
export async function readPublishedPage(ctx: ServiceContext, address: SiteAddress, path: string, credentials: ReadCredentials, query?: string): Promise<ReaderAnswer> {
  const { origin } = address;
  const view = await readPublishedView(ctx, address, path, credentials, query, (cacheKey) => {
    const kept = renderedPages.get(cacheKey);
    return kept && kept.expires > ctx.clock.now().getTime() ? kept : undefined;
  });
  switch (view.kind) {
    case 'closed':
      if (view.fallback) return { status: 302, redirect: view.fallback };
      return { status: 404, body: notFoundPage(undefined) };
    case 'redirect':
      return { status: 307, redirect: view.location };
    case 'missing':
      return { status: 404, body: notFoundPage({ frame: siteFrame(view.site, view.base, view.claims), scripts: pageScripts(ctx, view.scripts, origin) }), scripts: view.scripts };
    case 'search':
      return { status: 200, body: searchPage(siteFrame(view.site, view.base, view.claims), pageScripts(ctx, view.scripts, origin), view.input, view.results), scripts: view.scripts };
    case 'machine':
      return machineFile(view);
    case 'markdown':
      return { status: 200, body: pageAsMarkdown(view.page, view.markdown), contentType: 'text/markdown; charset=utf-8' };
    case 'kept':
      return { status: 200, body: view.kept.html, cache: 'page', scripts: view.scripts };
  }
  const { site, base, claims, scripts, page, document, href, specs } = view;
  await loadRenderers();
  const content = documentToHast(document, {
    resolve: (ref) => (ref.kind === 'url' ? view.resolve(ref.url) : ref),
    openapi: (slug) => {
      const spec = specs.documents[specs.slugs.indexOf(slug)];
      return spec && new OpenApiView(spec.document, describeMarkdown);
    },
    href,
    search: (query) => (query ? `${base}?q=${encodeURIComponent(query)}` : base),
    pageTitle: view.pageTitle,
    iconShape,
  });
  const body = sitePage({
    site: siteFrame(site, base, claims, href),
    tabs: view.tabs,
    variants: view.variants,
    url: view.url,
    scripts: pageScripts(ctx, scripts, origin),
    mermaidUrl: ctx.config.mermaidUrl,
    noIndex: page.meta.noIndex === true || page.meta.noRobotsIndex === true,
    page: { title: page.meta.title, ...drawnMark(pageMarkOf(page)), description: typeof page.meta.description === 'string' ? page.meta.description : undefined, content: content.children as ElementContent[] },
    navigation: withDrawnMarks(view.navigation),
    outline: outlineOf(document),
    previous: view.previous,
    next: view.next,
  });
  renderedPages.forget(view.cacheKey);
  renderedPages.keep(view.cacheKey, { html: Buffer.from(body), specs: { slugs: specs.slugs, versions: specs.documents.map((spec) => spec?.versionId ?? null) }, expires: ctx.clock.now().getTime() + RENDERED_PAGE_MS });
  return { status: 200, body, cache: view.ready ? 'document' : 'none', scripts };
}

/** A page's emoji as it is, its icon's name as the icon's drawing. */
function drawnMark({ emoji, icon }: { emoji?: string; icon?: string }): PageMark {
  const shape = icon ? iconShape(icon) : undefined;
  return { ...(emoji ? { emoji } : {}), ...(shape ? { icon: shape } : {}) };
}

function withDrawnMarks(items: PublishedNavigationItem[]): NavigationItem[] {
  return items.map(({ emoji, icon, children, ...item }) => ({ ...item, ...drawnMark({ emoji, icon }), children: withDrawnMarks(children) }));
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

function pageAsMarkdown(page: FlatPage, markdown: string): string {
  const description = typeof page.meta.description === 'string' && page.meta.description ? `${page.meta.description}\n\n` : '';
  return `# ${page.meta.title}\n\n${description}${markdown}`;
}

/** sitemap.xml, robots.txt, llms.txt and llms-full.txt, as GitBook serves them for a site. */
function machineFile({ site, base, name, spaces }: { site: SiteRow; base: string; name: string; spaces: Array<{ title: string; pages: Array<{ page: FlatPage; url: string; markdown?: string }> }> }): ReaderAnswer {
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
      const pages = all.map(({ page, markdown }) => pageAsMarkdown(page, markdown ?? ''));
      return { status: 200, contentType: 'text/plain; charset=utf-8', body: `${pages.join('\n\n---\n\n')}\n` };
    }
  }
}

/** How many public sites the front page lists at most. */
const FRONT_PAGE_SITES = 200;

/** The instance's front page: the public published sites, or a redirect to the only one. */
export async function readFrontPage(ctx: ServiceContext): Promise<ReaderAnswer | { redirect: string }> {
  const sites = await frontPageSites(ctx, FRONT_PAGE_SITES);
  if (sites.length === 1) return { redirect: sites[0].href };
  return { status: 200, body: siteIndexPage(sites) };
}
