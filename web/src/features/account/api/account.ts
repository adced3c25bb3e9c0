// The signed-in person's own settings under /v1/user (password, sessions, API tokens),
// and the single sign-on providers of their organizations, to link their account to.
import { api, segment } from '../../../api/client.ts';
import type { List } from '../../../api/types.ts';

export interface SessionEntry {
  object: 'session';
  id: string;
  current: boolean;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  userAgent: string | null;
  address: string | null;
}

export interface ApiToken {
  object: 'api-token';
  id: string;
  label: string;
  scope: 'read' | 'write';
  createdAt: string;
  lastUsedAt: string | null;
}

export const changePassword = (body: { currentPassword?: string; password: string }) => api.put<void>('/v1/user/password', body);

export const listSessions = () => api.get<List<SessionEntry>>('/v1/user/sessions');
export const revokeSession = (sessionId: string) => api.delete(`/v1/user/sessions/${segment(sessionId)}`);

export const listTokens = () => api.get<List<ApiToken>>('/v1/user/tokens');
export const createToken = (body: { label: string; scope: 'read' | 'write' }) => api.post<ApiToken & { token: string }>('/v1/user/tokens', body);
export const revokeToken = (tokenId: string) => api.delete(`/v1/user/tokens/${segment(tokenId)}`);

/** A sign-in choice of an organization (GitBook's listSSOProviderLoginsInOrganization). */
export interface SsoLogin {
  id: string;
  label: string;
  startURL: string;
}

export const listSsoLogins = (organizationId: string) => api.get<List<SsoLogin>>(`/v1/orgs/${segment(organizationId)}/sso`);
