// Integrations: the ones Quire offers, and their installations in an organization.
import { api, segment } from '../../../api/client.ts';
import type { List } from '../../../api/types.ts';

interface ConfigurationProperty {
  type?: string;
  title?: string;
  description?: string;
}

export interface Integration {
  object: 'integration';
  name: string;
  title: string;
  description: string;
  summary: string;
  target: string;
  visibility: 'public' | 'private' | 'unlisted';
  scopes: string[];
  configurations: { account?: { properties?: Record<string, ConfigurationProperty>; required?: string[] } };
  externalLinks: Array<{ url: string; label: string }>;
  owner: { title: string };
  urls: { icon?: string };
  permissions: { admin: boolean; install: boolean };
}

export interface Installation {
  id: string;
  status: 'active' | 'pending' | 'paused';
  spaces: number;
  configuration: Record<string, unknown>;
  createdAt: string;
  target: { organization: string };
}

export const listIntegrations = () => api.get<List<Integration>>('/v1/integrations?limit=100');
export const getIntegration = (name: string) => api.get<Integration>(`/v1/integrations/${segment(name)}`);
export const listInstalled = (organizationId: string) =>
  api.get<List<{ installation: Installation; integration: Integration }>>(`/v1/orgs/${segment(organizationId)}/installations?limit=1000`);
export const install = (name: string, organizationId: string) =>
  api.post<Installation>(`/v1/integrations/${segment(name)}/installations`, { organization: organizationId });
export const configure = (name: string, installationId: string, configuration: Record<string, unknown>) =>
  api.patch<Installation>(`/v1/integrations/${segment(name)}/installations/${segment(installationId)}`, { configuration });
export const uninstall = (name: string, installationId: string) => api.delete(`/v1/integrations/${segment(name)}/installations/${segment(installationId)}`);
