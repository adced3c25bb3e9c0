// The frame around a published page: a skip link, the site's header, the sidebar of the
// page tree, the page with its outline and previous / next links, and a footer. Built
// as hast like the page itself (render.ts), so every title is escaped. The stylesheet is inline: one request per page, light and dark
// themes by the reader's preference, and a single column on a phone.
import type { Element, ElementContent, Properties } from 'hast';
import { toHtml } from 'hast-util-to-html';
import { glyphOf } from '../content/gitbook/emoji.ts';
import type { IconShape } from '../lib/icons.ts';
import type { SiteFrame } from './customization.ts';
import type { SiteTheme } from './theme.ts';

/** The path of the pages' one script (copy buttons on code). */
export const READER_SCRIPT_PATH = '/reader/reader.js';

/** A page's emoji (code points in hex) or the drawing of its icon (lib/icons.ts: this module is the app's too, so it reads no file), GitBook's fields. */
export interface PageMark {
  emoji?: string;
  icon?: IconShape;
}

export interface NavigationItem extends PageMark {
  title: string;
  href?: string;
  current: boolean;
  children: NavigationItem[];
}

interface Link {
  title: string;
  href: string;
}

/** The scripts every page of a site loads: its content pages, its search results and its 404 page alike. */
export interface PageScripts {
  /** Where the pages' own script is served (READER_SCRIPT_PATH under Quire's URL, or at the site's hostname). */
  reader: string;
  /** The scripts of the integrations installed on the site (GitBook's published scripts). */
  integrations: string[];
  /** One of them may set cookies: the reader is asked, as GitBook's pages ask, and the scripts read the answer. */
  cookieNotice: boolean;
}

export interface SitePage {
  site: SiteFrame;
  /** The site's sections, when it has more than one, the current one marked; a section group holds its sections. */
  tabs: Array<HeaderLink & { current: boolean }>;
  /** The current section's site spaces (variants, such as versions or languages), when more than one. */
  variants: Array<Link & { current: boolean }>;
  /** The page's own URL, for canonical and social-preview links. */
  url: string;
  scripts: PageScripts;
  /** The mermaid module the script loads to draw the page's diagrams, when the instance has one. */
  mermaidUrl?: string;
  noIndex: boolean;
  /** The page's content as rendered by render.ts. */
  page: PageMark & { title: string; description?: string; content: ElementContent[] };
  navigation: NavigationItem[];
  outline: Array<{ id: string; title: string; level: number }>;
  previous?: Link;
  next?: Link;
}

