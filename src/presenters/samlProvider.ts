// SAML provider objects and the service endpoints Quire offers each provider.
import { presentTeam } from './team.ts';
import type { TeamWithCountsRow, SamlProviderRow } from '../db/schema.ts';

/** Quire's own endpoints for one provider: what an identity provider is configured with. */
export function samlServiceUrls(publicUrl: string, providerId: string) {
  const base = `${publicUrl}/sso/saml/${providerId}`;
  return { acsURL: `${base}/acs`, startURL: `${base}/start`, entityID: `${base}/metadata` };
}

/** Ready to sign people in once the identity provider's URL, entity ID and certificate are known. */
export function isSamlProviderActive(provider: SamlProviderRow): boolean {
  return provider.sso_url !== null && provider.entity_id !== null && provider.certificate !== null;
}

export function presentSamlProvider(
  publicUrl: string,
  provider: SamlProviderRow,
  defaultTeam: { team: TeamWithCountsRow; permissions: { admin: boolean; view: boolean } } | undefined,
) {
  return {
    object: 'saml-provider' as const,
    id: provider.id,
    label: provider.label,
    // Not yet configured fields read as empty strings: GitBook's shape requires them.
    ssoURL: provider.sso_url ?? '',
    entityID: provider.entity_id ?? '',
    certificate: provider.certificate ?? '',
    ...(defaultTeam ? { defaultTeam: presentTeam(defaultTeam.team, defaultTeam.permissions) } : {}),
    defaultRole: provider.default_role,
    createdAt: provider.created_at,
    status: isSamlProviderActive(provider) ? ('active' as const) : ('pending' as const),
    service: samlServiceUrls(publicUrl, provider.id),
    urls: { location: `${publicUrl}/v1/orgs/${provider.organization_id}/saml/${provider.id}` },
  };
}
