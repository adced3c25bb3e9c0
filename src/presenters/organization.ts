// Organization objects.
import { organizationPermissions, type OrganizationAccess } from '../policies/organization.ts';
import type { OrganizationRow } from '../db/schema.ts';

export function presentOrganization(publicUrl: string, organization: OrganizationRow, access: OrganizationAccess) {
  return {
    object: 'organization' as const,
    id: organization.id,
    title: organization.title,
    createdAt: organization.created_at,
    emailDomains: JSON.parse(organization.email_domains) as string[],
    ...(organization.hostname ? { hostname: organization.hostname } : {}),
    type: organization.type,
    defaultRole: organization.default_role,
    ...(organization.default_content_site
      ? { defaultContent: { type: 'site' as const, site: organization.default_content_site } }
      : {}),
    sso: organization.sso === 1,
    ai: organization.ai === 1,
    inviteLinks: organization.invite_links === 1,
    // Quire asks for no review before a merge: whoever may merge, merges.
    mergeRules: { type: 'none' as const },
    // Self-hosted: there is no billing, so every organization is on the internal plan.
    plan: 'internal',
    urls: {
      location: `${publicUrl}/v1/orgs/${organization.id}`,
      app: `${publicUrl}/o/${organization.id}/`,
      ...(organization.logo_url ? { logo: organization.logo_url } : {}),
    },
    trial: { status: 'notapplicable' },
    internal_isOnNewTrial: true,
    permissions: organizationPermissions(access),
  };
}