/** The pages' one stylesheet: every text colour in it meets WCAG AA on its backgrounds (test/unit/reader.test.ts). */
export const READER_STYLESHEET = `
:root{--fg:#1d2430;--muted:#5b6472;--bg:#fff;--panel:#f5f7fa;--line:#dfe3ea;--accent:#2456c8;--hint:#eef3ff;font-family:system-ui,-apple-system,"Segoe UI",sans-serif;line-height:1.6;color:var(--fg);background:var(--bg)}
@media (prefers-color-scheme:dark){:root{--fg:#e6e9ef;--muted:#a9b1bd;--bg:#14171c;--panel:#1c2027;--line:#2e343d;--accent:#8fb2ff;--hint:#1d2636}}
body{margin:0}a{color:var(--accent)}a:focus-visible,summary:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.skip-link{position:absolute;left:-999px}.skip-link:focus{left:1rem;top:1rem;background:var(--bg);padding:.5rem;z-index:1}
header.site{display:flex;flex-wrap:wrap;align-items:center;gap:1rem;padding:.75rem 1.5rem;border-bottom:1px solid var(--line)}
header.site form.search input{padding:.35rem .6rem;border:1px solid var(--line);border-radius:var(--radius,6px);background:var(--bg);color:var(--fg);font:inherit}
.search-results ol{padding-left:1.2rem}.search-results li{margin-bottom:1rem}
form.search{position:relative}.instant-results:not(:empty){position:absolute;z-index:3;top:100%;left:0;width:min(28rem,90vw);max-height:60vh;overflow:auto;background:var(--bg);border:1px solid var(--line);border-radius:var(--radius,6px);padding:.5rem 1rem;font-size:.9rem}.instant-results ol{padding-left:1.2rem;margin:0}.instant-results li p{margin:.2rem 0 .6rem;color:var(--muted)}
header.site nav ul{display:flex;gap:1rem;list-style:none;margin:0;padding:0}header.site nav a{text-decoration:none;color:var(--muted)}header.site nav a[aria-current=page],details.menu.current>summary{color:var(--accent);font-weight:600}header.site nav.variants{margin-left:auto;font-size:.9rem}
.layout{display:grid;grid-template-columns:16rem minmax(0,1fr) 14rem;gap:2rem;max-width:90rem;margin:0 auto;padding:1.5rem}
nav.pages ul{list-style:none;padding-left:1rem;margin:0}nav.pages>ul{padding-left:0}nav.pages li{margin:.2rem 0}nav.pages a{text-decoration:none;color:var(--muted)}nav.pages a[aria-current=page]{color:var(--accent);font-weight:600}
nav.pages .group{font-weight:600;color:var(--fg);margin-top:.75rem}
main{min-width:0}main h1{margin-top:0}.description{color:var(--muted);font-size:1.1rem}
.anchor{margin-left:.4rem;text-decoration:none;opacity:.4}.anchor:hover,.anchor:focus{opacity:1}
pre{background:var(--panel);padding:1rem;overflow:auto;border-radius:var(--radius,6px)}code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.92em}
figure{margin:1rem 0}figcaption{color:var(--muted);font-size:.9rem}img{max-width:100%;height:auto}
.hint{background:var(--hint);border-left:4px solid var(--accent);padding:.5rem 1rem;margin:1rem 0;border-radius:4px}
.hint-warning{border-color:#b26a00}.hint-danger{border-color:#c62828}.hint-success{border-color:#2e7d32}
svg.icon{width:1em;height:1em;vertical-align:-.125em}.page-mark.icon{opacity:.8}span.icon[style]{display:inline-block;width:1em;height:1em;vertical-align:-.125em;background-color:currentColor;mask:var(--icon) center/contain no-repeat}
.tabs{border:1px solid var(--line);border-radius:var(--radius,6px);padding:0 1rem;margin:1rem 0}.tab-title{font-weight:600;border-bottom:1px solid var(--line);padding-bottom:.25rem}
details{border:1px solid var(--line);border-radius:var(--radius,6px);padding:.5rem 1rem;margin:1rem 0}summary{cursor:pointer;font-weight:600}
.columns{display:flex;gap:1.5rem}.column{flex:1 1 0;min-width:0}
ul.tasks{list-style:none;padding-left:0}ul.tasks>li{display:flex;gap:.5rem;align-items:baseline}ul.tasks>li>p{margin:0}
blockquote{border-left:3px solid var(--line);margin:1rem 0;padding:0 1rem;color:var(--muted)}
td>p,th>p{margin:0}
.math math{font-size:1.15em}.math-block{margin:1rem 0;overflow-x:auto}
mark{background:transparent;color:inherit;border-radius:3px;padding:0 .1em}
.color-green{color:#2e7d32}.color-blue{color:#1565c0}.color-red{color:#c62828}.color-orange{color:#9a5b00}.color-yellow{color:#806400}.color-purple{color:#6a1b9a}.color-pink{color:#ad1457}.color-violet{color:#4527a0}.color-cyan{color:#00727c}.color-primary,.color-info{color:var(--accent)}.color-success{color:#2e7d32}.color-warning{color:#9a5b00}.color-danger{color:#c62828}
.background-green{background:#e3f4e5}.background-blue{background:#e3eefc}.background-red{background:#fde7e7}.background-orange{background:#fff0dc}.background-yellow{background:#fff7c2}.background-purple{background:#f1e4f7}.background-pink{background:#fce4ef}.background-violet{background:#ebe6f8}.background-cyan{background:#ddf4f6}.background-primary,.background-info{background:var(--hint)}
@media (prefers-color-scheme:dark){.color-green,.color-success{color:#81c784}.color-blue{color:#90caf9}.color-red,.color-danger{color:#ef9a9a}.color-orange,.color-warning{color:#ffb74d}.color-yellow{color:#fff176}.color-purple{color:#ce93d8}.color-pink{color:#f48fb1}.color-violet{color:#b39ddb}.color-cyan{color:#80deea}[class*=background-]:not(.background-default){background:var(--panel)}}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(12rem,1fr));gap:1rem}.card{display:block;border:1px solid var(--line);border-radius:var(--radius,6px);padding:1rem;color:inherit;text-decoration:none}
table{border-collapse:collapse;width:100%}th,td{border:1px solid var(--line);padding:.4rem .6rem;text-align:left}
.button{display:inline-block;padding:.4rem .9rem;border-radius:var(--radius,6px);background:var(--accent);color:var(--bg);text-decoration:none}.button.secondary{background:transparent;color:var(--accent);border:1px solid var(--accent)}
aside.outline{font-size:.9rem}aside.outline ul{list-style:none;padding-left:0}aside.outline .level-2{padding-left:.75rem}aside.outline .level-3{padding-left:1.5rem}
.cookie-notice{position:fixed;bottom:1rem;left:1rem;right:1rem;max-width:32rem;z-index:4;background:var(--bg);border:1px solid var(--line);border-radius:var(--radius,6px);padding:.5rem 1rem 1rem}.cookie-notice button{margin-right:.5rem;font:inherit;padding:.3rem .8rem}
.openapi{border:1px solid var(--line);border-radius:var(--radius,6px);padding:.25rem 1rem;margin:1rem 0}.openapi-endpoint{font-size:1.05rem}.openapi-method{font-weight:700;font-family:ui-monospace,Menlo,Consolas,monospace}
.method-get{color:#2e7d32}.method-post{color:#1565c0}.method-put,.method-patch{color:#9a5b00}.method-delete{color:#c62828}.openapi-required{color:#c62828;font-size:.8em}
@media (prefers-color-scheme:dark){.method-get{color:#81c784}.method-post{color:#90caf9}.method-put,.method-patch{color:#ffb74d}.method-delete,.openapi-required{color:#ef9a9a}}
.openapi-heading{font-weight:600;margin:1rem 0 .25rem}.openapi-type{color:var(--muted);font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.9em}.openapi-properties{list-style:none;padding-left:1rem;border-left:1px solid var(--line)}.openapi-properties>li{margin:.4rem 0}.openapi-properties p{margin:.1rem 0;color:var(--muted)}.openapi-responses{list-style:none;padding:0}.openapi-responses details{margin:.4rem 0}
nav.pagination{display:flex;justify-content:space-between;gap:1rem;margin-top:3rem;border-top:1px solid var(--line);padding-top:1rem}
figure.code{position:relative}.code .line.highlighted{display:inline-block;min-width:100%;background:var(--hint)}.line-numbers code{counter-reset:line}.line-numbers .line::before{counter-increment:line;content:counter(line);display:inline-block;width:2em;margin-right:1em;text-align:right;color:var(--muted)}button.copy{position:absolute;right:.5rem;top:.5rem;font:inherit;font-size:.8rem;padding:.15rem .5rem;border:1px solid var(--line);border-radius:var(--radius,6px);background:var(--bg);color:var(--fg);cursor:pointer}
footer.site{color:var(--muted);font-size:.85rem;text-align:center;padding:2rem;border-top:1px solid var(--line)}
.footer-groups{display:flex;flex-wrap:wrap;justify-content:center;gap:3rem;text-align:left}.footer-groups ul{list-style:none;padding:0}.footer-title{font-weight:600;color:var(--fg)}footer.site a{color:var(--muted)}
img.logo{height:2rem;width:auto;vertical-align:middle}header.site a.brand{font-weight:600;text-decoration:none;color:var(--fg)}
nav.site-links ul{display:flex;gap:1rem;align-items:center;list-style:none;margin:0;padding:0}nav.site-links a{text-decoration:none}nav.site-links a.button{color:var(--bg)}
details.menu{border:0;padding:0;margin:0;position:relative}details.menu summary{font-weight:400;color:var(--accent)}details.menu ul{display:block;position:absolute;z-index:2;background:var(--bg);border:1px solid var(--line);border-radius:var(--radius,6px);padding:.5rem 1rem;min-width:10rem}
.announcement{background:var(--hint);border-bottom:1px solid var(--line);text-align:center;padding:.4rem 1rem}.announcement p{margin:0}.announcement-warning{border-bottom:3px solid #b26a00}.announcement-danger{border-bottom:3px solid #c62828}.announcement-success{border-bottom:3px solid #2e7d32}
.hljs-keyword,.hljs-built_in{color:#a626a4}.hljs-string{color:#3a7a39}.hljs-number,.hljs-literal{color:#986801}.hljs-comment{color:var(--muted);font-style:italic}.hljs-title{color:#3565d0}
@media (prefers-color-scheme:dark){.hljs-keyword,.hljs-built_in{color:#d19ae8}.hljs-string{color:#98c379}.hljs-number,.hljs-literal{color:#e5c07b}.hljs-title{color:#79b8ff}}
@media (max-width:60rem){.columns{flex-direction:column}.layout{grid-template-columns:1fr}aside.outline{display:none}nav.pages{border-bottom:1px solid var(--line);padding-bottom:1rem}}
`;

