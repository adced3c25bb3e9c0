// Published access, as the store knows it: the rule of policies/publishedSite.ts given
// its evidence (whether a share key is an active link of the site), and what a site
// token opens. Members are not asked here; services/contentAccess.ts and
// services/siteAccess.ts ask this only of outsiders.
import { hasActiveShareLink } from '../db/repos/sites.ts';
import { readPublishedSite } from '../db/repos/siteStructure.ts';
import type { Db, PublishedSiteRows, SiteRow } from '../db/schema.ts';
import type { SiteTokenScope } from '../lib/siteTokens.ts';
import type { Actor, ServiceContext } from './context.ts';
import { visitorAuthInstallation } from './integrationEvents.ts';
import { publishedSiteClaims as claimsByRule, type ReadCredentials } from '../policies/publishedSite.ts';
import { shownStructure } from '../lib/siteStructure.ts';

export type { ReadCredentials };

/**
 * An outsider's claims on a published site, by the one rule, or undefined when they may
 * not read it. Used by the API, the reader and the URL resolution alike.
 */
export async function publishedSiteClaims(db: Db, site: SiteRow, credentials: ReadCredentials): Promise<Record<string, unknown> | undefined> {
  const shareKeyActive = site.visibility === 'share-link' && credentials.shareKey !== undefined && (await hasActiveShareLink(db, site.id, credentials.shareKey));
  return claimsByRule({ published: site.published === 1, visibility: site.visibility, visitorKey: site.visitor_key }, credentials, { shareKeyActive });
}

/**
 * Where a reader of a published visitor-auth site without a valid token signs in, with
 * the page asked for as `location` so that the sign-in can come back to it: the site's
 * fallbackURL (the `custom` backend), or where its visitor-auth integration starts (the
 * `integration` backend); undefined when it has neither, and the site answers 404.
 */
export async function visitorSignIn(ctx: ServiceContext, site: SiteRow, path: string): Promise<string | undefined> {
  if (site.published !== 1 || site.visibility !== 'visitor-auth') return undefined;
  const location = `/${path.split('/').filter(Boolean).join('/')}`;
  let url: URL;
  if (site.visitor_backend === 'integration') {
    const signing = await visitorAuthInstallation(ctx.db, site);
    if (!signing) return undefined;
    url = new URL(`${ctx.config.publicUrl}/v1/integrations/${signing.integrationName}/installations/${signing.installationId}/sites/${site.id}/visitor-auth`);
  } else {
    if (!site.visitor_fallback_url) return undefined;
    url = new URL(site.visitor_fallback_url);
  }
  url.searchParams.set('location', location);
  return url.toString();
}

/**
 * The claims a reader of published content reads the API with: a site token's (a
 * verified visitor's, else none); none for anyone else the content is published to.
 */
export function publishedReaderClaims(actor: Pick<Actor, 'site'>): Record<string, unknown> {
  return actor.site?.claims ?? {};
}

/** What a site token stands for: its share key, and the visitor's claims if a visitor token was verified when it was minted. */
export function siteTokenCredentials(scope: SiteTokenScope): ReadCredentials {
  return { ...(scope.shareKey ? { shareKey: scope.shareKey } : {}), ...(scope.authenticated ? { verifiedClaims: scope.claims, verifiedKeyId: scope.visitorKeyId } : {}) };
}

/**
 * The token's site and the reader's claims on it while the site still opens to the
 * reader it was minted for; else undefined. `read`: the site as published, when the
 * request has read it already (plugins/auth.ts).
 */
export async function siteTokenOpens(db: Db, scope: SiteTokenScope, read?: { published: PublishedSiteRows | undefined }) {
  const published = read ? read.published : await readPublishedSite(db, scope.site);
  if (!published || published.site.organization_id !== scope.organization) return undefined;
  const claims = await publishedSiteClaims(db, published.site, siteTokenCredentials(scope));
  return claims && { published, claims };
}

/**
 * Whether a site token reads this space's published content: its site is still
 * published to the token's reader, and still shows the space to them.
 */
export async function siteTokenOpensSpace(db: Db, scope: SiteTokenScope, spaceId: string, read?: { published: PublishedSiteRows | undefined }): Promise<boolean> {
  const opened = await siteTokenOpens(db, scope, read);
  if (!opened) return false;
  return shownStructure(opened.published.structure, opened.claims).siteSpaces.some((siteSpace) => siteSpace.space_id === spaceId);
}
