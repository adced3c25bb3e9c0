import { useQuery } from '@tanstack/react-query';
import { getChangeRequest, listChangeRequests, type ChangeRequestStatus } from '../api/changeRequests.ts';

export const useChangeRequests = (spaceId: string, status: ChangeRequestStatus) =>
  useQuery({ queryKey: ['spaces', spaceId, 'change-requests', status], queryFn: () => listChangeRequests(spaceId, status) });

/** One change request, by its number: the screen's query, which its route's loader starts (prefetch.ts). */
export const changeRequestQuery = (spaceId: string, number: string) => ({ queryKey: ['spaces', spaceId, 'change-requests', 'one', number], queryFn: () => getChangeRequest(spaceId, number) });

export const useChangeRequest = (spaceId: string, number: string) => useQuery(changeRequestQuery(spaceId, number));
