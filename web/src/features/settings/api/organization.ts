// The organization as its administration screens read it: with what the caller may do.
import { api, segment } from '../../../api/client.ts';
import type { Organization } from '../../../api/types.ts';

export interface OrganizationPermissions {
  view: boolean;
  admin: boolean;
  createContent: boolean;
  listMembers: boolean;
  listIntegrations: boolean;
  installIntegration: boolean;
}

export type Role = 'read' | 'comment' | 'edit' | 'review' | 'create' | 'admin';

export interface AdministeredOrganization extends Organization {
  emailDomains: string[];
  defaultRole: Role | null;
  inviteLinks: boolean;
  sso: boolean;
  permissions: OrganizationPermissions;
}

export const getAdministeredOrganization = (organizationId: string) =>
  api.get<AdministeredOrganization>(`/v1/orgs/${segment(organizationId)}`);

export const updateOrganization = (organizationId: string, body: { title?: string; emailDomains?: string[]; defaultRole?: Role | null; inviteLinks?: boolean }) =>
  api.patch<AdministeredOrganization>(`/v1/orgs/${segment(organizationId)}`, body);
