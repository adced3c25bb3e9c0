// The sign-in endpoints (/auth/*): who is signed in, first run, signing in and out.
import { api, segment, setCsrfToken } from '../../../api/client.ts';
import type { Organization, User } from '../../../api/types.ts';

export interface Session {
  object: 'session';
  id: string;
  user: User;
  csrfToken: string;
  createdAt: string;
  expiresAt: string | null;
}

export interface AuthState {
  setupRequired: boolean;
  session: Session | null;
}

export interface SsoOption {
  kind: 'saml' | 'oidc';
  label: string;
  organization: { id: string; title: string };
  startUrl: string;
}

export interface InviteSummary {
  organization: { id: string; title: string };
  role: string;
  expiresAt: string | null;
}

export async function getAuthState(): Promise<AuthState> {
  const state = await api.get<AuthState>('/auth/state');
  setCsrfToken(state.session?.csrfToken);
  return state;
}

export const setUp = (body: { organization: string; name: string; email: string; password: string }) =>
  api.post<{ session: Session; organization: Organization }>('/auth/setup', body);

export const signIn = (body: { email: string; password: string }) => api.post<{ session: Session }>('/auth/sign-in', body);

export const signOut = () => api.post<void>('/auth/sign-out');

export const signInWithLink = (body: { token: string; password?: string }) => api.post<{ session: Session }>('/auth/sign-in-link', body);

export const requestPasswordReset = (email: string) => api.post<object>('/auth/password-reset', { email });

export const ssoOptions = (email: string) => api.get<{ items: SsoOption[] }>(`/auth/sso?email=${encodeURIComponent(email)}`);

export const getInvite = (organizationId: string, inviteId: string) =>
  api.get<InviteSummary>(`/auth/invites/${segment(organizationId)}/${segment(inviteId)}`);

export const acceptInviteAsNewPerson = (organizationId: string, inviteId: string, body: { name: string; email: string; password: string }) =>
  api.post<{ session: Session }>(`/auth/invites/${segment(organizationId)}/${segment(inviteId)}/accept`, body);

export const joinWithInvite = (organizationId: string, inviteId: string) =>
  api.post<object>(`/v1/orgs/${segment(organizationId)}/invites/${segment(inviteId)}`);