function h(tagName: string, properties: Properties = {}, children: ElementContent[] = []): Element {
  return { type: 'element', tagName, properties, children };
}

const text = (value: string): ElementContent => ({ type: 'text', value });

/** A page's emoji, or else its icon drawn inline, before its title. */
export function pageMark({ emoji, icon }: PageMark): ElementContent[] {
  const glyph = emoji ? glyphOf(emoji) : '';
  if (glyph) return [h('span', { className: ['page-mark', 'emoji'], ariaHidden: 'true' }, [text(glyph)]), text(' ')];
  return icon ? [iconSvgElement(icon, ['page-mark', 'icon']), text(' ')] : [];
}

/** An icon as an inline SVG element in the text's colour. */
export function iconSvgElement(shape: IconShape, className: string[]): Element {
  return h('svg', { className, viewBox: shape.viewBox, ariaHidden: 'true', focusable: 'false' }, shape.paths.map((d) => h('path', { d, fill: 'currentColor' })));
}

function navigationList(items: NavigationItem[]): Element {
  return h('ul', {}, items.map((item) => {
    const label = item.href
      ? h('a', { href: item.href, ...(item.current ? { ariaCurrent: 'page' } : {}) }, [...pageMark(item), text(item.title)])
      : h('span', { className: ['group'] }, [...pageMark(item), text(item.title)]);
    return h('li', {}, [label, ...(item.children.length ? [navigationList(item.children)] : [])]);
  }));
}

