// Who may read a published site from outside its organization, and with which claims.
// Public and unlisted sites are open; share-link sites open to the key of an active
// share link; visitor-auth sites to a token signed (HS256) with the site's key, whose
// claims then decide what adaptive content the reader sees. A site token (minted by
// POST /v1/urls/published) carries what was checked when it was minted: its share key
// is checked again, and a visitor-auth site opens to it only if a visitor token was
// verified then, with the site's key of now (a regenerated key closes it). Members of the organization are not asked here: they read every site of it.
import { jwtVerify } from 'jose';
import { createHash } from 'node:crypto';

/** What the rule reads of a site. */
export interface PublishedSiteFacts {
  published: boolean;
  visibility: string;
  visitorKey: string;
}

export interface ReadCredentials {
  shareKey?: string;
  visitorAuthToken?: string;
  /** Claims of a visitor token verified earlier (a site token's), standing for the token itself. */
  verifiedClaims?: Record<string, unknown>;
  /** visitorKeyId of the key that token was verified with. */
  verifiedKeyId?: string;
}

/** The one fact the rule needs from the store: whether the given share key is an active share link of the site. */
export interface ReaderEvidence {
  shareKeyActive: boolean;
}

/** Names a site's visitor key in a site token without giving it away. */
export function visitorKeyId(visitorKey: string): string {
  return createHash('sha256').update(visitorKey).digest('base64url').slice(0, 16);
}

/** The reader's claims (empty but for visitor tokens), or undefined when they may not read the site. */
export async function publishedSiteClaims(
  site: PublishedSiteFacts,
  credentials: ReadCredentials,
  evidence: ReaderEvidence,
): Promise<Record<string, unknown> | undefined> {
  if (!site.published) return undefined;
  switch (site.visibility) {
    case 'public':
    case 'unlisted':
      return {};
    case 'share-link':
      return credentials.shareKey && evidence.shareKeyActive ? {} : undefined;
    case 'visitor-auth':
      if (credentials.verifiedClaims) return credentials.verifiedKeyId === visitorKeyId(site.visitorKey) ? credentials.verifiedClaims : undefined;
      if (!credentials.visitorAuthToken) return undefined;
      try {
        const { payload } = await jwtVerify(credentials.visitorAuthToken, new TextEncoder().encode(site.visitorKey), { algorithms: ['HS256'] });
        return payload as Record<string, unknown>;
      } catch {
        return undefined;
      }
    default:
      return undefined;
  }
}
