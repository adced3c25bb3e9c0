// The API token GitBook's renderer reads a published site with: a JWT (HS256) of
// GitBook's site-token shape (`kind: "site"`, organization, spaces, site, siteSpace,
// space, claims), which the renderer decodes itself to see when to ask for another.
//
// A token is minted for the UTC day and lasts until five minutes past the next
// midnight, as GitBook mints them: the same reader of the same site gets the same
// token all day, so the renderer's caches, keyed by it, keep hitting.
import { SignJWT, jwtVerify } from 'jose';
import { createHmac } from 'node:crypto';

export interface SiteTokenScope {
  organization: string;
  site: string;
  siteSection?: string;
  siteSpace: string;
  space: string;
  /** Every space the site shows this reader: the token reads their published content and nothing else. */
  spaces: string[];
  /** The share key the site was opened with (share-link sites). */
  shareKey?: string;
  /** The visitor's claims; empty but for a verified visitor token. */
  claims: Record<string, unknown>;
  /** A visitor token was verified when the token was minted: a visitor-auth site opens to it. */
  authenticated?: boolean;
  /** Which of the site's keys verified it (policies/publishedSite.ts visitorKeyId): once the key is regenerated, the site no longer opens. */
  visitorKeyId?: string;
}

const DAY_SECONDS = 24 * 60 * 60;
const OVERLAP_SECONDS = 5 * 60;

const keys = new Map<string, Uint8Array>();

/** Site tokens have their own key, derived from the installation's link key, so that no other signed thing can pass for one. */
function keyOf(linkKey: string): Uint8Array {
  let key = keys.get(linkKey);
  if (!key) {
    key = createHmac('sha256', linkKey).update('quire site token').digest();
    keys.set(linkKey, key);
  }
  return key;
}

/**
 * Tokens verified already, by their text and link key, with their expiry in seconds:
 * the renderer sends the same token all day, and verifying it cost ~30 µs of each of
 * its reads. A token's text holds its signature, so the same text is the same token;
 * only its expiry is checked again. Readers of visitor-auth sites each have their own
 * token, hence the bound.
 */
const verified = new Map<string, { scope: SiteTokenScope; expiresAt: number }>();
const VERIFIED_KEPT = 1_000;

/** Whether a bearer token is a JWT rather than one of Quire's own API tokens (which never hold a dot); asked on every request. */
export function looksLikeJwt(token: string): boolean {
  return token.includes('.');
}

export async function mintSiteToken(scope: SiteTokenScope, linkKey: string, now: Date): Promise<string> {
  const issuedAt = Math.floor(now.getTime() / 1000 / DAY_SECONDS) * DAY_SECONDS;
  const { shareKey, ...claims } = scope;
  return new SignJWT({ kind: 'site', ...claims, ...(shareKey ? { shareKey } : {}) })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + DAY_SECONDS + OVERLAP_SECONDS)
    .sign(keyOf(linkKey));
}

/** The scope of a valid, unexpired site token, or undefined. */
export async function verifySiteToken(token: string, linkKey: string, now: Date): Promise<SiteTokenScope | undefined> {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const cacheKey = `${linkKey}\n${token}`;
  const known = verified.get(cacheKey);
  // As jose decides: expired once `exp` is not after now.
  if (known && known.expiresAt > nowSeconds) return known.scope;
  if (known) {
    verified.delete(cacheKey);
    return undefined;
  }
  const scope = await verifiedScope(token, linkKey, now);
  if (scope) {
    if (verified.size >= VERIFIED_KEPT) verified.delete(verified.keys().next().value!);
    verified.set(cacheKey, scope);
  }
  return scope?.scope;
}

async function verifiedScope(token: string, linkKey: string, now: Date): Promise<{ scope: SiteTokenScope; expiresAt: number } | undefined> {
  try {
    const { payload } = await jwtVerify(token, keyOf(linkKey), { algorithms: ['HS256'], currentDate: now });
    if (payload.kind !== 'site' || typeof payload.exp !== 'number') return undefined;
    const { organization, site, siteSection, siteSpace, space, spaces, shareKey, claims, authenticated, visitorKeyId } = payload as Record<string, unknown>;
    if (typeof organization !== 'string' || typeof site !== 'string' || typeof siteSpace !== 'string' || typeof space !== 'string') return undefined;
    if (!Array.isArray(spaces) || !spaces.every((id) => typeof id === 'string')) return undefined;
    const scope: SiteTokenScope = {
      organization,
      site,
      ...(typeof siteSection === 'string' ? { siteSection } : {}),
      siteSpace,
      space,
      spaces,
      ...(typeof shareKey === 'string' ? { shareKey } : {}),
      claims: typeof claims === 'object' && claims !== null && !Array.isArray(claims) ? (claims as Record<string, unknown>) : {},
      ...(authenticated === true ? { authenticated } : {}),
      ...(typeof visitorKeyId === 'string' ? { visitorKeyId } : {}),
    };
    return { scope, expiresAt: payload.exp };
  } catch {
    return undefined;
  }
}