/** The theme as CSS over the stylesheet's defaults; every value was checked for its shape, so none can close the rule. */
function themeStyle(theme: SiteTheme): string {
  const radius = { straight: '0', rounded: '6px', circular: '14px' }[theme.corners];
  const font = theme.font ? `font-family:"${theme.font}",system-ui,-apple-system,"Segoe UI",sans-serif;` : '';
  return `:root{--accent:${theme.primary.light};--radius:${radius};${font}}@media (prefers-color-scheme:dark){:root{--accent:${theme.primary.dark}}}`;
}

function documentShell(title: string, body: ElementContent[], meta: Element[] = []): string {
  const tree = h('html', { lang: 'en' }, [
    h('head', {}, [
      h('meta', { charSet: 'utf-8' }),
      h('meta', { name: 'viewport', content: 'width=device-width, initial-scale=1' }),
      h('title', {}, [text(title)]),
      h('style', {}, [text(READER_STYLESHEET)]),
      // After the stylesheet, so that a site's theme overrides its defaults.
      ...meta,
    ]),
    h('body', {}, body),
  ]);
  return `<!doctype html>${toHtml(tree)}`;
}

/** A link of the header: the current page marked, a primary one as a button, one with links of its own a menu of them. */
type HeaderLink = Link & { current?: boolean; primary?: boolean; links?: Array<Link & { current?: boolean }> };

