// Integration objects and their installations.
import type { IntegrationCategory, IntegrationScope } from '../lib/integrationLists.ts';
import type { InstallationWithCountsRow, IntegrationRow, SiteInstallationRow, SpaceInstallationRow } from '../db/schema.ts';

export interface ConfigurationProperty {
  type: 'string' | 'number' | 'boolean' | 'button';
  title?: string;
  description?: string;
  default?: string | number | boolean;
  completion_url?: string;
  enum?: string[];
  callback_url?: string;
  button_text?: string;
}

/** Either a schema of settings (properties, required) or a UI component (componentId). */
export interface IntegrationConfiguration {
  properties?: Record<string, ConfigurationProperty>;
  required?: string[];
  componentId?: string;
}

/** What a publication declares beyond its plain columns (kept as JSON). */
export interface IntegrationManifest {
  scopes: IntegrationScope[];
  categories: IntegrationCategory[];
  blocks: Array<{
    id: string;
    title: string;
    description?: string;
    icon?: string;
    urlUnfurl?: string[];
    markdown?: { codeblock: string; body: string };
  }>;
  contentSources: Array<{ id: string; title: string; description?: string; icon?: string; configuration: { componentId: string } }>;
  externalLinks: Array<{ url: string; label: string }>;
  configurations: { account?: IntegrationConfiguration; space?: IntegrationConfiguration; site?: IntegrationConfiguration };
  contentSecurityPolicy?: string | Record<string, string>;
}

export function integrationAssetUrl(publicUrl: string, assetId: string): string {
  return `${publicUrl}/integration-assets/${assetId}`;
}

export function presentIntegration<Owner>(
  publicUrl: string,
  integration: IntegrationRow,
  owner: Owner,
  permissions: { admin: boolean; install: boolean },
) {
  const manifest = JSON.parse(integration.manifest) as IntegrationManifest;
  return {
    object: 'integration' as const,
    name: integration.name,
    version: integration.version,
    title: integration.title,
    description: integration.description,
    summary: integration.summary,
    previewImages: (JSON.parse(integration.preview_asset_ids) as string[]).map((id) => integrationAssetUrl(publicUrl, id)),
    target: integration.target,
    // Verification is GitBook's review of marketplace integrations; a self-hosted Quire does none.
    verified: false,
    visibility: integration.visibility,
    scopes: manifest.scopes,
    categories: manifest.categories,
    blocks: manifest.blocks,
    contentSources: manifest.contentSources,
    configurations: manifest.configurations,
    externalLinks: manifest.externalLinks,
    owner,
    urls: {
      location: `${publicUrl}/v1/integrations/${integration.name}`,
      ...(integration.icon_asset_id ? { icon: integrationAssetUrl(publicUrl, integration.icon_asset_id) } : {}),
      app: `${publicUrl}/integrations/${integration.name}`,
      assets: `${publicUrl}/integration-assets/`,
      publicEndpoint: `${publicUrl}/v1/integrations/${integration.name}/fetch`,
    },
    permissions,
    ...(manifest.contentSecurityPolicy !== undefined ? { contentSecurityPolicy: manifest.contentSecurityPolicy } : {}),
  };
}

function installationLocation(publicUrl: string, installation: { integration_name: string; id: string }) {
  return `${publicUrl}/v1/integrations/${installation.integration_name}/installations/${installation.id}`;
}

/**
 * GitBook's SiteIntegrationScript: where a site's pages load an installation's script
 * (under `baseUrl`, versioned so that a new publication is loaded anew), whether it sets cookies, and the
 * sources it needs as one policy text, "directive sources; …".
 */
export function presentSiteIntegrationScript(
  baseUrl: string,
  installation: { integration_name: string; installation_id: string; version: number },
  manifest: Pick<IntegrationManifest, 'scopes' | 'contentSecurityPolicy'>,
  siteId: string,
) {
  const location = installationLocation(baseUrl, { integration_name: installation.integration_name, id: installation.installation_id });
  const policy = manifest.contentSecurityPolicy;
  const policyText =
    typeof policy === 'string'
      ? policy
      : policy && Object.entries(policy).map(([directive, sources]) => `${directive} ${sources.replaceAll(';', ' ')}`).join('; ');
  return {
    script: `${location}/sites/${siteId}/script.js?v=${installation.version}`,
    cookies: manifest.scopes.includes('site:script:cookies'),
    ...(policyText ? { contentSecurityPolicy: policyText.replace(/\s+/g, ' ').trim() } : {}),
  };
}

export function presentInstallation(publicUrl: string, installation: InstallationWithCountsRow) {
  return {
    id: installation.id,
    status: installation.status,
    space_selection: installation.space_selection,
    site_selection: installation.site_selection,
    spaces: installation.space_count,
    configuration: JSON.parse(installation.configuration) as Record<string, unknown>,
    externalIds: JSON.parse(installation.external_ids) as string[],
    target: { organization: installation.organization_id },
    createdAt: installation.created_at,
    updatedAt: installation.updated_at,
    urls: {
      location: installationLocation(publicUrl, installation),
      app: `${publicUrl}/o/${installation.organization_id}/integrations/${installation.integration_name}`,
      publicEndpoint: `${publicUrl}/v1/integrations/${installation.integration_name}/installations/${installation.id}/fetch`,
    },
  };
}

/** `space`: the space's id, or the space object when the caller asked for `extended`. */
export function presentSpaceInstallation<Space>(publicUrl: string, installation: { integration_name: string; id: string }, spaceInstallation: SpaceInstallationRow, space: Space) {
  return { ...presentContentInstallation(publicUrl, installation, spaceInstallation, `spaces/${spaceInstallation.space_id}`), space };
}

/** `site`: the site's id, or the site object when the caller asked for `extended`. */
export function presentSiteInstallation<Site>(publicUrl: string, installation: { integration_name: string; id: string }, siteInstallation: SiteInstallationRow, site: Site) {
  const presented = presentContentInstallation(publicUrl, installation, siteInstallation, `sites/${siteInstallation.site_id}`);
  // Its own endpoint, whose requests reach the script with the site installation (a visitor-auth integration's sign-in comes back there).
  const publicEndpoint = `${presented.urls.location}/fetch`;
  return { ...presented, urls: { ...presented.urls, publicEndpoint, publicContentEndpoint: publicEndpoint }, site };
}

/** What an installation on a space and one on a site share (GitBook's IntegrationContentInstallationBase). */
function presentContentInstallation(publicUrl: string, installation: { integration_name: string; id: string }, row: SpaceInstallationRow | SiteInstallationRow, path: string) {
  const location = `${installationLocation(publicUrl, installation)}/${path}`;
  const publicEndpoint = `${installationLocation(publicUrl, installation)}/fetch`;
  return {
    integration: installation.integration_name,
    installation: installation.id,
    status: row.status,
    configuration: JSON.parse(row.configuration) as Record<string, unknown>,
    externalIds: JSON.parse(row.external_ids) as string[],
    urls: { location, publicEndpoint, publicContentEndpoint: publicEndpoint },
  };
}
