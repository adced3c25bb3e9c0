// Site redirect objects.
import type { SiteRedirectRow } from '../db/schema.ts';

export function presentSiteRedirect(row: SiteRedirectRow) {
  return {
    object: 'site-redirect' as const,
    id: row.id,
    source: row.source,
    // Quire's redirects are live as made, match their source exactly, and answer 307 (they can be edited).
    draft: false,
    captureWildcard: false,
    permanent: false,
    destination: JSON.parse(row.destination) as SiteRedirectDestination,
    createdAt: row.created_at,
  };
}

export type SiteRedirectDestination =
  | { kind: 'site-section'; siteSectionId: string }
  | { kind: 'site-space'; siteSpaceId: string }
  | { kind: 'site-page'; siteSpaceId: string; pageId: string };
