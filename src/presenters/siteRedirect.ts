// Site redirect objects.
import type { SiteRedirectRow } from '../db/schema.ts';

export function presentSiteRedirect(row: SiteRedirectRow) {
  return {
    object: 'site-redirect' as const,
    id: row.id,
    source: row.source,
    destination: JSON.parse(row.destination) as SiteRedirectDestination,
  };
}

export type SiteRedirectDestination =
  | { kind: 'site-section'; siteSectionId: string }
  | { kind: 'site-space'; siteSpaceId: string }
  | { kind: 'site-page'; siteSpaceId: string; pageId: string };
