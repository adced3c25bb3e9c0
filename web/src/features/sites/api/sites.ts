// An organization's sites: their spaces, sections, visibility, share links,
// customization and publishing.
import { api, segment } from '../../../api/client.ts';
import type { List } from '../../../api/types.ts';

export type SiteVisibility = 'public' | 'unlisted' | 'share-link' | 'visitor-auth';

export interface Site {
  object: 'site';
  id: string;
  title: string;
  visibility: SiteVisibility;
  published: boolean;
  siteSpaces: number;
  createdAt: string;
  permissions: { view: boolean; edit: boolean; admin: boolean };
  urls: { app: string; preview: string; published?: string };
}

export interface SpaceSummary {
  object: 'space';
  id: string;
  title: string;
  emoji?: string;
}

export interface SiteSpace {
  object: 'site-space';
  id: string;
  path: string;
  section?: string;
  space: SpaceSummary;
  title: string;
  default: boolean;
  urls: { published?: string };
}

export interface Section {
  object: 'site-section';
  id: string;
  title: string;
  path: string;
  default: boolean;
  sectionGroup?: string;
  siteSpaces: SiteSpace[];
}

export interface SectionGroup {
  object: 'site-section-group';
  id: string;
  title: string;
  sections: Section[];
}

export interface ShareLink {
  object: 'share-link';
  id: string;
  name: string;
  active: boolean;
  createdAt: string;
  urls: { published: string };
}

export interface Customization {
  title?: string;
  styling: { theme: string; primaryColor: { light: string; dark: string }; corners: string; [field: string]: unknown };
  themes: { default: 'light' | 'dark'; toggeable: boolean };
  announcement?: { enabled: boolean; message?: string; style?: string };
  [field: string]: unknown;
}

const sites = (organizationId: string) => `/v1/orgs/${segment(organizationId)}/sites`;
const site = (organizationId: string, siteId: string) => `${sites(organizationId)}/${segment(siteId)}`;

export const listSites = (organizationId: string) => api.get<List<Site>>(`${sites(organizationId)}?limit=1000`);
export const createSite = (organizationId: string, title: string) => api.post<Site>(sites(organizationId), { title });
export const getSite = (organizationId: string, siteId: string) => api.get<Site>(site(organizationId, siteId));
export const updateSite = (organizationId: string, siteId: string, body: { title?: string; visibility?: SiteVisibility }) =>
  api.patch<Site>(site(organizationId, siteId), body);
export const deleteSite = (organizationId: string, siteId: string) => api.delete(site(organizationId, siteId));
export const setPublished = (organizationId: string, siteId: string, published: boolean) =>
  api.post<Site>(`${site(organizationId, siteId)}/${published ? 'publish' : 'unpublish'}`);

export const listSpaces = (organizationId: string) => api.get<List<SpaceSummary>>(`/v1/orgs/${segment(organizationId)}/spaces?limit=1000`);

export const listSiteSpaces = (organizationId: string, siteId: string) => api.get<List<SiteSpace>>(`${site(organizationId, siteId)}/site-spaces?limit=1000`);
export const addSiteSpace = (organizationId: string, siteId: string, body: { spaceId: string; sectionId?: string }) =>
  api.post<SiteSpace>(`${site(organizationId, siteId)}/site-spaces`, body);
export const updateSiteSpace = (organizationId: string, siteId: string, siteSpaceId: string, body: { path: string }) =>
  api.patch<SiteSpace>(`${site(organizationId, siteId)}/site-spaces/${segment(siteSpaceId)}`, body);
export const removeSiteSpace = (organizationId: string, siteId: string, siteSpaceId: string) =>
  api.delete(`${site(organizationId, siteId)}/site-spaces/${segment(siteSpaceId)}`);

export const listSections = (organizationId: string, siteId: string) => api.get<List<Section>>(`${site(organizationId, siteId)}/sections?limit=1000`);
export const createSection = (organizationId: string, siteId: string, body: { spaceId: string; title: string }) =>
  api.post<Section>(`${site(organizationId, siteId)}/sections`, body);
export const deleteSection = (organizationId: string, siteId: string, sectionId: string) => api.delete(`${site(organizationId, siteId)}/sections/${segment(sectionId)}`);

export const listSectionGroups = (organizationId: string, siteId: string) =>
  api.get<List<SectionGroup>>(`${site(organizationId, siteId)}/section-groups?limit=1000`);
export const createSectionGroup = (organizationId: string, siteId: string, body: { title: string; sections: string[] }) =>
  api.post<SectionGroup>(`${site(organizationId, siteId)}/section-groups`, body);
export const deleteSectionGroup = (organizationId: string, siteId: string, groupId: string) =>
  api.delete(`${site(organizationId, siteId)}/section-groups/${segment(groupId)}`);

export const listShareLinks = (organizationId: string, siteId: string) => api.get<List<ShareLink>>(`${site(organizationId, siteId)}/share-links?limit=1000`);
export const createShareLink = (organizationId: string, siteId: string, name: string) =>
  api.post<ShareLink>(`${site(organizationId, siteId)}/share-links`, { name });
export const deleteShareLink = (organizationId: string, siteId: string, shareLinkId: string) =>
  api.delete(`${site(organizationId, siteId)}/share-links/${segment(shareLinkId)}`);

/** GitBook's SitePublishingAuth: visitor tokens are signed (HS256) with privateKey, by the organization's own service (custom) or the visitor authentication integration installed on the site. */
export interface PublishingAuth {
  backend: 'custom' | 'integration';
  /** The visitor authentication integration installed on the site, if any. */
  integration?: string;
  privateKey: string;
  fallbackURL?: string;
  logoutURL?: string;
}

export const getPublishingAuth = (organizationId: string, siteId: string) => api.get<PublishingAuth>(`${site(organizationId, siteId)}/publishing/auth`);
/** An absent URL stays as it is; null unsets it. */
export const updatePublishingAuth = (organizationId: string, siteId: string, body: { backend: PublishingAuth['backend']; fallbackURL?: string | null; logoutURL?: string | null }) =>
  api.patch<PublishingAuth>(`${site(organizationId, siteId)}/publishing/auth`, body);
export const regeneratePublishingAuth = (organizationId: string, siteId: string) =>
  api.post<PublishingAuth>(`${site(organizationId, siteId)}/publishing/auth/regenerate`);

export const getCustomization = (organizationId: string, siteId: string) => api.get<Customization>(`${site(organizationId, siteId)}/customization`);
export const putCustomization = (organizationId: string, siteId: string, body: Partial<Customization>) =>
  api.put<Customization>(`${site(organizationId, siteId)}/customization`, body);
