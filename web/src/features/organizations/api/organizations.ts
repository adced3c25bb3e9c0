import { api, segment } from '../../../api/client.ts';
import type { List, Organization } from '../../../api/types.ts';

/** The organizations the signed-in person is a member of. */
export const listOrganizations = () => api.get<List<Organization>>('/v1/orgs?limit=100');

export const getOrganization = (organizationId: string) => api.get<Organization>(`/v1/orgs/${segment(organizationId)}`);
