import { useQuery } from '@tanstack/react-query';
import { getChangeRequest, listChangeRequests, type ChangeRequestStatus } from '../api/changeRequests.ts';

export const useChangeRequests = (spaceId: string, status: ChangeRequestStatus) =>
  useQuery({ queryKey: ['spaces', spaceId, 'change-requests', status], queryFn: () => listChangeRequests(spaceId, status) });

export const useChangeRequest = (spaceId: string, number: string) =>
  useQuery({ queryKey: ['spaces', spaceId, 'change-requests', 'one', number], queryFn: () => getChangeRequest(spaceId, number) });