function headerLink(link: HeaderLink): Element {
  return h('a', { href: link.href, ...(link.current ? { ariaCurrent: 'page' } : {}), ...(link.primary ? { className: ['button'] } : {}) }, [text(link.title)]);
}

/** A labelled list of the header's links; a menu is a disclosure, so that it opens without a script. */
function headerLinks(label: string, className: string, links: HeaderLink[]): Element[] {
  if (links.length === 0) return [];
  return [h('nav', { className: [className], ariaLabel: label }, [h('ul', {}, links.map((link) => h('li', {}, [
    link.links?.length
      ? h('details', { className: ['menu', ...(link.current ? ['current'] : [])] }, [h('summary', {}, [text(link.title)]), h('ul', {}, link.links.map((child) => h('li', {}, [headerLink(child)])))])
      : headerLink(link),
  ])))])];
}

/** The site's logo (its dark variant in the dark theme) or, without one, its title. */
function brand(title: string, logo: SiteFrame['logo']): ElementContent[] {
  if (!logo) return [text(title)];
  const img = h('img', { src: logo.light, alt: title, className: ['logo'] });
  return [logo.dark ? h('picture', {}, [h('source', { srcSet: logo.dark, media: '(prefers-color-scheme: dark)' }), img]) : img];
}

/** The site's header: its logo or title, its links, a search form (answered at the site's root with ?q=), and the section and variant links. */
function siteHeader(site: SiteFrame, tabs: SitePage['tabs'] = [], variants: SitePage['variants'] = [], query = ''): Element[] {
  const search = h('form', { role: 'search', action: site.home, method: 'get', className: ['search'] }, [
    h('input', { type: 'search', name: 'q', value: query, placeholder: 'Search', ariaLabel: `Search ${site.title}`, autocomplete: 'off' }),
  ]);
  const announcement = site.announcement
    ? [h('div', { className: ['announcement', `announcement-${site.announcement.style}`], role: 'region', ariaLabel: 'Announcement' }, [
        h('p', {}, [text(site.announcement.message), ...(site.announcement.link ? [text(' '), h('a', { href: site.announcement.link.href }, [text(site.announcement.link.title)])] : [])]),
      ])]
    : [];
  return [
    ...announcement,
    h('header', { className: ['site'] }, [
      h('a', { href: site.home, className: ['brand'] }, brand(site.title, site.logo)),
      ...headerLinks('Sections', 'sections', tabs),
      ...headerLinks('Site links', 'site-links', site.links),
      search,
      ...headerLinks('Variants', 'variants', variants),
    ]),
  ];
}

/** The site's footer: its groups of links, its copyright and logo. */
function siteFooter(site: SiteFrame): Element {
  const groups = site.footer.groups.map((group) => h('nav', { ariaLabel: group.title }, [h('p', { className: ['footer-title'] }, [text(group.title)]), h('ul', {}, group.links.map((link) => h('li', {}, [h('a', { href: link.href }, [text(link.title)])])))]));
  return h('footer', { className: ['site'] }, [
    ...(groups.length ? [h('div', { className: ['footer-groups'] }, groups)] : []),
    ...(site.footer.logo ? [h('p', {}, brand(site.title, site.footer.logo))] : []),
    h('p', {}, [text(site.footer.copyright ?? `${site.title} · published with Quire`)]),
  ]);
}

