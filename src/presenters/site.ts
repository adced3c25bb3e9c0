// Site objects and the parts of a site's structure.
import type { SpaceStanding } from '../policies/content.ts';
import { sitePermissions, type OrganizationAccess } from '../policies/organization.ts';
import { presentSpace } from './content.ts';
import type { SpaceWithCounters, SectionGroupRow, SectionRow, ShareLinkRow, SiteRow, SiteSpaceRow } from '../db/schema.ts';

/** Where a site is read: its own hostname when it has one, otherwise under Quire's address. */
export function publishedSiteUrl(publicUrl: string, site: SiteRow): string {
  const base = site.hostname ? `https://${site.hostname}` : `${publicUrl}/sites/${site.id}`;
  return site.basename ? `${base}/${site.basename}` : base;
}

export function presentSite(publicUrl: string, site: SiteRow, siteSpaceCount: number, access: OrganizationAccess | undefined) {
  return {
    object: 'site' as const,
    id: site.id,
    type: site.type,
    // Every feature is on in a self-hosted Quire: the plan applied is the one chosen.
    appliedType: site.type,
    title: site.title,
    ...(site.hostname ? { hostname: site.hostname } : {}),
    ...(site.basename ? { basename: site.basename } : {}),
    ...(site.proxy_origin ? { proxy: { origin: site.proxy_origin, target: publishedSiteUrl(publicUrl, { ...site, hostname: null }) } } : {}),
    visibility: site.visibility,
    // Who in the organization reads a site is not set per site in Quire: as its organization says.
    defaultLevel: 'inherit' as const,
    permissions: sitePermissions(access),
    published: site.published === 1,
    siteSpaces: siteSpaceCount,
    createdAt: site.created_at,
    adaptiveContent: { enabled: site.adaptive_enabled === 1 },
    // Every feature of a self-hosted Quire is available; none is sold separately.
    features: [],
    urls: {
      location: `${publicUrl}/v1/orgs/${site.organization_id}/sites/${site.id}`,
      app: `${publicUrl}/o/${site.organization_id}/sites/${site.id}/`,
      // Members read every site of their organization, published or not, at its own URL.
      preview: `${publicUrl}/sites/${site.id}${site.basename ? `/${site.basename}` : ''}`,
      ...(site.published === 1 ? { published: publishedSiteUrl(publicUrl, site) } : {}),
    },
  };
}

export interface SiteSpaceView {
  row: SiteSpaceRow;
  space: SpaceWithCounters;
  standing: SpaceStanding;
  isDefault: boolean;
  /** Path of the section it is in, for its published URL. */
  sectionPath?: string;
}

export function presentSiteSpace(publicUrl: string, site: SiteRow, view: SiteSpaceView) {
  const base = publishedSiteUrl(publicUrl, site);
  // A section's default site space is read at the section's URL, the site's at its root.
  const path = [view.sectionPath, view.isDefault ? undefined : view.row.path].filter(Boolean).join('/');
  return {
    object: 'site-space' as const,
    id: view.row.id,
    path: view.row.path,
    ...(view.row.section_id ? { section: view.row.section_id } : {}),
    space: presentSpace(publicUrl, view.space, view.standing),
    title: view.space.title,
    default: view.isDefault,
    ...(view.row.condition !== null ? { condition: view.row.condition } : {}),
    // Quire publishes what is merged; nothing on a site is a draft.
    draft: false,
    urls: site.published === 1 ? { published: path ? `${base}/${path}` : base } : {},
  };
}

export function presentSection(
  publicUrl: string,
  site: SiteRow,
  section: SectionRow,
  siteSpaces: ReturnType<typeof presentSiteSpace>[],
) {
  return {
    object: 'site-section' as const,
    id: section.id,
    title: section.title,
    ...(section.description !== null ? { description: section.description } : {}),
    default: site.default_section_id === section.id,
    path: section.path,
    ...(section.condition !== null ? { condition: section.condition } : {}),
    ...(section.group_id ? { sectionGroup: section.group_id } : {}),
    draft: false,
    siteSpaces,
    urls: site.published === 1 ? { published: site.default_section_id === section.id ? publishedSiteUrl(publicUrl, site) : `${publishedSiteUrl(publicUrl, site)}/${section.path}` } : {},
    ...(section.icon !== null ? { icon: section.icon } : {}),
  };
}

export function presentSectionGroup(group: SectionGroupRow, sections: ReturnType<typeof presentSection>[]) {
  return {
    object: 'site-section-group' as const,
    id: group.id,
    title: group.title,
    draft: false,
    sections,
    children: sections,
    ...(group.icon !== null ? { icon: group.icon } : {}),
  };
}

export function presentShareLink(publicUrl: string, site: SiteRow, link: ShareLinkRow) {
  return {
    object: 'share-link' as const,
    id: link.id,
    name: link.name,
    key: link.share_key,
    active: link.active === 1,
    createdAt: link.created_at,
    urls: { published: `${publishedSiteUrl(publicUrl, site)}?shareKey=${link.share_key}` },
  };
}

/** GitBook's SitePublishingAuth: Quire's visitor tokens are the site's own (backend "custom"), signed HS256 with privateKey. */
/** `integration`: the name of the visitor-auth integration installed on the site, if any (GitBook's field), whichever backend is chosen. */
export function presentPublishingAuth(site: SiteRow, integration?: string) {
  return {
    object: 'publishing-auth' as const,
    backend: site.visitor_backend,
    ...(integration ? { integration } : {}),
    privateKey: site.visitor_key,
    ...(site.visitor_fallback_url ? { fallbackURL: site.visitor_fallback_url } : {}),
    ...(site.visitor_logout_url ? { logoutURL: site.visitor_logout_url } : {}),
  };
}
