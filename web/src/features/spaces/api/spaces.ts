// An organization's collections and spaces (GitBook's shapes), and what may be done to them.
import { api, segment } from '../../../api/client.ts';
import type { List } from '../../../api/types.ts';

/** What the caller may do with a space, as the API says; it refuses the rest anyway. */
export interface SpacePermissions {
  view: boolean;
  admin: boolean;
  edit: boolean;
}

export interface Space {
  object: 'space';
  id: string;
  title: string;
  emoji: string;
  visibility: string;
  organization: string;
  parent?: string;
  revision: string;
  deletedAt?: string;
  /** Quire: when a deleted space is removed for good. */
  purgeAt?: string;
  changeRequestsOpen: number;
  updatedAt: string;
  urls: { app: string; location: string };
  permissions: SpacePermissions;
}

export interface Collection {
  object: 'collection';
  id: string;
  title: string;
  organization: string;
  parent?: string;
  urls: { app: string; location: string };
  permissions: { view: boolean; admin: boolean; create: boolean };
}

// Lists are paged; an organization's home shows them whole, as GitBook's app does.
async function all<T>(path: string): Promise<T[]> {
  const items: T[] = [];
  let page: string | undefined;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const list = await api.get<List<T>>(`${path}${separator}limit=100${page ? `&page=${segment(page)}` : ''}`);
    items.push(...list.items);
    page = list.next?.page;
  } while (page);
  return items;
}

export const listSpaces = (organizationId: string) => all<Space>(`/v1/orgs/${segment(organizationId)}/spaces`);
export const listCollections = (organizationId: string) => all<Collection>(`/v1/orgs/${segment(organizationId)}/collections`);
export const getCollection = (collectionId: string) => api.get<Collection>(`/v1/collections/${segment(collectionId)}`);
export const getSpace = (spaceId: string) => api.get<Space>(`/v1/spaces/${segment(spaceId)}`);

export const createSpace = (organizationId: string, body: { title: string; parent?: string }) => api.post<Space>(`/v1/orgs/${segment(organizationId)}/spaces`, body);
export const createCollection = (organizationId: string, body: { title: string; parent?: string }) =>
  api.post<Collection>(`/v1/orgs/${segment(organizationId)}/collections`, body);

export const renameSpace = (spaceId: string, title: string) => api.patch<Space>(`/v1/spaces/${segment(spaceId)}`, { title });
export const renameCollection = (collectionId: string, title: string) => api.patch<Collection>(`/v1/collections/${segment(collectionId)}`, { title });

/** `parent` null moves it to the organization's top level. */
export const moveSpace = (spaceId: string, parent: string | null) => api.post<Space>(`/v1/spaces/${segment(spaceId)}/move`, { parent });
export const moveCollection = (collectionId: string, parent: string | null) => api.post<Collection>(`/v1/collections/${segment(collectionId)}/move`, { parent });

export const deleteSpace = (spaceId: string) => api.delete(`/v1/spaces/${segment(spaceId)}`);
export const restoreSpace = (spaceId: string) => api.post<Space>(`/v1/spaces/${segment(spaceId)}/restore`);
/** Quire's trash: the deleted spaces the person may restore or purge. */
export const listTrash = (organizationId: string) => all<Space>(`/v1/orgs/${segment(organizationId)}/trash`);
export const purgeSpace = (spaceId: string) => api.post<void>(`/v1/spaces/${segment(spaceId)}/purge`);
export const deleteCollection = (collectionId: string) => api.delete(`/v1/collections/${segment(collectionId)}`);
