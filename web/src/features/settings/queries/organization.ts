import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { organizationKeys } from '../../organizations/queries/organizations.ts';
import { getAdministeredOrganization, updateOrganization } from '../api/organization.ts';

/** The organization with the caller's permissions; the same answer the organization screens cache. */
export function useAdministeredOrganization(organizationId: string) {
  return useQuery({ queryKey: organizationKeys.one(organizationId), queryFn: () => getAdministeredOrganization(organizationId) });
}

export function useUpdateOrganization(organizationId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Parameters<typeof updateOrganization>[1]) => updateOrganization(organizationId, body),
    onSuccess: (organization) => {
      client.setQueryData(organizationKeys.one(organizationId), organization);
      void client.invalidateQueries({ queryKey: organizationKeys.all, exact: true });
    },
  });
}
