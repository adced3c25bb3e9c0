// GET /v1/spaces/{spaceId}/embed?url=: what a URL embedded in a page shows, as GitBook's
// renderer asks for its embed blocks. The page is fetched through the URL-safety rules
// (lib/safeFetch.ts) and read for its title, site name and icon. Quire answers link
// embeds only: it never hands a third party's HTML to be rendered in a reader's page.
// A URL that cannot be fetched or read is still a link, named by its address.
import { fromHtml } from 'hast-util-from-html';
import type { Element, Root } from 'hast';
import { BadRequest } from '../errors.ts';
import { createFetcher, FetchRefused } from '../lib/safeFetch.ts';
import type { Actor, ServiceContext } from './context.ts';
import { authorizeSpace } from './contentAccess.ts';

const EMBED_TIMEOUT_MS = 5_000;
/** A page's head is near its start: more is never read for a title. */
const EMBED_MAX_BYTES = 1024 * 1024;

export interface Embed {
  type: 'link';
  title: string;
  site: string;
  icon?: string;
}

function elements(node: Root | Element, found: Element[] = []): Element[] {
  for (const child of node.children) {
    if (child.type !== 'element') continue;
    found.push(child);
    elements(child, found);
  }
  return found;
}

function textOf(node: Element): string {
  return node.children.map((child) => (child.type === 'text' ? child.value : child.type === 'element' ? textOf(child) : '')).join('');
}

/** The title, site name and icon a page gives itself (Open Graph first, then its <title> and <link rel="icon">). */
export function readEmbed(html: string, pageUrl: string): Embed {
  const url = new URL(pageUrl);
  const all = elements(fromHtml(html));
  const meta = (name: string) => {
    const found = all.find((element) => element.tagName === 'meta' && (element.properties.property === name || element.properties.name === name));
    const content = found?.properties.content;
    return typeof content === 'string' && content.trim() ? content.trim() : undefined;
  };
  const title = meta('og:title') ?? all.filter((element) => element.tagName === 'title').map(textOf).find((text) => text.trim())?.trim();
  const iconLink = all.find((element) => element.tagName === 'link' && Array.isArray(element.properties.rel) && element.properties.rel.some((rel) => String(rel).toLowerCase() === 'icon'));
  let icon: string | undefined;
  if (typeof iconLink?.properties.href === 'string') {
    try {
      const resolved = new URL(iconLink.properties.href, url);
      if (resolved.protocol === 'https:' || resolved.protocol === 'http:') icon = resolved.href;
    } catch {
      // An icon address that is not a URL is no icon.
    }
  }
  return { type: 'link', title: (title ?? url.href).slice(0, 500), site: (meta('og:site_name') ?? url.hostname).slice(0, 200), ...(icon ? { icon } : {}) };
}

export async function getEmbed(ctx: ServiceContext, actor: Actor, spaceId: string, target: string): Promise<Embed> {
  await authorizeSpace(ctx.db, actor, spaceId, 'view');
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new BadRequest(`url: "${target}" is not an absolute URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new BadRequest('url: only http and https URLs are embedded');
  const asLink: Embed = { type: 'link', title: url.href, site: url.hostname };
  try {
    const response = await createFetcher(ctx.config.allowPrivateUrls)(url.href, {
      timeoutMs: EMBED_TIMEOUT_MS,
      maxBytes: EMBED_MAX_BYTES,
      headers: { accept: 'text/html, application/xhtml+xml;q=0.9, */*;q=0.1' },
    });
    const type = String(response.headers['content-type'] ?? '');
    if (response.status >= 400 || !/^(text\/html|application\/xhtml\+xml)/i.test(type)) return asLink;
    return readEmbed(response.body.toString('utf8'), response.url);
  } catch (error) {
    if (error instanceof FetchRefused) return asLink;
    throw error;
  }
}
