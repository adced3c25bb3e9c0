import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { searchOrganization, searchSpace } from '../api/search.ts';

/** Search where the person is: in a space, that space; elsewhere, their organization. */
export type SearchScope = { kind: 'space'; spaceId: string } | { kind: 'organization'; organizationId: string };

export const useSearch = (scope: SearchScope | undefined, query: string) =>
  useQuery({
    queryKey: ['search', scope, query],
    queryFn: () => (scope!.kind === 'space' ? searchSpace(scope!.spaceId, query) : searchOrganization(scope!.organizationId, query)),
    enabled: scope !== undefined && query.trim().length > 0,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