/** What every page of the site carries in its head: the theme over the defaults, and the icon. */
function siteHead(site: SiteFrame): Element[] {
  return [h('style', {}, [text(themeStyle(site.theme))]), ...(site.favicon ? [h('link', { rel: ['icon'], href: site.favicon })] : [])];
}

export interface SearchResult {
  title: string;
  href: string;
  /** Where in the page: its section's heading, when not the page's start. */
  heading?: string;
  excerpt: string;
}

/** The site's search results for a query, in the site's frame. */
export function searchPage(site: SiteFrame, scripts: PageScripts, query: string, results: SearchResult[]): string {
  return documentShell(`Search: ${query} | ${site.title}`, [
    h('a', { className: ['skip-link'], href: '#content' }, [text('Skip to content')]),
    ...siteHeader(site, [], [], query),
    h('main', { id: 'content', className: ['layout', 'search-results'] }, [
      h('div', {}, [
        h('h1', {}, [text(`Results for “${query}”`)]),
        results.length
          ? h('ol', {}, results.map((result) => h('li', {}, [
              h('a', { href: result.href }, [text(result.heading ? `${result.title} › ${result.heading}` : result.title)]),
              h('p', {}, [text(result.excerpt)]),
            ])))
          : h('p', {}, [text('Nothing matches. Try other or fewer words.')]),
      ]),
    ]),
    siteFooter(site),
    ...scriptsAtEnd(scripts),
  ], [h('meta', { name: 'robots', content: 'noindex' }), ...siteHead(site), ...scriptsInHead(scripts)]);
}

/** Whether rendered content holds a mermaid diagram (render.ts keeps them as <pre class="mermaid">). */
function holdsDiagram(node: ElementContent): boolean {
  if (node.type !== 'element') return false;
  return (node.tagName === 'pre' && Array.isArray(node.properties.className) && node.properties.className.includes('mermaid')) || node.children.some(holdsDiagram);
}

/** A published page in its site's frame. */
export function sitePage(input: SitePage): string {
  const { site, page } = input;
  const pagination = [input.previous && { ...input.previous, rel: 'prev', label: 'Previous' }, input.next && { ...input.next, rel: 'next', label: 'Next' }]
    .filter((link): link is Link & { rel: string; label: string } => Boolean(link))
    .map((link) => h('a', { href: link.href, rel: [link.rel] }, [h('span', { className: ['pagination-label'] }, [text(`${link.label}: `)]), text(link.title)]));
  const meta = [
    h('link', { rel: ['canonical'], href: input.url }),
    ...(page.description ? [h('meta', { name: 'description', content: page.description })] : []),
    ...(input.noIndex ? [h('meta', { name: 'robots', content: 'noindex' })] : []),
    h('meta', { property: 'og:title', content: page.title }),
    h('meta', { property: 'og:site_name', content: site.title }),
    h('meta', { property: 'og:url', content: input.url }),
    h('meta', { property: 'og:type', content: 'article' }),
    ...(page.description ? [h('meta', { property: 'og:description', content: page.description })] : []),
    h('meta', { name: 'twitter:card', content: 'summary' }),
  ];
  meta.push(...siteHead(site), ...scriptsInHead(input.scripts));
  if (input.mermaidUrl && page.content.some(holdsDiagram)) meta.push(h('meta', { name: 'quire-mermaid', content: input.mermaidUrl }));
  return documentShell(`${page.title} | ${site.title}`, [
    h('a', { className: ['skip-link'], href: '#content' }, [text('Skip to content')]),
    ...siteHeader(site, input.tabs, input.variants),
    h('div', { className: ['layout'] }, [
      h('nav', { className: ['pages'], ariaLabel: 'Pages' }, [navigationList(input.navigation)]),
      h('main', { id: 'content' }, [
        h('article', {}, [
          h('h1', {}, [...pageMark(page), text(page.title)]),
          ...(page.description ? [h('p', { className: ['description'] }, [text(page.description)])] : []),
          ...page.content,
        ]),
        ...(pagination.length ? [h('nav', { className: ['pagination'], ariaLabel: 'Previous and next pages' }, pagination)] : []),
      ]),
      h('aside', { className: ['outline'], ariaLabel: 'On this page' }, input.outline.length
        ? [h('p', {}, [text('On this page')]), h('ul', {}, input.outline.map((heading) => h('li', { className: [`level-${heading.level}`] }, [h('a', { href: `#${heading.id}` }, [text(heading.title)])])))]
        : []),
    ]),
    siteFooter(site),
    ...scriptsAtEnd(input.scripts),
  ], meta);
}

