// A space's change requests (GitBook's shapes). Numbers name them in the app's addresses; the API takes a number where it takes an id.
import { api, segment } from '../../../api/client.ts';
import type { List, User } from '../../../api/types.ts';

export type ChangeRequestStatus = 'draft' | 'open' | 'merged' | 'archived';

export interface ChangeRequest {
  object: 'change-request';
  id: string;
  number: number;
  status: ChangeRequestStatus;
  subject: string;
  createdBy: User;
  createdAt: string;
  updatedAt: string;
  revision: string;
  revisionInitial: string;
  revisionMerged?: string;
  outdated: boolean;
  comments: number;
}

export const listChangeRequests = async (spaceId: string, status: ChangeRequestStatus) => {
  const items: ChangeRequest[] = [];
  let page: string | undefined;
  do {
    const list = await api.get<List<ChangeRequest>>(`/v1/spaces/${segment(spaceId)}/change-requests?status=${status}&limit=100${page ? `&page=${segment(page)}` : ''}`);
    items.push(...list.items);
    page = list.next?.page;
  } while (page);
  return items;
};

export const getChangeRequest = (spaceId: string, number: string) => api.get<ChangeRequest>(`/v1/spaces/${segment(spaceId)}/change-requests/${segment(number)}`);

/** A signed link to the change request's content as a PDF, made when opened. */
export const getChangeRequestPdf = (spaceId: string, changeRequestId: string) =>
  api.get<{ url: string }>(`/v1/spaces/${segment(spaceId)}/change-requests/${segment(changeRequestId)}/pdf`);

/**
 * Where the person writes in a space: their own change request still being written
 * (a draft, else an open one, newest first), or a new one. GitBook's rule: the writer
 * of a change request is the one who created it.
 */
export async function openOwnChangeRequest(spaceId: string, userId: string): Promise<ChangeRequest> {
  for (const status of ['draft', 'open'] as const) {
    const list = await api.get<List<ChangeRequest>>(`/v1/spaces/${segment(spaceId)}/change-requests?status=${status}&contributor=${segment(userId)}&limit=100`);
    const own = list.items.find((changeRequest) => changeRequest.createdBy.id === userId);
    if (own) return own;
  }
  return api.post<ChangeRequest>(`/v1/spaces/${segment(spaceId)}/change-requests`, {});
}
