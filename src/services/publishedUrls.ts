// POST /v1/urls/published: which published content a URL shows, as GitBook's renderer
// asks before it renders anything. A site is read at its custom hostname, or at
// Quire's own host under /sites/<siteId> (the renderer drops the port: it refuses
// hosts that carry one). After the site's root come its basename, a share link's key,
// a section's path, a site space's path, then the page's path.
//
// The answer names the site, section, site space and space, the space's current
// revision (the renderer's caches key on it, so a merge is never served stale), the
// paths the renderer builds its links from, and a site token (lib/siteTokens.ts) that
// reads that site's published content and nothing else.
import { BadRequest, NotFound, Unauthorized } from '../errors.ts';
import { findSiteByHostname } from '../db/repos/sites.ts';
import { readPublishedSite } from '../db/repos/siteStructure.ts';
import type { PublishedSiteRows } from '../db/schema.ts';
import { mintSiteToken } from '../lib/siteTokens.ts';
import type { ServiceContext } from './context.ts';
import { publishedSiteClaims, visitorSignIn } from './publishedAccess.ts';
import { visitorKeyId } from '../policies/publishedSite.ts';
import { defaultSectionOf, siteSpaceAtPath } from '../lib/siteStructure.ts';

export interface PublishedUrlRequest {
  url: string;
  /** Answer a visitor without a valid visitor token the site's fallbackURL, rather than 401. */
  redirectOnError?: boolean;
  visitor?: { jwtToken?: string };
}

export type PublishedUrlAnswer =
  | { target: 'content'; redirect: string }
  | { target: 'external'; site: string; redirect: string }
  | {
      site: string;
      siteSection?: string;
      siteSpace: string;
      space: string;
      organization: string;
      revision: string;
      shareKey?: string;
      pathname: string;
      basePath: string;
      siteBasePath: string;
      canonicalUrl: string;
      complete: boolean;
      apiToken: string;
    };

function noSiteAt(url: URL): NotFound {
  return new NotFound(`No published site at ${url.origin}${url.pathname}`);
}

/** '/a/b/' from ['a', 'b']; '/' from none. */
function asBasePath(segments: string[]): string {
  return segments.length === 0 ? '/' : `/${segments.map(encodeURIComponent).join('/')}/`;
}

/** The site a URL's host and first segments name, and the segments that make its root. */
async function siteAt(ctx: ServiceContext, url: URL, segments: string[]): Promise<{ published: PublishedSiteRows; root: string[] } | undefined> {
  const byHostname = await findSiteByHostname(ctx.db, url.hostname.toLowerCase());
  if (byHostname) {
    const published = await readPublishedSite(ctx.db, byHostname.id);
    return published && { published, root: [] };
  }
  if (url.hostname.toLowerCase() !== new URL(ctx.config.publicUrl).hostname.toLowerCase() || segments[0] !== 'sites' || !segments[1]) return undefined;
  const published = await readPublishedSite(ctx.db, segments[1]);
  return published && { published, root: segments.slice(0, 2) };
}

export async function resolvePublishedUrl(ctx: ServiceContext, request: PublishedUrlRequest): Promise<PublishedUrlAnswer> {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    throw new BadRequest(`url: "${request.url}" is not an absolute URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new BadRequest('url: only http and https URLs show published sites');
  let segments: string[];
  try {
    segments = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    throw noSiteAt(url);
  }
  const found = await siteAt(ctx, url, segments);
  if (!found) throw noSiteAt(url);
  const { published, root } = found;
  const { site, structure } = published;
  let rest = segments.slice(root.length);
  const siteBase = [...root];
  if (site.basename) {
    if (rest[0] === site.basename) siteBase.push(rest.shift()!);
    // At its own hostname a site lives under its basename: GitBook sends readers there.
    else if (root.length === 0) return { target: 'content', redirect: `${url.origin}/${[site.basename, ...rest].map(encodeURIComponent).join('/')}` };
  }
  // A share link's key comes first after the site's root, as in GitBook's share links:
  // the site opens to the reader only when it is an active key of the site.
  const candidateKey = site.visibility === 'share-link' ? rest[0] : undefined;
  const visitorToken = request.visitor?.jwtToken;
  const claims = await publishedSiteClaims(ctx.db, site, { shareKey: candidateKey, visitorAuthToken: visitorToken });
  const shareKey = claims && candidateKey;
  if (shareKey !== undefined) siteBase.push(rest.shift()!);
  if (!claims) {
    // GitBook's renderer asks with redirectOnError to send such a visitor to the site's sign-in.
    const fallback = request.redirectOnError ? await visitorSignIn(ctx, site, rest.join('/')) : undefined;
    if (fallback) return { target: 'external', site: site.id, redirect: fallback };
    if (site.published === 1 && site.visibility === 'visitor-auth') {
      throw new Unauthorized(visitorToken ? 'The visitor token is not signed with this site\'s key, or has expired' : 'This site is for authenticated visitors: give their token as visitor.jwtToken');
    }
    throw noSiteAt(url);
  }
  const { siteSpace, section, rest: pagePath, prefix, shown } = siteSpaceAtPath(site, structure, rest, claims);
  const space = siteSpace && published.spaces.get(siteSpace.space_id);
  if (!siteSpace || !space || space.deleted_at) throw noSiteAt(url);
  rest = pagePath;

  const sections = shown.sections;
  const variants = shown.siteSpaces.filter((candidate) => candidate.section_id === (section?.id ?? null));
  // Complete when no further segment could name a section or a site space: the renderer may then reuse it for deeper URLs.
  const sectionNamed = sections.length < 2 || prefix[0] === section?.path || section?.id !== defaultSectionOf(site, sections)?.id;
  const variantNamed = variants.length < 2 || prefix[prefix.length - 1] === siteSpace.path;
  const siteBasePath = asBasePath(siteBase);
  const basePath = asBasePath([...siteBase, ...prefix]);
  const pathname = rest.map(encodeURIComponent).join('/');
  const scope = {
    organization: site.organization_id,
    site: site.id,
    ...(section ? { siteSection: section.id } : {}),
    siteSpace: siteSpace.id,
    space: space.id,
    spaces: [...new Set(shown.siteSpaces.map((candidate) => candidate.space_id))],
    ...(shareKey ? { shareKey } : {}),
    ...(site.visibility === 'visitor-auth' ? { claims, authenticated: true, visitorKeyId: visitorKeyId(site.visitor_key) } : { claims: {} }),
  };
  return {
    site: site.id,
    ...(section ? { siteSection: section.id } : {}),
    siteSpace: siteSpace.id,
    space: space.id,
    organization: site.organization_id,
    revision: space.revision_id,
    ...(shareKey ? { shareKey } : {}),
    pathname,
    basePath,
    siteBasePath,
    canonicalUrl: `${url.origin}${basePath}${pathname}`,
    complete: sectionNamed && variantNamed,
    apiToken: await mintSiteToken(scope, ctx.linkKey, ctx.clock.now()),
  };
}
