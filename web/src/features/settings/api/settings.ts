// An organization's settings beyond its own fields: custom fields, OpenAPI specs, and
// single sign-on through SAML and OpenID Connect providers.
import { api, segment } from '../../../api/client.ts';
import type { List } from '../../../api/types.ts';
import type { Role } from './organization.ts';

export interface CustomField {
  object: 'custom-field';
  name: string;
  type: string;
  title: string;
  description: string;
  options?: string[];
}

export interface OpenApiSpec {
  object: 'openapi-spec';
  id: string;
  slug: string;
  sourceURL?: string;
  processingState: 'pending' | 'progress' | 'complete';
  visibility: 'private' | 'public';
  updatedAt: string;
  lastProcessedAt?: string;
  lastProcessErrorCode?: string;
  lastProcessedErrors?: Array<{ message: string }>;
  permissions: { view: boolean; edit: boolean };
  urls: { app: string };
}

export interface SamlProvider {
  object: 'saml-provider';
  id: string;
  label: string;
  ssoURL: string;
  entityID: string;
  certificate: string;
  defaultRole: Role | null;
  status: 'active' | 'pending';
  service: { acsURL: string; startURL: string; entityID: string };
}

export interface OidcProvider {
  object: 'oidc-provider';
  id: string;
  label: string;
  issuer: string;
  clientId: string;
  defaultRole: Role | null;
  urls: { start: string; callback: string };
}

const org = (organizationId: string) => `/v1/orgs/${segment(organizationId)}`;

export const listCustomFields = (organizationId: string) => api.get<List<CustomField>>(`${org(organizationId)}/custom-fields?limit=1000`);
export const createCustomField = (organizationId: string, body: { name: string; type: string; title?: string; options?: string[] }) =>
  api.post<CustomField>(`${org(organizationId)}/custom-fields`, body);
export const deleteCustomField = (organizationId: string, name: string) => api.delete(`${org(organizationId)}/custom-fields/${segment(name)}`);

export const listSpecs = (organizationId: string) => api.get<List<OpenApiSpec>>(`${org(organizationId)}/openapi?limit=1000`);
export const getSpec = (organizationId: string, slug: string) => api.get<OpenApiSpec>(`${org(organizationId)}/openapi/${segment(slug)}`);
export const createSpec = (organizationId: string, slug: string, source: { url?: string; text?: string }) =>
  api.post<OpenApiSpec>(`${org(organizationId)}/openapi`, { slug, source });
export const replaceSpec = (organizationId: string, slug: string, source: { url?: string; text?: string }) =>
  api.put<OpenApiSpec>(`${org(organizationId)}/openapi/${segment(slug)}`, { source });
export const setSpecVisibility = (organizationId: string, slug: string, visibility: 'private' | 'public') =>
  api.patch<OpenApiSpec>(`${org(organizationId)}/openapi/${segment(slug)}`, { visibility });
export const deleteSpec = (organizationId: string, slug: string) => api.delete(`${org(organizationId)}/openapi/${segment(slug)}`);

export const listSamlProviders = (organizationId: string) => api.get<List<SamlProvider>>(`${org(organizationId)}/saml?limit=1000`);
export const createSamlProvider = (organizationId: string, body: { label: string; ssoURL?: string; entityID?: string; certificate?: string; defaultRole?: Role | null }) =>
  api.post<SamlProvider>(`${org(organizationId)}/saml`, body);
export const updateSamlProvider = (organizationId: string, id: string, body: Partial<Parameters<typeof createSamlProvider>[1]>) =>
  api.patch<SamlProvider>(`${org(organizationId)}/saml/${segment(id)}`, body);
export const deleteSamlProvider = (organizationId: string, id: string) => api.delete(`${org(organizationId)}/saml/${segment(id)}`);

export const listOidcProviders = (organizationId: string) => api.get<List<OidcProvider>>(`${org(organizationId)}/oidc-providers?limit=1000`);
export const createOidcProvider = (
  organizationId: string,
  body: { label: string; issuer: string; clientId: string; clientSecret: string; defaultRole?: Role | null },
) => api.post<OidcProvider>(`${org(organizationId)}/oidc-providers`, body);
export const updateOidcProvider = (organizationId: string, id: string, body: Partial<Parameters<typeof createOidcProvider>[1]>) =>
  api.patch<OidcProvider>(`${org(organizationId)}/oidc-providers/${segment(id)}`, body);
export const deleteOidcProvider = (organizationId: string, id: string) => api.delete(`${org(organizationId)}/oidc-providers/${segment(id)}`);
