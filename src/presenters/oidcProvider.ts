// OpenID Connect provider objects, and the endpoints Quire offers each provider. The
// client secret is never part of them.
import { presentTeam } from './team.ts';
import type { OidcProviderRow, TeamWithCountsRow } from '../db/schema.ts';

/** Quire's own endpoints for one provider: the callback is what the provider registers as redirect URI. */
export function oidcServiceUrls(publicUrl: string, providerId: string) {
  const base = `${publicUrl}/sso/oidc/${providerId}`;
  return { start: `${base}/start`, callback: `${base}/callback` };
}

export function presentOidcProvider(
  publicUrl: string,
  provider: OidcProviderRow,
  defaultTeam: { team: TeamWithCountsRow; permissions: { admin: boolean; view: boolean } } | undefined,
) {
  return {
    object: 'oidc-provider' as const,
    id: provider.id,
    label: provider.label,
    issuer: provider.issuer,
    clientId: provider.client_id,
    ...(defaultTeam ? { defaultTeam: presentTeam(defaultTeam.team, defaultTeam.permissions) } : {}),
    defaultRole: provider.default_role,
    createdAt: provider.created_at,
    urls: {
      location: `${publicUrl}/v1/orgs/${provider.organization_id}/oidc-providers/${provider.id}`,
      ...oidcServiceUrls(publicUrl, provider.id),
    },
  };
}