/** The pages' own script, deferred, and the integrations' scripts, each loaded as soon as it comes. */
function scriptsInHead(scripts: PageScripts): Element[] {
  return [h('script', { src: scripts.reader, defer: true }), ...scripts.integrations.map((src) => h('script', { src, async: true }))];
}

function scriptsAtEnd(scripts: PageScripts): Element[] {
  return scripts.cookieNotice ? [cookieNotice()] : [];
}

/**
 * Asks the reader whether the site's integrations may set cookies, and keeps the answer
 * where their scripts read it (GitBook's `__gitbook_cookie_granted`); shown by the
 * pages' script until answered.
 */
function cookieNotice(): Element {
  return h('aside', { className: ['cookie-notice'], ariaLabel: 'Cookies', hidden: true }, [
    h('p', {}, [text('This site uses cookies to deliver its service and to analyse traffic.')]),
    h('button', { type: 'button', dataCookies: 'yes' }, [text('Accept')]),
    h('button', { type: 'button', dataCookies: 'no' }, [text('Reject')]),
  ]);
}

/** The 404 page: in the site's frame, loading the site's scripts, when the site is known and readable; else plain. */
export function notFoundPage(site?: { frame: SiteFrame; scripts: PageScripts }): string {
  const frame = site?.frame;
  return documentShell(frame ? `Page not found | ${frame.title}` : 'Page not found', [
    h('a', { className: ['skip-link'], href: '#content' }, [text('Skip to content')]),
    ...(frame ? siteHeader(frame) : []),
    h('main', { id: 'content', className: ['layout'] }, [
      h('div', {}, [
        h('h1', {}, [text('Page not found')]),
        h('p', {}, [text('This page does not exist, or it is not published for you.')]),
        ...(frame ? [h('p', {}, [h('a', { href: frame.home }, [text(`Back to ${frame.title}`)])])] : []),
      ]),
    ]),
    ...(site ? [siteFooter(site.frame), ...scriptsAtEnd(site.scripts)] : []),
  ], site ? [h('meta', { name: 'robots', content: 'noindex' }), ...siteHead(site.frame), ...scriptsInHead(site.scripts)] : []);
}

/** The instance's front page: its public sites. */
export function siteIndexPage(sites: Link[]): string {
  return documentShell('Documentation', [
    h('a', { className: ['skip-link'], href: '#content' }, [text('Skip to content')]),
    h('main', { id: 'content', className: ['layout'] }, [
      h('div', {}, [
        h('h1', {}, [text('Documentation')]),
        sites.length
          ? h('ul', {}, sites.map((site) => h('li', {}, [h('a', { href: site.href }, [text(site.title)])])))
          : h('p', {}, [text('No site is published publicly here yet. Publish one through the API: POST /v1/orgs/{organizationId}/sites/{siteId}/publish.')]),
      ]),
    ]),
  ]);
}
