// What a caller may do in an organization. The same functions answer "may I?" for the
// checks and fill the `permissions` object of responses, so the two never disagree.
import { Forbidden, NotFound } from '../errors.ts';
import { roleAtLeast, type Role } from '../lib/roles.ts';

/** A caller's standing in one organization; undefined role means not a member. */
export interface OrganizationAccess {
  isMember: boolean;
  /** null for guests. */
  role: Role | null;
  ownsTeam: boolean;
}

export interface OrganizationPermissions {
  view: boolean;
  admin: boolean;
  ownTeam: boolean;
  createContent: boolean;
  createOpenAPISpec: boolean;
  ingestConversations: boolean;
  viewBilling: boolean;
  listMembers: boolean;
  listTeams: boolean;
  listIntegrations: boolean;
  listInstallations: boolean;
  installIntegration: boolean;
}

export function organizationPermissions(access: OrganizationAccess): OrganizationPermissions {
  const admin = access.isMember && roleAtLeast(access.role, 'admin');
  const fullMember = access.isMember && access.role !== null;
  return {
    view: access.isMember,
    admin,
    ownTeam: access.isMember && access.ownsTeam,
    createContent: access.isMember && roleAtLeast(access.role, 'create'),
    createOpenAPISpec: organizationResourcePermissions(access).edit,
    ingestConversations: admin,
    viewBilling: admin,
    listMembers: fullMember,
    listTeams: fullMember,
    listIntegrations: fullMember,
    listInstallations: admin,
    installIntegration: admin,
  };
}

const REFUSALS: Record<keyof OrganizationPermissions, string> = {
  view: 'You are not a member of this organization',
  admin: 'Only administrators of this organization may do this',
  ownTeam: 'Only team owners may do this',
  createContent: 'Creating content in this organization needs the "create" role or higher',
  createOpenAPISpec: 'Only administrators of this organization may create OpenAPI specs',
  ingestConversations: 'Only administrators of this organization may do this',
  viewBilling: 'Only administrators of this organization may see its billing',
  listMembers: 'Guests may not list the members of this organization',
  listTeams: 'Guests may not list the teams of this organization',
  listIntegrations: 'Guests may not list the integrations of this organization',
  listInstallations: 'Only administrators of this organization may list its installations',
  installIntegration: 'Only administrators of this organization may install integrations',
};

/**
 * Non-members get 404 (existence does not leak across organizations); members lacking
 * the permission get 403.
 */
export function authorizeOrganization(
  access: OrganizationAccess | undefined,
  permission: keyof OrganizationPermissions,
  organizationId: string,
): OrganizationAccess {
  if (!access || !access.isMember) throw new NotFound(`No organization with id "${organizationId}"`);
  if (!organizationPermissions(access)[permission]) throw new Forbidden(REFUSALS[permission]);
  return access;
}

/** Team permissions: organization admins and the team's owners manage it; members view it. */
export function teamPermissions(access: OrganizationAccess, teamRole: string | null | undefined) {
  const manage = roleAtLeast(access.role, 'admin') || teamRole === 'owner';
  return { admin: access.isMember && manage, view: access.isMember };
}

export function authorizeTeamAdmin(access: OrganizationAccess, teamRole: string | null | undefined): void {
  if (!teamPermissions(access, teamRole).admin) {
    throw new Forbidden("Only the organization's administrators and the team's owners may change this team");
  }
}

/**
 * What an organization keeps for all its members (OpenAPI specs, translation
 * settings): members with a role see them, administrators change them.
 */
/**
 * A site's `permissions` for a caller: members with the "create" role manage sites
 * (structure, settings, publishing) in Quire; readers of a published site only view it.
 */
export function sitePermissions(access: OrganizationAccess | undefined) {
  const member = access?.isMember === true;
  const manage = member && organizationPermissions(access).createContent;
  return {
    view: true,
    access: member,
    edit: manage,
    create: manage,
    admin: manage,
    installIntegration: member && organizationPermissions(access).installIntegration,
    viewAdaptiveSchema: member,
    editAdaptiveSchema: manage,
  };
}

export function organizationResourcePermissions(access: OrganizationAccess) {
  return {
    view: access.isMember && access.role !== null,
    edit: access.isMember && roleAtLeast(access.role, 'admin'),
  };
}

export function authorizeOrganizationResource(access: OrganizationAccess, action: 'view' | 'edit'): void {
  if (!organizationResourcePermissions(access)[action]) {
    throw new Forbidden(
      action === 'view' ? 'Guests may not see the settings of this organization' : 'Only administrators of this organization may change this',
    );
  }
}
