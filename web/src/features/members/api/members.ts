// An organization's people: members and their roles, link invites and e-mail invites.
import { api, segment } from '../../../api/client.ts';
import type { List, User } from '../../../api/types.ts';
import type { Role } from '../../settings/api/organization.ts';

export interface Member {
  object: 'member';
  id: string;
  role: Role | null;
  user: User;
  disabled: boolean;
  joinedAt: string;
  sso: boolean;
  teams: number;
}

export interface LinkInvite {
  object: 'invite';
  id: string;
  role: Role | null;
  expiresAt: string | null;
  email: string | null;
  urls: { app: string };
}

const org = (organizationId: string) => `/v1/orgs/${segment(organizationId)}`;

export const listMembers = (organizationId: string) => api.get<List<Member>>(`${org(organizationId)}/members?limit=1000`);
export const changeRole = (organizationId: string, userId: string, role: Role | null) =>
  api.patch<Member>(`${org(organizationId)}/members/${segment(userId)}`, { role });
export const removeMember = (organizationId: string, userId: string) => api.delete(`${org(organizationId)}/members/${segment(userId)}`);

export const listLinkInvites = (organizationId: string) => api.get<List<LinkInvite>>(`${org(organizationId)}/link-invites?limit=1000`);
export const createLinkInvite = (organizationId: string, body: { role: Role | null; expiresAt: string | null }) =>
  api.post<LinkInvite>(`${org(organizationId)}/link-invites`, body);
export const revokeLinkInvite = (organizationId: string, inviteId: string) => api.delete(`${org(organizationId)}/link-invites/${segment(inviteId)}`);

export const inviteByEmail = (organizationId: string, body: { emails: string[]; role: Role | null }) =>
  api.post<{ users: string[]; invited: number }>(`${org(organizationId)}/invites`, body);
